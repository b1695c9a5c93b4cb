import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/db/schema';
import {
  demoAccountCredentials,
  insertDemoAccounts,
  DEMO_CREDENTIALS_FILE,
  reportCreatedDemoAccounts,
  reportExistingDemoAccounts,
} from '../src/demo/demo-accounts';
import { demoAccounts } from '../src/demo/demo-data';
import { seedDemoOnStartup } from '../src/demo/demo-seed';
import { countRows, randomIp } from './auth-helpers';
import { createTestApp, type TestContext } from './test-app';

/** Captures what start-up logs, level and text. */
function memoryLog() {
  const lines: Array<{ level: 'info' | 'warn'; text: string }> = [];
  const write = (level: 'info' | 'warn') => (obj: object | string, msg?: string) =>
    lines.push({ level, text: typeof obj === 'string' ? obj : `${JSON.stringify(obj)} ${msg ?? ''}` });
  return { lines, info: write('info'), warn: write('warn'), text: () => lines.map((l) => l.text).join('\n') };
}

const login = (ctx: TestContext, email: string, password: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/users/login',
    payload: { email, password },
    remoteAddress: randomIp(),
  });

// SEED_DEMO is given as '' (unset), so each context gets the default of its NODE_ENV.
const production = { NODE_ENV: 'production', SEED_DEMO: '', SMTP_URL: 'smtp://127.0.0.1:2525' };

describe('production start-up on an empty database (SEED_DEMO unset)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ env: production });
  });
  afterAll(() => ctx.close());

  it('creates no account, says so, and admin@backbeat.local / backbeat-admin cannot sign in', async () => {
    expect(ctx.config.seedDemo).toBe(false);
    const log = memoryLog();
    await seedDemoOnStartup({ config: ctx.config, database: ctx.database, services: ctx.app.services, log });

    expect(log.text()).toMatch(/no demo accounts were created/);
    expect(await countRows(ctx, users)).toBe(0);
    const res = await login(ctx, 'admin@backbeat.local', 'backbeat-admin');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Invalid email or password', code: 'INVALID_CREDENTIALS' });
  });
});

describe('demo accounts seeded in production (SEED_DEMO=true)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ env: { ...production, SEED_DEMO: 'true' } });
  });
  afterAll(() => ctx.close());

  it('get generated passwords, written to an owner-only file and never to the log; README passwords fail', async () => {
    expect(ctx.config.seedDemo).toBe(true);
    const credentials = demoAccountCredentials(ctx.config);
    expect(credentials.published).toBe(false);
    await insertDemoAccounts(ctx.database.db, credentials);
    const log = memoryLog();
    await reportCreatedDemoAccounts(credentials, log, ctx.config.dataDir);

    const file = path.join(ctx.config.dataDir, DEMO_CREDENTIALS_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const written = readFileSync(file, 'utf8');
    expect(log.text()).toContain(file);
    for (const { account, password } of credentials.accounts) {
      expect(password).not.toBe(account.password);
      expect(password.length).toBeGreaterThanOrEqual(24);
      expect(written).toContain(`${account.email}  /  ${password}`);
      expect(log.text()).not.toContain(password);
      expect(log.text()).not.toContain(account.password);
      const refused = await login(ctx, account.email, account.password);
      expect(refused.statusCode).toBe(401);
      expect(refused.json().code).toBe('INVALID_CREDENTIALS');
      const allowed = await login(ctx, account.email, password);
      expect(allowed.statusCode).toBe(200);
      expect(allowed.json().user).toMatchObject({ email: account.email, role: account.role });
    }
    expect(log.lines.every((line) => line.level === 'warn')).toBe(true);

    // Later starts never print them again, and find no published password to warn about.
    const later = memoryLog();
    await reportExistingDemoAccounts(ctx.config, ctx.database.db, later);
    expect(later.lines).toEqual([]);
  });

  it('generates different passwords every time', () => {
    const first = demoAccountCredentials(ctx.config).accounts.map((a) => a.password);
    const second = demoAccountCredentials(ctx.config).accounts.map((a) => a.password);
    expect(new Set([...first, ...second]).size).toBe(first.length * 2);
  });
});

describe('a production database seeded by an older version (README passwords)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ env: production });
  });
  afterAll(() => ctx.close());

  it('is named in a start-up warning per account that still accepts its published password', async () => {
    await insertDemoAccounts(ctx.database.db, demoAccountCredentials({ isProduction: false }));
    const log = memoryLog();
    await seedDemoOnStartup({ config: ctx.config, database: ctx.database, services: ctx.app.services, log });
    const warnings = log.lines.filter((line) => line.level === 'warn');
    expect(warnings).toHaveLength(3);
    for (const account of Object.values(demoAccounts)) {
      expect(warnings.some((w) => w.text.includes(account.email))).toBe(true);
    }
    expect(log.text()).not.toContain('backbeat-admin');
  });
});

describe('development and test keep the README demo accounts', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ env: { SEED_DEMO: '' } });
  });
  afterAll(() => ctx.close());

  it('seeds by default, and the README passwords sign in', async () => {
    expect(ctx.config.seedDemo).toBe(true);
    const credentials = demoAccountCredentials(ctx.config);
    expect(credentials.published).toBe(true);
    await insertDemoAccounts(ctx.database.db, credentials);
    const res = await login(ctx, 'admin@backbeat.local', 'backbeat-admin');
    expect(res.statusCode).toBe(200);
    const log = memoryLog();
    await reportExistingDemoAccounts(ctx.config, ctx.database.db, log);
    expect(log.text()).toContain('admin@backbeat.local  /  backbeat-admin');
  });
});
