import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, users } from '../src/db/schema';
import {
  bearer,
  countRows,
  MemoryMailer,
  randomIp,
  registerUser,
  sessionCookie,
  uniqueEmail,
} from './auth-helpers';
import { createTestApp, type TestContext } from './test-app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ services: { mailer: new MemoryMailer() } });
});
afterAll(() => ctx.close());

const register = (payload: unknown) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/users/register',
    payload: payload as object,
    remoteAddress: randomIp(),
  });
const login = (payload: unknown) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/users/login',
    payload: payload as object,
    remoteAddress: randomIp(),
  });

describe('answers that carry an account', () => {
  it('are never cached: register, login and GET /users/me send Cache-Control: no-store', async () => {
    const email = uniqueEmail('nostore');
    const registered = await register({ name: 'No Store', email, password: 'a long password' });
    expect(registered.statusCode).toBe(201);
    const signedIn = await login({ email, password: 'a long password' });
    expect(signedIn.statusCode).toBe(200);
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/users/me',
      headers: bearer(signedIn.json().token),
    });
    expect(me.statusCode).toBe(200);
    for (const res of [registered, signedIn, me]) expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('POST /api/users/register', () => {
  it('creates the account, answers 201 with user and token, and sets an HttpOnly session cookie', async () => {
    const email = uniqueEmail('Ann');
    const res = await register({
      name: '  Ann  ',
      email: `  ${email.toUpperCase()} `,
      password: 'a long password',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.message).toBe('Registered successfully');
    expect(body.user).toMatchObject({
      name: 'Ann',
      email: email.toLowerCase(),
      role: 'user',
      profileImage: null,
      purchasedSongs: [],
      purchasedAlbums: [],
      likedsong: [],
      preferredGenres: [],
      playlist: [],
      purchaseHistory: [],
      artistId: null,
    });
    expect(body.user).not.toHaveProperty('passwordHash');
    expect(typeof body.token).toBe('string');
    const cookie = res.cookies.find((c) => c.name === 'token');
    expect(cookie).toMatchObject({ value: body.token, httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.secure).toBeFalsy();

    const [row] = await ctx.database.db.select().from(users).where(eq(users.email, email.toLowerCase()));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const me = await ctx.app.inject({ method: 'GET', url: '/api/users/me', cookies: { token: body.token } });
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe(email.toLowerCase());
  });

  it('refuses a duplicate e-mail (any case) with 409 and writes nothing', async () => {
    const existing = await registerUser(ctx);
    const before = [await countRows(ctx, users), await countRows(ctx, sessions)];
    const res = await register({
      name: 'Other',
      email: existing.email.toUpperCase(),
      password: 'another password',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'An account with this email already exists', code: 'EMAIL_TAKEN' });
    expect(sessionCookie(res)).toBeUndefined();
    expect([await countRows(ctx, users), await countRows(ctx, sessions)]).toEqual(before);
  });

  it.each([
    [{ email: 'a@example.com', password: 'long enough' }, 'name: Name is required'],
    [{ name: '   ', email: 'a@example.com', password: 'long enough' }, 'name: Name is required'],
    [
      { name: 'x'.repeat(101), email: 'a@example.com', password: 'long enough' },
      'name: Name must be at most 100 characters',
    ],
    [{ name: 'Ann', password: 'long enough' }, 'email: Email is required'],
    [
      { name: 'Ann', email: 'not-an-email', password: 'long enough' },
      'email: Please enter a valid email address',
    ],
    [
      { name: 'Ann', email: `${'a'.repeat(250)}@example.com`, password: 'long enough' },
      'email: Email is too long',
    ],
    [{ name: 'Ann', email: 'a@example.com' }, 'password: Password is required'],
    [
      { name: 'Ann', email: 'a@example.com', password: 'short' },
      'password: Password must be at least 8 characters',
    ],
    [
      { name: 'Ann', email: 'a@example.com', password: 'p'.repeat(257) },
      'password: Password must be at most 256 characters',
    ],
  ])('answers 400 naming the field for %j and writes nothing', async (payload, message) => {
    const before = await countRows(ctx, users);
    const res = await register(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message, code: 'VALIDATION_ERROR' });
    expect(await countRows(ctx, users)).toBe(before);
  });

  it('answers 400 for a missing or non-JSON body', async () => {
    const before = await countRows(ctx, users);
    const empty = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/register',
      remoteAddress: randomIp(),
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toHaveProperty('code');
    const broken = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/register',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
      remoteAddress: randomIp(),
    });
    expect(broken.statusCode).toBe(400);
    expect(await countRows(ctx, users)).toBe(before);
  });
});

describe('POST /api/users/login', () => {
  it('signs in with the right password: user, token and cookie', async () => {
    const account = await registerUser(ctx);
    const res = await login({ email: account.email.toUpperCase(), password: account.password });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      message: 'Logged in successfully',
      user: { _id: account.id, email: account.email },
    });
    expect(sessionCookie(res)).toBe(body.token);
    expect(body.token).not.toBe(account.token);
    const me = await ctx.app.inject({ method: 'GET', url: '/api/users/me', headers: bearer(body.token) });
    expect(me.json()._id).toBe(account.id);
  });

  it('answers the same 401 for a wrong password and an unknown e-mail, and opens no session', async () => {
    const account = await registerUser(ctx);
    const before = await countRows(ctx, sessions);
    const wrongPassword = await login({ email: account.email, password: 'not the password' });
    const unknownEmail = await login({ email: uniqueEmail('nobody'), password: account.password });
    for (const res of [wrongPassword, unknownEmail]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Invalid email or password', code: 'INVALID_CREDENTIALS' });
      expect(sessionCookie(res)).toBeUndefined();
    }
    expect(await countRows(ctx, sessions)).toBe(before);
  });

  it.each([
    [{ password: 'whatever1' }, 'email: Email is required'],
    [{ email: 'nope', password: 'whatever1' }, 'email: Please enter a valid email address'],
    [{ email: 'a@example.com' }, 'password: Password is required'],
    [{ email: 'a@example.com', password: '' }, 'password: Password is required'],
  ])('answers 400 for %j', async (payload, message) => {
    const res = await login(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message, code: 'VALIDATION_ERROR' });
  });
});

describe('GET /api/users/me', () => {
  it('answers a guest with 401 "Authentication token missing. Please login."', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/users/me' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      message: 'Authentication token missing. Please login.',
      code: 'UNAUTHENTICATED',
    });
  });

  it('answers an unknown token (bearer or cookie) with 401 "Authentication failed"', async () => {
    for (const request of [{ headers: bearer('forged-token') }, { cookies: { token: 'forged-token' } }]) {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/users/me', ...request });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Authentication failed', code: 'SESSION_INVALID' });
    }
  });
});

describe('POST /api/users/logout', () => {
  it('revokes the session server-side and clears the cookie; the old token is then refused', async () => {
    const account = await registerUser(ctx);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/logout',
      cookies: { token: account.token },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Logged out successfully' });
    const cleared = res.cookies.find((c) => c.name === 'token');
    expect(cleared?.value).toBe('');
    expect(cleared?.expires?.getTime()).toBeLessThanOrEqual(Date.now());

    const [row] = await ctx.database.db.select().from(sessions).where(eq(sessions.userId, account.id));
    expect(row?.revokedAt).toBeInstanceOf(Date);
    for (const request of [{ headers: bearer(account.token) }, { cookies: { token: account.token } }]) {
      const me = await ctx.app.inject({ method: 'GET', url: '/api/users/me', ...request });
      expect(me.statusCode).toBe(401);
      expect(me.json().message).toBe('Authentication failed');
    }
    const replay = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/logout',
      headers: bearer(account.token),
    });
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ message: 'Authentication failed', code: 'SESSION_INVALID' });
  });

  it('ends only this session: another device stays signed in', async () => {
    const account = await registerUser(ctx);
    const other = await login({ email: account.email, password: account.password });
    await ctx.app.inject({ method: 'POST', url: '/api/users/logout', headers: bearer(account.token) });
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/users/me',
      headers: bearer(other.json().token),
    });
    expect(me.statusCode).toBe(200);
  });

  it('refuses a cookie-authenticated logout from a foreign origin (CSRF) and keeps the session', async () => {
    const account = await registerUser(ctx);
    for (const headers of [{ origin: 'https://evil.example' }, { referer: 'https://evil.example/page' }]) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/users/logout',
        cookies: { token: account.token },
        headers,
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: 'Cross-site request refused', code: 'CSRF' });
      expect(res.cookies.find((c) => c.name === 'token')).toBeUndefined();
    }
    const [row] = await ctx.database.db.select().from(sessions).where(eq(sessions.userId, account.id));
    expect(row?.revokedAt).toBeNull();
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/users/me',
      cookies: { token: account.token },
    });
    expect(me.statusCode).toBe(200);

    const sameSite = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/logout',
      cookies: { token: account.token },
      headers: { origin: 'http://localhost:3000' },
    });
    expect(sameSite.statusCode).toBe(200);
  });

  it('compares Origin with PUBLIC_URL, not with the Host header the client chose', async () => {
    const account = await registerUser(ctx);
    // A page on another name for this server (DNS rebinding, a proxy passing any Host): Origin equals Host.
    const rebound = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/logout',
      cookies: { token: account.token },
      headers: { host: 'rebound.example', origin: 'http://rebound.example' },
    });
    expect(rebound.statusCode).toBe(403);
    expect(rebound.json()).toEqual({ message: 'Cross-site request refused', code: 'CSRF' });
    const [row] = await ctx.database.db.select().from(sessions).where(eq(sessions.userId, account.id));
    expect(row?.revokedAt).toBeNull();
  });

  it('answers a guest with 401', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/api/users/logout' });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Authentication token missing. Please login.');
  });
});

describe('GET /api/auth/providers', () => {
  it('lists no provider when none is configured, and starting one is 404', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/auth/providers' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ providers: [] });
    const start = await ctx.app.inject({ method: 'GET', url: '/api/auth/google' });
    expect(start.statusCode).toBe(404);
  });
});

describe('OpenAPI', () => {
  it('documents the account endpoints', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(doc.paths['/api/users/register'].post.responses['201']).toBeDefined();
    expect(doc.paths['/api/users/me'].delete).toBeDefined();
    expect(doc.paths['/api/auth/providers'].get).toBeDefined();
  });
});
