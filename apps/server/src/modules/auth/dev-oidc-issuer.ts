import { createHash, randomBytes } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config, OidcProviderConfig } from '../../config';
import { escapeHtml } from '../../platform/html';

/** Who the test sign-in page signs in as: what the page's form asks for. */
interface TestIdentity {
  sub: string;
  email: string;
  name: string;
}

export interface DevOidcIssuer {
  /** The issuer URL (discovery at `<issuer>/.well-known/openid-configuration`). */
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

/** The client the app registers with the local issuer (it accepts any; these only name the app). */
const DEV_CLIENT = { id: 'backbeat-development', secret: 'backbeat-development-secret' };
/** Form fields of the test sign-in page, taken off the query before the issuer sees it. */
const PAGE_FIELDS = ['backbeat_email', 'backbeat_name', 'backbeat_cancel'];

/** A stable subject per e-mail, so signing in again with the same e-mail is the same account. */
const subjectOf = (email: string) =>
  `test-${createHash('sha256').update(email.toLowerCase()).digest('hex').slice(0, 24)}`;

/**
 * The local issuer's sign-in page: plainly a test stand-in (no password, no real account), asking which e-mail and
 * name to sign in with. Submitting comes back to /authorize with the page's fields; Cancel answers the app as a
 * provider does when the person declines.
 */
function signInPage(query: URLSearchParams, providerName: string): string {
  const hidden = [...query.entries()]
    .filter(([key]) => !PAGE_FIELDS.includes(key))
    .map(([key, value]) => `<input type="hidden" name="${escapeHtml(key)}" value="${escapeHtml(value)}">`)
    .join('');
  const provider = escapeHtml(providerName);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Test mode · Sign in with ${provider}</title>
<style>
  *, *::before, *::after { box-sizing: border-box; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #0b0b0f; color: #f4f4f6;
         font: 14px/1.5 system-ui, sans-serif; }
  main { width: min(420px, calc(100vw - 32px)); background: #15151c; border: 1px solid #2a2a36;
         border-radius: 10px; padding: 24px; }
  .badge { display: inline-block; background: #ffb020; color: #0b0b0f; font-weight: 700; border-radius: 6px;
           padding: 2px 8px; font-size: 12px; letter-spacing: .04em; text-transform: uppercase; }
  h1 { font-size: 20px; margin: 12px 0 4px; }
  p { color: #a1a1b0; margin: 0 0 16px; }
  label { display: block; margin: 12px 0 4px; font-weight: 600; }
  input[type=email], input[type=text] { width: 100%; height: 40px; padding: 0 12px;
         border-radius: 6px; border: 1px solid #2a2a36; background: #1e1e28; color: #f4f4f6; font: inherit; }
  .actions { display: flex; gap: 8px; margin-top: 20px; }
  button { flex: 1; height: 40px; border-radius: 6px; font: inherit; font-weight: 600; cursor: pointer; }
  .primary { background: #ff5a36; color: #0b0b0f; border: 0; }
  .secondary { background: transparent; color: #f4f4f6; border: 1px solid #2a2a36; }
  button:focus-visible, input:focus-visible { outline: 2px solid #ff5a36; outline-offset: 2px; }
</style></head>
<body><main>
  <span class="badge">Test mode</span>
  <h1>Sign in with ${provider}</h1>
  <p>This is Backbeat's local stand-in for ${provider}'s sign-in, for development: no ${provider} account is used
     and no password is asked. Choose who to sign in as.</p>
  <form method="get" action="/authorize">
    ${hidden}
    <label for="email">E-mail</label>
    <input id="email" name="backbeat_email" type="email" required value="test.listener@example.com">
    <label for="name">Name</label>
    <input id="name" name="backbeat_name" type="text" maxlength="100" value="Test Listener">
    <div class="actions">
      <button class="secondary" type="submit" name="backbeat_cancel" value="1" formnovalidate>Cancel</button>
      <button class="primary" type="submit">Sign in</button>
    </div>
  </form>
</main></body></html>`;
}

/**
 * A local OpenID Connect issuer for development, the way the gateway emulator stands in for the payment providers:
 * oauth2-mock-server (a real issuer: discovery, JWKS, signed ID tokens, PKCE) behind a test sign-in page, on a
 * loopback port of this process. The page asks which e-mail and name to sign in as; the ID token then carries
 * them (verified e-mail, a subject derived from the e-mail). Production never gets here (config refuses it).
 */
export async function startDevOidcIssuer(options: {
  host?: string;
  port?: number;
  /** The provider it stands in for, named on its page. */
  providerName?: string;
}): Promise<DevOidcIssuer> {
  // Loaded only when the issuer runs: a production server never imports it.
  const { OAuth2Server } = await import('oauth2-mock-server');
  const mock = new OAuth2Server();
  await mock.issuer.keys.generate('RS256');
  const providerName = options.providerName ?? 'Google';
  /** Identities chosen on the page, by the one-time id the page's redirect carries, then by the code issued. */
  const chosen = new Map<string, TestIdentity>();
  const byCode = new Map<string, TestIdentity>();

  mock.service.on('beforeAuthorizeRedirect', (redirect, request: IncomingMessage) => {
    const url = new URL(request.url ?? '/', 'http://issuer.local');
    const identity = chosen.get(url.searchParams.get('backbeat_identity') ?? '');
    const code = redirect.url.searchParams.get('code');
    if (identity && code) byCode.set(code, identity);
    chosen.delete(url.searchParams.get('backbeat_identity') ?? '');
  });
  mock.service.on('beforeTokenSigning', (token, request) => {
    const code = (request.body as { code?: unknown } | undefined)?.code;
    const identity = typeof code === 'string' ? byCode.get(code) : undefined;
    if (!identity) return;
    Object.assign(token.payload, { ...identity, email_verified: true });
  });
  mock.service.on('beforeResponse', (_response, request) => {
    const code = (request.body as { code?: unknown } | undefined)?.code;
    if (typeof code === 'string') byCode.delete(code);
  });

  const handler = mock.service.requestHandler;
  const server = http.createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://issuer.local');
    if (request.method !== 'GET' || url.pathname !== '/authorize') return handler(request, response);
    const query = url.searchParams;
    const redirectUri = query.get('redirect_uri');
    if (query.get('backbeat_cancel') && redirectUri) {
      // As a provider answers when the person declines: back to the app with access_denied and the state.
      const back = new URL(redirectUri);
      back.searchParams.set('error', 'access_denied');
      if (query.get('state')) back.searchParams.set('state', query.get('state')!);
      response.writeHead(302, { location: back.href }).end();
      return;
    }
    const email = query.get('backbeat_email')?.trim().toLowerCase();
    if (!email) {
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
        .end(signInPage(query, providerName));
      return;
    }
    const name = query.get('backbeat_name')?.trim().slice(0, 100) || email.split('@')[0]!;
    const ticket = randomBytes(16).toString('hex');
    chosen.set(ticket, { sub: subjectOf(email), email, name });
    for (const field of PAGE_FIELDS) query.delete(field);
    query.set('backbeat_identity', ticket);
    request.url = `/authorize?${query.toString()}`;
    return handler(request, response);
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  mock.issuer.url = `http://${host}:${port}`;
  return {
    issuer: mock.issuer.url,
    clientId: DEV_CLIENT.id,
    clientSecret: DEV_CLIENT.secret,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The configuration with the local issuer standing in for Google, marked as test mode. */
export function configWithDevIssuer(config: Config, issuer: DevOidcIssuer): Config {
  const provider: OidcProviderConfig = {
    id: 'google',
    name: 'Google',
    issuer: issuer.issuer,
    clientId: issuer.clientId,
    clientSecret: issuer.clientSecret,
    testMode: true,
  };
  return { ...config, oidcProviders: [provider] };
}
