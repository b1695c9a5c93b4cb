import { randomBytes } from 'node:crypto';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { inArray } from 'drizzle-orm';
import type { Config } from '../config';
import type { AppDb } from '../db/client';
import { users } from '../db/schema';
import { hashPassword, verifyPassword } from '../modules/auth';
import { demoAccounts } from './demo-data';

export interface SeedLog {
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
}

type DemoAccount = (typeof demoAccounts)[keyof typeof demoAccounts];

export interface DemoCredentials {
  /** True when the passwords are the ones published in the README (never in production). */
  published: boolean;
  accounts: Array<{ account: DemoAccount; password: string }>;
}

/**
 * The demo accounts and their passwords. Outside production: the README passwords, so a fresh `npm start` can be
 * tried at once. In production (only with an explicit SEED_DEMO=true) every account gets a random password, written
 * once to an owner-only file (see reportCreatedDemoAccounts): a published password on a reachable server is an open
 * door.
 */
export function demoAccountCredentials(config: Pick<Config, 'isProduction'>): DemoCredentials {
  const published = !config.isProduction;
  return {
    published,
    accounts: Object.values(demoAccounts).map((account) => ({
      account,
      password: published ? account.password : randomBytes(18).toString('base64url'),
    })),
  };
}

/** Inserts the demo accounts (e-mail verified) and returns their ids by e-mail. */
export async function insertDemoAccounts(
  db: Pick<AppDb, 'insert'>,
  credentials: DemoCredentials,
): Promise<Map<string, string>> {
  const hashes = await Promise.all(credentials.accounts.map(({ password }) => hashPassword(password)));
  const rows = await db
    .insert(users)
    .values(
      credentials.accounts.map(({ account }, i) => ({
        name: account.name,
        email: account.email,
        emailVerified: true,
        passwordHash: hashes[i]!,
        role: account.role,
      })),
    )
    .returning({ id: users.id, email: users.email });
  return new Map(rows.map((row) => [row.email, row.id]));
}

const credentialLines = (credentials: DemoCredentials) =>
  credentials.accounts
    .map(({ account, password }) => `  ${account.role.padEnd(6)}  ${account.email}  /  ${password}`)
    .join('\n');

/** Logs the README accounts and their published passwords (outside production only: they are public anyway). */
export function logPublishedDemoAccounts(credentials: DemoCredentials, log: SeedLog): void {
  if (credentials.published)
    log.info(`Demo accounts (role, e-mail / password):\n${credentialLines(credentials)}`);
}

/** Where generated demo passwords are written in production (in DATA_DIR, owner-only). */
export const DEMO_CREDENTIALS_FILE = 'demo-accounts.txt';

/**
 * Tells the operator the accounts just created. The README passwords (outside production) are logged. Generated
 * passwords (production) never enter the log: a JSON log is shipped, indexed and kept by whatever collects it, where
 * a password outlives its purpose. They are written once to an owner-only file in DATA_DIR (the place that already
 * holds the database and the secret key), and the log names the file; delete it after reading.
 */
export async function reportCreatedDemoAccounts(
  credentials: DemoCredentials,
  log: SeedLog,
  dataDir: string,
): Promise<void> {
  if (credentials.published) {
    logPublishedDemoAccounts(credentials, log);
    return;
  }
  const file = path.join(dataDir, DEMO_CREDENTIALS_FILE);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await writeFile(
    file,
    `Backbeat demo accounts, created ${new Date().toISOString()} with generated passwords ` +
      `(role, e-mail / password):\n${credentialLines(credentials)}\n` +
      'Store them, change them after signing in (or delete the accounts), then delete this file.\n',
    { mode: 0o600, flag: 'w' },
  );
  await chmod(file, 0o600);
  log.warn(
    { file, accounts: credentials.accounts.map(({ account }) => account.email) },
    'demo accounts created with generated passwords: they are in this owner-only file, not in the log; ' +
      'read it, then delete it',
  );
}

/**
 * On a later start: outside production, the README accounts that exist are listed as before. In production nothing
 * is printed unless a demo account still accepts its published password (a database seeded by an older version),
 * which is logged as a warning naming the account.
 */
export async function reportExistingDemoAccounts(
  config: Pick<Config, 'isProduction'>,
  db: Pick<AppDb, 'select'>,
  log: SeedLog,
) {
  const emails = Object.values(demoAccounts).map((a) => a.email);
  const present = await db
    .select({ email: users.email, passwordHash: users.passwordHash })
    .from(users)
    .where(inArray(users.email, emails));
  if (present.length === 0) return;
  if (!config.isProduction) {
    const lines = Object.values(demoAccounts)
      .filter((a) => present.some((p) => p.email === a.email))
      .map((a) => `  ${a.role.padEnd(6)}  ${a.email}  /  ${a.password}`);
    log.info(`Demo accounts (role, e-mail / password):\n${lines.join('\n')}`);
    return;
  }
  for (const account of Object.values(demoAccounts)) {
    const row = present.find((p) => p.email === account.email);
    if (row?.passwordHash && (await verifyPassword(row.passwordHash, account.password))) {
      log.warn(
        { email: account.email, role: account.role },
        'a demo account still has its published README password: change the password or delete the account',
      );
    }
  }
}
