import { sql } from 'drizzle-orm';
import { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTHORIZATION_MATRIX, cellsOf, rowTemplate, type MatrixCells } from './authorization-matrix';
import { ACTORS, buildWorld, type Actor, type MatrixUser, type MatrixWorld } from './authorization-world';
import { gatewayTestApp, webhooksSettled, type GatewayTestApp } from './gateways.fixtures';
import { freePort } from './postgres-cluster';

/**
 * The authorization matrix (test/authorization-matrix.ts) against the served API: its rows must be exactly the
 * routes of the OpenAPI document, and every cell must answer the status written in it. The app runs with every
 * gateway configured (against the local emulator), the demo gateway on and a real OpenID Connect issuer, so every
 * route has its real handler.
 */
let g: GatewayTestApp;
let issuer: OAuth2Server;
let world: MatrixWorld;

beforeAll(async () => {
  issuer = new OAuth2Server();
  await issuer.issuer.keys.generate('RS256');
  const port = await freePort();
  issuer.issuer.url = `http://127.0.0.1:${port}`;
  await issuer.start(port, '127.0.0.1');
  issuer.service.on('beforeTokenSigning', (token) =>
    Object.assign(token.payload, {
      sub: `matrix-${Math.random().toString(36).slice(2)}`,
      email: `social-${Math.random().toString(36).slice(2)}@example.com`,
      email_verified: true,
      name: 'Social Matrix',
    }),
  );
  g = await gatewayTestApp({
    env: {
      PAYMENTS_SANDBOX: 'true',
      OIDC_GOOGLE_ISSUER: issuer.issuer.url,
      OIDC_GOOGLE_CLIENT_ID: 'backbeat-matrix',
      OIDC_GOOGLE_CLIENT_SECRET: 'backbeat-matrix-secret',
    },
  });
  world = await buildWorld(g);
}, 120_000);

afterAll(async () => {
  if (!g) {
    await issuer?.stop();
    return;
  }
  // The cells made the gateways send events: a delivery still in flight would hold the app's close for the
  // keep-alive timeout (72 s).
  for (const gateway of ['stripe', 'razorpay', 'paypal'] as const) await webhooksSettled(g.emulator, gateway);
  await g.close();
  await issuer?.stop();
});

const documentedRoutes = async () => {
  const doc = (await g.ctx.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
    paths: Record<string, Record<string, unknown>>;
  }>();
  return Object.entries(doc.paths).flatMap(([route, methods]) =>
    Object.keys(methods)
      .filter((method) => ['get', 'head', 'post', 'put', 'patch', 'delete'].includes(method))
      .map((method) => `${method.toUpperCase()} ${route}`),
  );
};

async function runCell(route: string, row: MatrixCells, actor: Actor) {
  // Each cell stands alone: the checkout limits (their own test: payments-protection) start empty for it.
  await g.ctx.database.query(sql`delete from rate_limit_hits where key like 'checkout-%'`);
  let user: MatrixUser | null = actor === 'guest' ? null : world.users[actor];
  if (row.freshActor && actor !== 'guest') user = await world.fresh(actor);
  const request = await row.request(world, actor, user);
  return g.ctx.app.inject({
    method: request.method ?? (route.split(' ')[0] as 'GET'),
    url: request.url,
    headers: { ...(user?.headers ?? {}), ...(request.headers ?? {}) },
    cookies: request.cookies,
    remoteAddress: request.remoteAddress,
    ...(request.payload !== undefined && { payload: request.payload }),
  });
}

describe('authorization matrix', () => {
  it('has exactly one row per route of the OpenAPI document', async () => {
    const served = await documentedRoutes();
    expect(served.length).toBeGreaterThan(80);
    const missing = served.filter((route) => !(route in AUTHORIZATION_MATRIX));
    const stale = Object.keys(AUTHORIZATION_MATRIX).filter((route) => !served.includes(route));
    const problems = [
      ...missing.map(
        (route) =>
          `${route} is served but has no row: add one to AUTHORIZATION_MATRIX in apps/server/test/authorization-matrix.ts ` +
          `with the status each actor gets for a valid request (and a 'why' for anything but 2xx/401/403):\n${rowTemplate(route)}`,
      ),
      ...stale.map(
        (route) => `${route} has a row in authorization-matrix.ts but is not served: remove the row`,
      ),
    ];
    expect(problems, problems.join('\n\n')).toEqual([]);
  });

  it('says why wherever an answer is not a success, 401 or 403', () => {
    const unexplained = cellsOf(AUTHORIZATION_MATRIX).flatMap(([name, row]) =>
      ACTORS.filter((actor) => {
        const status = row.expect[actor];
        return !(status < 300 || status === 401 || status === 403) && !row.why?.[actor];
      }).map((actor) => `${name} as ${actor}: ${row.expect[actor]} needs a 'why'`),
    );
    expect(unexplained).toEqual([]);
  });

  it('answers every cell with the status in the table', async () => {
    const wrong: string[] = [];
    for (const [name, row, route] of cellsOf(AUTHORIZATION_MATRIX)) {
      for (const actor of ACTORS) {
        const response = await runCell(route, row, actor);
        if (response.statusCode !== row.expect[actor]) {
          const detail = response.body.slice(0, 160);
          wrong.push(
            `${name} as ${actor}: expected ${row.expect[actor]}, got ${response.statusCode} ${detail}`,
          );
          continue;
        }
        const problem = response.statusCode < 300 ? row.check?.(response, world, actor) : undefined;
        if (problem) wrong.push(`${name} as ${actor}: ${problem}`);
      }
    }
    expect(wrong, wrong.join('\n')).toEqual([]);
  }, 300_000);
});
