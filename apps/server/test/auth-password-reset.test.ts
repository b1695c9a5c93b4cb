import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordResets, sessions, users } from '../src/db/schema';
import { hashToken } from '../src/platform/session-token';
import { bearer, countRows, MemoryMailer, randomIp, registerUser, uniqueEmail } from './auth-helpers';
import { createTestApp, type TestContext } from './test-app';

/** Mail is sent after the reply; give a loaded machine time. */
const POLL = { timeout: 15_000 };

let ctx: TestContext;
let mailer: MemoryMailer;
beforeAll(async () => {
  mailer = new MemoryMailer();
  ctx = await createTestApp({ services: { mailer } });
});
afterAll(() => ctx.close());

const SENT = 'If an account exists for that email, a reset link has been sent.';
const INVALID = { message: 'This reset link is invalid or has expired', code: 'RESET_LINK_INVALID' };

const forgot = (payload: unknown) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/users/forgot-password',
    payload: payload as object,
    remoteAddress: randomIp(),
  });
const reset = (token: string, payload: unknown) =>
  ctx.app.inject({ method: 'POST', url: `/api/users/reset-password/${token}`, payload: payload as object });
const login = (email: string, password: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/users/login',
    payload: { email, password },
    remoteAddress: randomIp(),
  });

/** Requests a reset for the account and returns the token from the mailed link. */
async function mailedToken(email: string): Promise<string> {
  const mail = mailer.next(email.toLowerCase());
  expect((await forgot({ email })).statusCode).toBe(200);
  const { text, html, subject } = await mail;
  expect(subject).toBe('Reset your Backbeat password');
  const match = /http:\/\/localhost:3000\/reset-password\/([A-Za-z0-9_-]+)/.exec(text);
  expect(match).not.toBeNull();
  expect(html).toContain(match![0]);
  return match![1]!;
}

describe('POST /api/users/forgot-password', () => {
  it('mails a single-use link and stores only the SHA-256 of the token, valid for 1 hour', async () => {
    const account = await registerUser(ctx);
    const token = await mailedToken(account.email.toUpperCase());
    const [row] = await ctx.database.db
      .select()
      .from(passwordResets)
      .where(eq(passwordResets.userId, account.id));
    expect(row?.tokenHash).toBe(hashToken(token));
    expect(row?.tokenHash).not.toContain(token);
    const ttl = row!.expiresAt.getTime() - row!.createdAt.getTime();
    expect(ttl).toBeGreaterThan(59 * 60 * 1000);
    expect(ttl).toBeLessThan(61 * 60 * 1000);
  });

  it('answers an unknown e-mail exactly the same and writes nothing', async () => {
    const before = [await countRows(ctx, passwordResets), mailer.sent.length];
    const res = await forgot({ email: uniqueEmail('ghost') });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: SENT });
    // A known account's request afterwards is processed in order; by its mail, the ghost's is done too.
    const account = await registerUser(ctx);
    await mailedToken(account.email);
    expect([await countRows(ctx, passwordResets), mailer.sent.length]).toEqual([
      before[0]! + 1,
      before[1]! + 1,
    ]);
  });

  it('still answers 200 when delivery fails (the failure is only logged)', async () => {
    const account = await registerUser(ctx);
    mailer.failWith = new Error('SMTP down');
    try {
      const res = await forgot({ email: account.email });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: SENT });
      await expect.poll(() => mailer.failed.filter((m) => m.to === account.email).length, POLL).toBe(1);
    } finally {
      mailer.failWith = null;
    }
    expect((await ctx.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });

  it.each([
    [{}, 'email: Email is required'],
    [{ email: 'nope' }, 'email: Please enter a valid email address'],
  ])('answers 400 for %j', async (payload, message) => {
    const res = await forgot(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message, code: 'VALIDATION_ERROR' });
  });
});

describe('POST /api/users/reset-password/:token', () => {
  it('sets the new password, uses the token, and ends every session', async () => {
    const account = await registerUser(ctx);
    const second = (await login(account.email, account.password)).json().token as string;
    const token = await mailedToken(account.email);
    const res = await reset(token, { password: 'brand new secret' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Password has been reset. Please log in.' });

    for (const old of [account.token, second]) {
      const me = await ctx.app.inject({ method: 'GET', url: '/api/users/me', headers: bearer(old) });
      expect(me.statusCode).toBe(401);
    }
    expect((await login(account.email, account.password)).statusCode).toBe(401);
    expect((await login(account.email, 'brand new secret')).statusCode).toBe(200);
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, account.id));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row?.emailVerified).toBe(true);
  });

  it('refuses a used token and writes nothing', async () => {
    const account = await registerUser(ctx);
    const token = await mailedToken(account.email);
    expect((await reset(token, { password: 'first new password' })).statusCode).toBe(200);
    const [before] = await ctx.database.db.select().from(users).where(eq(users.id, account.id));
    const again = await reset(token, { password: 'second new password' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(INVALID);
    const [after] = await ctx.database.db.select().from(users).where(eq(users.id, account.id));
    expect(after?.passwordHash).toBe(before?.passwordHash);
  });

  it('voids older links once one of them is used', async () => {
    const account = await registerUser(ctx);
    const older = await mailedToken(account.email);
    const newer = await mailedToken(account.email);
    expect((await reset(newer, { password: 'the newest password' })).statusCode).toBe(200);
    expect((await reset(older, { password: 'an older password' })).json()).toEqual(INVALID);
  });

  it('refuses an expired token and writes nothing', async () => {
    const account = await registerUser(ctx);
    const token = await mailedToken(account.email);
    await ctx.database.query(
      sql`update password_resets set expires_at = now() - interval '1 second' where token_hash = ${hashToken(token)}`,
    );
    const sessionsBefore = await countRows(ctx, sessions);
    const res = await reset(token, { password: 'too late password' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(INVALID);
    const [row] = await ctx.database.db
      .select()
      .from(passwordResets)
      .where(eq(passwordResets.userId, account.id));
    expect(row?.usedAt).toBeNull();
    expect((await login(account.email, account.password)).statusCode).toBe(200);
    expect(await countRows(ctx, sessions)).toBe(sessionsBefore + 1);
  });

  it('refuses an unknown token', async () => {
    const res = await reset('made-up-token', { password: 'whatever password' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(INVALID);
  });

  it.each([
    [{}, 'password: Password is required'],
    [{ password: 'short' }, 'password: Password must be at least 8 characters'],
    [{ password: 'x'.repeat(257) }, 'password: Password must be at most 256 characters'],
  ])('answers 400 for %j and keeps the token usable', async (payload, message) => {
    const account = await registerUser(ctx);
    const token = await mailedToken(account.email);
    const res = await reset(token, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message, code: 'VALIDATION_ERROR' });
    expect((await reset(token, { password: 'a valid new password' })).statusCode).toBe(200);
  });
});
