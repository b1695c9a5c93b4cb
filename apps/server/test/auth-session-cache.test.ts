import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../src/db/schema';
import type { AuthUser } from '../src/platform/auth';
import { SessionCache, type ConfirmedSession } from '../src/platform/session-cache';
import { bearer, MemoryMailer, randomIp, registerUser } from './auth-helpers';
import { createTestApp, type TestContext } from './test-app';

/** Short enough to wait out in a test; long enough that two requests in a row share the cached session. */
const TTL_MS = 1_500;

let ctx: TestContext;
let mailer: MemoryMailer;
beforeAll(async () => {
  mailer = new MemoryMailer();
  ctx = await createTestApp({ services: { mailer, sessionCache: new SessionCache({ ttlMs: TTL_MS }) } });
});
afterAll(() => ctx.close());

const me = (token: string) => ctx.app.inject({ method: 'GET', url: '/api/users/me', headers: bearer(token) });
const login = (email: string, password: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/users/login',
    payload: { email, password },
    remoteAddress: randomIp(),
  });

/** Signs in and uses the session once, so the app has it cached. */
async function cachedSession(email: string, password: string): Promise<string> {
  const token = (await login(email, password)).json().token as string;
  expect((await me(token)).statusCode).toBe(200);
  return token;
}

describe('cached sessions in the app', () => {
  it('sees a revocation made behind its back (another instance) once the cache TTL has passed', async () => {
    const account = await registerUser(ctx);
    expect((await me(account.token)).statusCode).toBe(200);
    // Another instance (or an operator) ends the session: this process is not told.
    await ctx.database.db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(eq(sessions.userId, account.id));
    await new Promise((resolve) => setTimeout(resolve, TTL_MS + 100));
    expect((await me(account.token)).statusCode).toBe(401);
  });

  it('refuses a cached session right after its logout, by bearer and by cookie', async () => {
    const account = await registerUser(ctx);
    const other = await cachedSession(account.email, account.password);
    expect((await me(account.token)).statusCode).toBe(200);
    const out = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/logout',
      headers: bearer(account.token),
    });
    expect(out.statusCode).toBe(200);
    expect((await me(account.token)).statusCode).toBe(401);
    const byCookie = await ctx.app.inject({
      method: 'GET',
      url: '/api/users/me',
      cookies: { token: account.token },
    });
    expect(byCookie.statusCode).toBe(401);
    // Only that session ended.
    expect((await me(other)).statusCode).toBe(200);
  });

  it('ends every cached session of the account at once when its password is reset', async () => {
    const account = await registerUser(ctx);
    const stranger = await registerUser(ctx);
    const phone = await cachedSession(account.email, account.password);
    expect((await me(account.token)).statusCode).toBe(200);
    expect((await me(stranger.token)).statusCode).toBe(200);

    const mail = mailer.next(account.email);
    await ctx.app.inject({
      method: 'POST',
      url: '/api/users/forgot-password',
      payload: { email: account.email },
      remoteAddress: randomIp(),
    });
    const link = /reset-password\/([A-Za-z0-9_-]+)/.exec((await mail).text)![1]!;
    const reset = await ctx.app.inject({
      method: 'POST',
      url: `/api/users/reset-password/${link}`,
      payload: { password: 'a brand new password' },
    });
    expect(reset.statusCode).toBe(200);

    for (const token of [account.token, phone]) expect((await me(token)).statusCode).toBe(401);
    expect((await me(stranger.token)).statusCode).toBe(200);
  });

  it('refuses a cached session of a deleted account at once', async () => {
    const account = await registerUser(ctx);
    expect((await me(account.token)).statusCode).toBe(200);
    const deleted = await ctx.app.inject({
      method: 'DELETE',
      url: '/api/users/me',
      headers: bearer(account.token),
      payload: { password: account.password },
    });
    expect(deleted.statusCode).toBe(200);
    // A route that only asks who is signed in (no account query of its own).
    const liked = await ctx.app.inject({
      method: 'GET',
      url: '/api/songs/liked',
      headers: bearer(account.token),
    });
    expect(liked.statusCode).toBe(401);
  });
});

describe('SessionCache', () => {
  const user = (id: string, sessionId: string): AuthUser => ({
    id,
    email: `${id}@example.com`,
    name: id,
    role: 'user',
    sessionId,
    sessionCreatedAt: new Date(),
  });
  const confirmed = (id: string, sessionId: string, expiresInMs = 60_000): ConfirmedSession => ({
    user: user(id, sessionId),
    expiresAt: new Date(Date.now() + expiresInMs),
  });

  it('answers a remembered session without asking the database again', async () => {
    const cache = new SessionCache();
    let loads = 0;
    const load = async () => (loads++, confirmed('u1', 's1'));
    expect((await cache.resolve('h1', load))?.id).toBe('u1');
    expect((await cache.resolve('h1', load))?.id).toBe('u1');
    expect(loads).toBe(1);
  });

  it('never remembers an unknown token', async () => {
    const cache = new SessionCache();
    let loads = 0;
    const load = async () => (loads++, null);
    expect(await cache.resolve('h1', load)).toBeNull();
    expect(await cache.resolve('h1', load)).toBeNull();
    expect(loads).toBe(2);
  });

  it('does not store a lookup that ran across an invalidation', async () => {
    const cache = new SessionCache();
    let release!: () => void;
    const slow = () =>
      new Promise<ConfirmedSession>((resolve) => {
        release = () => resolve(confirmed('u1', 's1'));
      });
    const pending = cache.resolve('h1', slow);
    cache.forgetSession('s1'); // The logout committed while the lookup was in flight.
    release();
    expect((await pending)?.id).toBe('u1'); // That request began before the logout.
    let loads = 0;
    expect(await cache.resolve('h1', async () => (loads++, null))).toBeNull();
    expect(loads).toBe(1);
  });

  it('forgets one session, or every session of one account, and nothing else', async () => {
    const cache = new SessionCache();
    for (const [hash, id, sessionId] of [
      ['a1', 'A', 'sa1'],
      ['a2', 'A', 'sa2'],
      ['b1', 'B', 'sb1'],
    ] as const) {
      await cache.resolve(hash, async () => confirmed(id, sessionId));
    }
    const gone = async () => null;
    cache.forgetSession('sa1');
    expect(await cache.resolve('a1', gone)).toBeNull();
    expect((await cache.resolve('a2', gone))?.id).toBe('A');
    cache.forgetUser('A');
    expect(await cache.resolve('a2', gone)).toBeNull();
    expect((await cache.resolve('b1', gone))?.id).toBe('B');
  });

  it('never keeps a session past its own expiry, and hands out read-only users', async () => {
    const cache = new SessionCache({ ttlMs: 60_000 });
    const first = await cache.resolve('h1', async () => confirmed('u1', 's1', 30));
    expect(Object.isFrozen(first)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 60));
    let loads = 0;
    expect(await cache.resolve('h1', async () => (loads++, null))).toBeNull();
    expect(loads).toBe(1);
  });
});
