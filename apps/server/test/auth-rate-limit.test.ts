import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordResets, rateLimitHits, sessions, users } from '../src/db/schema';
import { countRows, MemoryMailer, randomIp, registerUser, uniqueEmail } from './auth-helpers';
import { createTestApp, type TestContext } from './test-app';

let ctx: TestContext;
let mailer: MemoryMailer;
beforeAll(async () => {
  mailer = new MemoryMailer();
  ctx = await createTestApp({ services: { mailer } });
});
afterAll(() => ctx.close());

const login = (email: string, password: string, ip: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/users/login',
    payload: { email, password },
    remoteAddress: ip,
  });
const forgot = (email: string, ip: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/users/forgot-password',
    payload: { email },
    remoteAddress: ip,
  });
const tooMany = /^Too many attempts\. Please try again in (\d+) minutes?\.$/;

describe('login rate limit (per 15 minutes: 10 failures per account and IP, 30 per IP, 50 per account for untrusted browsers)', () => {
  it('locks out the guessing IP after 10 failures on an account, but not the owner signing in elsewhere', async () => {
    const account = await registerUser(ctx);
    const attacker = randomIp();
    for (let i = 0; i < 10; i++) {
      expect((await login(account.email, 'wrong password', attacker)).statusCode).toBe(401);
    }
    const sessionsBefore = await countRows(ctx, sessions);
    const blocked = await login(account.email, account.password, attacker);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({
      message: 'Too many attempts. Please try again in 15 minutes.',
      code: 'RATE_LIMITED',
    });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(14 * 60);
    expect(blocked.cookies).toHaveLength(0);
    expect(await countRows(ctx, sessions)).toBe(sessionsBefore);
    // The owner, from their own address, is not locked out by someone else's guesses.
    expect((await login(account.email, account.password, randomIp())).statusCode).toBe(200);
  });

  it('checks at most 10 of 25 parallel wrong guesses from one IP; the rest are refused (429) unchecked', async () => {
    const account = await registerUser(ctx);
    const ip = randomIp();
    const answers = await Promise.all(
      Array.from({ length: 25 }, () => login(account.email, 'wrong password', ip)),
    );
    const statuses = answers.map((res) => res.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
    for (const res of answers.filter((r) => r.statusCode === 429)) {
      expect(res.json().message).toMatch(tooMany);
    }
    expect((await login(account.email, account.password, randomIp())).statusCode).toBe(200);
  });

  it('slows distributed guessing: 50 failures from many IPs close the account to browsers without its device cookie', async () => {
    const account = await registerUser(ctx);
    for (let i = 0; i < 50; i++) {
      expect((await login(account.email, 'wrong password', randomIp())).statusCode).toBe(401);
    }
    const blocked = await login(account.email, account.password, randomIp());
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(tooMany);
  });

  it('blocks an IP after 30 failures on different accounts', async () => {
    const ip = randomIp();
    for (let i = 0; i < 30; i++)
      expect((await login(uniqueEmail(), 'wrong password', ip)).statusCode).toBe(401);
    const account = await registerUser(ctx);
    const blocked = await login(account.email, account.password, ip);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(tooMany);
    expect((await login(account.email, account.password, randomIp())).statusCode).toBe(200);
  });

  it('does not count successful sign-ins', async () => {
    const account = await registerUser(ctx);
    const ip = randomIp();
    for (let i = 0; i < 12; i++)
      expect((await login(account.email, account.password, ip)).statusCode).toBe(200);
  });

  it('stores hashed keys only (no e-mail or IP in clear) and lets attempts age out of the window', async () => {
    const email = uniqueEmail('aging');
    const ip = randomIp();
    for (let i = 0; i < 10; i++) await login(email, 'wrong password', ip);
    expect((await login(email, 'wrong password', ip)).statusCode).toBe(429);
    const keys = await ctx.database.query<{ key: string }>(sql`select key from rate_limit_hits`);
    expect(keys.some((row) => row.key.includes(email) || row.key.includes(ip))).toBe(false);
    // Sixteen minutes later (moving the hits back in time stands in for waiting).
    await ctx.database.query(sql`update rate_limit_hits set at = at - interval '16 minutes'`);
    expect((await login(email, 'wrong password', ip)).statusCode).toBe(401);
  });

  it('keeps counting across an app restart (the window lives in the database)', async () => {
    const email = uniqueEmail('restart');
    const ip = randomIp();
    for (let i = 0; i < 10; i++) await login(email, 'wrong password', ip);
    expect(await countRows(ctx, rateLimitHits)).toBeGreaterThanOrEqual(10);
    const { buildApp } = await import('../src/app');
    const second = await buildApp({ config: ctx.config, database: ctx.database, services: { mailer } });
    try {
      const res = await second.inject({
        method: 'POST',
        url: '/api/users/login',
        payload: { email, password: 'whatever1' },
        remoteAddress: ip,
      });
      expect(res.statusCode).toBe(429);
    } finally {
      await second.close();
    }
  });
});

describe('forgot-password rate limit (10 per 15 minutes)', () => {
  it('limits one e-mail to 10 requests and sends no further mail', async () => {
    const account = await registerUser(ctx);
    for (let i = 0; i < 10; i++) expect((await forgot(account.email, randomIp())).statusCode).toBe(200);
    while (mailer.sent.filter((m) => m.to === account.email).length < 10) await mailer.next(account.email);
    const resetsBefore = await countRows(ctx, passwordResets);
    const blocked = await forgot(account.email, randomIp());
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({
      message: 'Too many attempts. Please try again in 15 minutes.',
      code: 'RATE_LIMITED',
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(mailer.sent.filter((m) => m.to === account.email)).toHaveLength(10);
    expect(await countRows(ctx, passwordResets)).toBe(resetsBefore);
  });

  it('limits one IP to 10 requests', async () => {
    const ip = randomIp();
    for (let i = 0; i < 10; i++) expect((await forgot(uniqueEmail(), ip)).statusCode).toBe(200);
    expect((await forgot(uniqueEmail(), ip)).statusCode).toBe(429);
  });
});

describe('register rate limit (20 per hour per IP)', () => {
  it('answers 429 on the 21st attempt from one IP (refused duplicates count too) and creates no account', async () => {
    const ip = randomIp();
    const taken = await registerUser(ctx);
    for (let i = 0; i < 20; i++) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/users/register',
        payload: { name: 'Bot', email: i % 2 ? uniqueEmail('bot') : taken.email, password: 'long enough' },
        remoteAddress: ip,
      });
      expect(res.statusCode).toBe(i % 2 ? 201 : 409);
    }
    const before = await countRows(ctx, users);
    const blocked = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/register',
      payload: { name: 'Bot', email: uniqueEmail('bot'), password: 'long enough' },
      remoteAddress: ip,
    });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({
      message: 'Too many attempts. Please try again in 60 minutes.',
      code: 'RATE_LIMITED',
    });
    expect(await countRows(ctx, users)).toBe(before);
  });
});
