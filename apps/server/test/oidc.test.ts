import { eq } from 'drizzle-orm';
import { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { oauthAccounts, sessions, users } from '../src/db/schema';
import { countRows, randomIp, registerUser, uniqueEmail } from './auth-helpers';
import { freePort } from './postgres-cluster';
import { createTestApp, type TestContext } from './test-app';

let ctx: TestContext;
let issuer: OAuth2Server;
/** Claims the issuer adds to the next tokens it signs. */
let identity: Record<string, unknown>;
/** Extra claims the userinfo endpoint answers. */
let userinfo: Record<string, unknown>;

beforeAll(async () => {
  issuer = new OAuth2Server();
  await issuer.issuer.keys.generate('RS256');
  const port = await freePort();
  issuer.issuer.url = `http://127.0.0.1:${port}`;
  await issuer.start(port, '127.0.0.1');
  issuer.service.on('beforeTokenSigning', (token) => Object.assign(token.payload, identity));
  issuer.service.on('beforeUserinfo', (response) => Object.assign(response.body as object, userinfo));
  ctx = await createTestApp({
    env: {
      OIDC_GOOGLE_ISSUER: issuer.issuer.url,
      OIDC_GOOGLE_CLIENT_ID: 'backbeat-test-client',
      OIDC_GOOGLE_CLIENT_SECRET: 'backbeat-test-secret',
    },
  });
});
afterAll(async () => {
  await ctx.close();
  await issuer.stop();
});
beforeEach(() => {
  userinfo = {};
});

const CALLBACK = 'http://localhost:3000/auth/callback';
const FAILED = `${CALLBACK}?error=social_login_failed`;

function googleIdentity(overrides: Record<string, unknown> = {}) {
  return {
    sub: `google-${Math.random().toString(36).slice(2)}`,
    email: uniqueEmail('g'),
    email_verified: true,
    name: 'Gia Google',
    ...overrides,
  };
}

/** Runs the browser's part: start, follow the issuer's (auto-approving) authorize redirect, come back. */
async function socialSignIn(options: { tamper?: (callbackUrl: URL) => void; dropFlowCookie?: boolean } = {}) {
  const start = await ctx.app.inject({ method: 'GET', url: '/api/auth/google' });
  expect(start.statusCode).toBe(302);
  const flow = start.cookies.find((c) => c.name === 'oidc_flow');
  expect(flow).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/auth' });
  const authorize = new URL(start.headers.location as string);
  expect(authorize.origin).toBe(issuer.issuer.url);
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorize.searchParams.get('redirect_uri')).toBe('http://localhost:3000/api/auth/google/callback');
  expect(authorize.searchParams.get('scope')).toBe('openid email profile');

  const approved = await fetch(authorize, { redirect: 'manual' });
  expect(approved.status).toBe(302);
  const callback = new URL(approved.headers.get('location')!);
  options.tamper?.(callback);
  const done = await ctx.app.inject({
    method: 'GET',
    url: `${callback.pathname}${callback.search}`,
    cookies: options.dropFlowCookie ? {} : { oidc_flow: flow!.value },
    remoteAddress: randomIp(),
  });
  expect(done.statusCode).toBe(302);
  const token = done.cookies.find((c) => c.name === 'token' && c.value)?.value;
  return {
    location: done.headers.location,
    token,
    flowCleared: done.cookies.some((c) => c.name === 'oidc_flow' && !c.value),
    callback,
  };
}

const me = (token: string) => ctx.app.inject({ method: 'GET', url: '/api/users/me', cookies: { token } });

describe('social sign-in (OpenID Connect)', () => {
  it('lists the configured provider', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/auth/providers' });
    expect(res.json()).toEqual({ providers: [{ id: 'google', name: 'Google' }] });
  });

  it('creates an account on first sign-in, opens a session and sends the browser to /auth/callback?new=1', async () => {
    identity = googleIdentity();
    const result = await socialSignIn();
    expect(result.location).toBe(`${CALLBACK}?new=1`);
    expect(result.flowCleared).toBe(true);
    const profile = await me(result.token!);
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toMatchObject({
      email: identity.email,
      name: 'Gia Google',
      role: 'user',
      preferredGenres: [],
    });
    const [row] = await ctx.database.db
      .select()
      .from(users)
      .where(eq(users.email, identity.email as string));
    expect(row).toMatchObject({ passwordHash: null, emailVerified: true });
    const links = await ctx.database.db.select().from(oauthAccounts).where(eq(oauthAccounts.userId, row!.id));
    expect(links).toEqual([expect.objectContaining({ provider: 'google', subject: identity.sub })]);

    // The same Google account again: the same user, not new.
    const usersBefore = await countRows(ctx, users);
    const again = await socialSignIn();
    expect(again.location).toBe(CALLBACK);
    expect((await me(again.token!)).json()._id).toBe(row!.id);
    expect(await countRows(ctx, users)).toBe(usersBefore);
  });

  it('never links an identity to an existing account by e-mail alone, not even an admin asserted by the issuer', async () => {
    for (const role of ['user', 'admin'] as const) {
      const account = await registerUser(ctx);
      if (role === 'admin') {
        await ctx.database.db.update(users).set({ role: 'admin' }).where(eq(users.id, account.id));
      }
      const [before] = await ctx.database.db.select().from(users).where(eq(users.id, account.id));
      identity = googleIdentity({ email: account.email.toUpperCase() });
      const result = await socialSignIn();
      expect(result.location).toBe(`${CALLBACK}?error=account_exists`);
      expect(result.token).toBeUndefined();
      // The account is untouched: no link, the password and the owner's session stay.
      const links = await ctx.database.db
        .select()
        .from(oauthAccounts)
        .where(eq(oauthAccounts.userId, account.id));
      expect(links).toEqual([]);
      const [after] = await ctx.database.db.select().from(users).where(eq(users.id, account.id));
      expect(after!.passwordHash).toBe(before!.passwordHash);
      expect((await me(account.token)).statusCode).toBe(200);
    }
  });

  it('reads the e-mail from the userinfo endpoint when the ID token lacks it', async () => {
    identity = { sub: `google-${Date.now()}`, email: undefined, email_verified: undefined };
    userinfo = { sub: identity.sub, email: uniqueEmail('ui'), email_verified: true };
    const result = await socialSignIn();
    expect(result.location).toBe(`${CALLBACK}?new=1`);
    expect((await me(result.token!)).json().email).toBe(userinfo.email);
  });

  it.each([
    ['an unverified e-mail', { email_verified: false }],
    ['no e-mail at all', { email: undefined, email_verified: undefined }],
    ['a malformed e-mail', { email: 'not-an-email' }],
  ])('refuses %s: no account, no session', async (_label, overrides) => {
    identity = googleIdentity(overrides);
    const before = [
      await countRows(ctx, users),
      await countRows(ctx, sessions),
      await countRows(ctx, oauthAccounts),
    ];
    const result = await socialSignIn();
    expect(result.location).toBe(FAILED);
    expect(result.token).toBeUndefined();
    expect([
      await countRows(ctx, users),
      await countRows(ctx, sessions),
      await countRows(ctx, oauthAccounts),
    ]).toEqual(before);
  });

  it.each([
    ['a forged state', { tamper: (url: URL) => url.searchParams.set('state', 'forged') }],
    ['no flow cookie', { dropFlowCookie: true }],
    [
      'an error from the provider',
      {
        tamper: (url: URL) => {
          url.searchParams.delete('code');
          url.searchParams.set('error', 'access_denied');
        },
      },
    ],
  ])('fails safely with %s', async (_label, options) => {
    identity = googleIdentity();
    const before = await countRows(ctx, users);
    const result = await socialSignIn(options);
    expect(result.location).toBe(FAILED);
    expect(result.token).toBeUndefined();
    expect(await countRows(ctx, users)).toBe(before);
  });

  it('refuses a replayed callback', async () => {
    identity = googleIdentity();
    const start = await ctx.app.inject({ method: 'GET', url: '/api/auth/google' });
    const flow = start.cookies.find((c) => c.name === 'oidc_flow')!.value;
    const approved = await fetch(start.headers.location as string, { redirect: 'manual' });
    const callback = new URL(approved.headers.get('location')!);
    const url = `${callback.pathname}${callback.search}`;
    const first = await ctx.app.inject({ method: 'GET', url, cookies: { oidc_flow: flow } });
    expect(first.headers.location).toBe(`${CALLBACK}?new=1`);
    const replay = await ctx.app.inject({ method: 'GET', url, cookies: { oidc_flow: flow } });
    expect(replay.headers.location).toBe(FAILED);
  });

  it('answers an unknown provider with 404', async () => {
    for (const url of ['/api/auth/github', '/api/auth/github/callback?code=x&state=y']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Sign-in provider not found', code: 'PROVIDER_NOT_FOUND' });
    }
  });
});
