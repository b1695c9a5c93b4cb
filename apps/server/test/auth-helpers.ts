import { randomBytes } from 'node:crypto';
import { getTableName, sql, type Table } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import type { MailMessage, Mailer } from '../src/modules/mail';
import type { TestContext } from './test-app';

/** Keeps every mail in memory; `next()` waits for the next one (mail may be sent after the reply). */
export class MemoryMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  /** Set to make deliveries fail (an SMTP outage); each failed attempt is still recorded in `failed`. */
  failWith: Error | null = null;
  readonly failed: MailMessage[] = [];
  private waiters: Array<{ to?: string; resolve: (mail: MailMessage) => void }> = [];

  async send(message: MailMessage): Promise<void> {
    if (this.failWith) {
      this.failed.push(message);
      throw this.failWith;
    }
    this.sent.push(message);
    const waiter = this.waiters.find((w) => !w.to || w.to === message.to);
    if (waiter) {
      this.waiters = this.waiters.filter((w) => w !== waiter);
      waiter.resolve(message);
    }
  }

  next(to?: string, timeoutMs = 15_000): Promise<MailMessage> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no mail to ${to ?? 'anyone'} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.waiters.push({
        to,
        resolve: (mail) => {
          clearTimeout(timer);
          resolve(mail);
        },
      });
    });
  }
}

/** A random documentation-range IP, so per-IP limits of one test do not leak into another. */
export function randomIp(): string {
  const bytes = randomBytes(2);
  return `198.51.${bytes[0]}.${bytes[1]}`;
}

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomBytes(4).toString('hex')}@example.com`;
}

export function sessionCookie(res: LightMyRequestResponse): string | undefined {
  return res.cookies.find((c) => c.name === 'token')?.value;
}

export async function countRows(ctx: TestContext, table: Table): Promise<number> {
  const rows = await ctx.database.query<{ n: number }>(
    sql`select count(*)::int as n from ${sql.identifier(getTableName(table))}`,
  );
  return Number(rows[0]!.n);
}

export interface Registered {
  id: string;
  email: string;
  password: string;
  token: string;
}

export async function registerUser(
  ctx: TestContext,
  overrides: Partial<{ name: string; email: string; password: string }> = {},
): Promise<Registered> {
  const body = {
    name: 'Test Listener',
    email: uniqueEmail(),
    password: 'correct horse battery',
    ...overrides,
  };
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/users/register',
    payload: body,
    remoteAddress: randomIp(),
  });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  const json = res.json<{ user: { _id: string }; token: string }>();
  return { id: json.user._id, email: body.email.toLowerCase(), password: body.password, token: json.token };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
