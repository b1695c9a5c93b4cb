import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import {
  configWithDevIssuer,
  startDevOidcIssuer,
  type DevOidcIssuer,
} from '../src/modules/auth/dev-oidc-issuer';
import { randomIp, uniqueEmail } from './auth-helpers';
import { createTestApp, type TestContext } from './test-app';

/**
 * Social sign-in with any OpenID Connect issuer, configured by name (OIDC_PROVIDERS), each run against the local
 * issuer `npm start` uses in development: its test-mode sign-in page, its signed ID tokens, the app's callback.
 */
let issuer: DevOidcIssuer;
let ctx: TestContext;
const PROVIDERS = ['google', 'gitlab', 'microsoft'] as const;
const CALLBACK = 'http://localhost:3000/auth/callback';

beforeAll(async () => {
  issuer = await startDevOidcIssuer({});
  const env: Record<string, string> = { OIDC_PROVIDERS: PROVIDERS.join(',') };
  for (const id of PROVIDERS) {
    env[`OIDC_${id.toUpperCase()}_ISSUER`] = issuer.issuer;
    env[`OIDC_${id.toUpperCase()}_CLIENT_ID`] = `${id}-client`;
    env[`OIDC_${id.toUpperCase()}_CLIENT_SECRET`] = `${id}-secret`;
  }
  ctx = await createTestApp({ env });
});
afterAll(async () => {
  await ctx.close();
  await issuer.close();
});

/**
 * The browser's part: the app sends it to the issuer, whose test page asks who to sign in as; the page's form
 * (or its Cancel) comes back through the issuer to the app's callback.
 */
async function signInThroughTestPage(
  app: TestContext['app'],
  provider: string,
  choice: { email: string; name: string } | 'cancel',
) {
  const start = await app.inject({ method: 'GET', url: `/api/auth/${provider}` });
  expect(start.statusCode).toBe(302);
  const flow = start.cookies.find((cookie) => cookie.name === 'oidc_flow')!.value;
  const authorize = new URL(start.headers.location as string);
  expect(authorize.origin).toBe(issuer.issuer);

  const page = await fetch(authorize, { redirect: 'manual' });
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain('Test mode');
  expect(html).toContain('no password is asked');

  const submit = new URL(authorize);
  if (choice === 'cancel') submit.searchParams.set('backbeat_cancel', '1');
  else {
    submit.searchParams.set('backbeat_email', choice.email);
    submit.searchParams.set('backbeat_name', choice.name);
  }
  const approved = await fetch(submit, { redirect: 'manual' });
  expect(approved.status).toBe(302);
  const callback = new URL(approved.headers.get('location')!);
  expect(callback.pathname).toBe(`/api/auth/${provider}/callback`);
  const done = await app.inject({
    method: 'GET',
    url: `${callback.pathname}${callback.search}`,
    cookies: { oidc_flow: flow },
    remoteAddress: randomIp(),
  });
  expect(done.statusCode).toBe(302);
  return {
    location: done.headers.location,
    token: done.cookies.find((c) => c.name === 'token' && c.value)?.value,
  };
}

describe('OpenID Connect providers by configuration', () => {
  it('lists every configured provider with its label', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/auth/providers' });
    expect(res.json()).toEqual({
      providers: [
        { id: 'google', name: 'Google' },
        { id: 'gitlab', name: 'GitLab' },
        { id: 'microsoft', name: 'Microsoft' },
      ],
    });
  });

  it.each(PROVIDERS)(
    '%s: registers on the first sign-in, signs the same person in again, fails safely on Cancel',
    async (provider) => {
      const person = { email: uniqueEmail(provider), name: `Pat ${provider}` };
      const first = await signInThroughTestPage(ctx.app, provider, person);
      expect(first.location).toBe(`${CALLBACK}?new=1`);
      const me = await ctx.app.inject({
        method: 'GET',
        url: '/api/users/me',
        cookies: { token: first.token! },
      });
      expect(me.json()).toMatchObject({ email: person.email, name: person.name });

      const again = await signInThroughTestPage(ctx.app, provider, person);
      expect(again.location).toBe(CALLBACK);
      const meAgain = await ctx.app.inject({
        method: 'GET',
        url: '/api/users/me',
        cookies: { token: again.token! },
      });
      expect(meAgain.json()._id).toBe(me.json()._id);

      const cancelled = await signInThroughTestPage(ctx.app, provider, 'cancel');
      expect(cancelled).toEqual({ location: `${CALLBACK}?error=social_login_failed`, token: undefined });
    },
  );
});

describe('the local issuer standing in for Google (npm start in development)', () => {
  it('is listed as Google in test mode, and signs in through its test page', async () => {
    const config = configWithDevIssuer({ ...ctx.config, oidcProviders: [] }, issuer);
    const app = await buildApp({ config, database: ctx.database, services: { jobs: ctx.app.services.jobs } });
    try {
      const res = await app.inject({ method: 'GET', url: '/api/auth/providers' });
      expect(res.json()).toEqual({ providers: [{ id: 'google', name: 'Google', testMode: true }] });
      const email = uniqueEmail('dev');
      const signedIn = await signInThroughTestPage(app as TestContext['app'], 'google', {
        email,
        name: 'Dev Person',
      });
      expect(signedIn.location).toBe(`${CALLBACK}?new=1`);
    } finally {
      await app.close();
    }
  });
});
