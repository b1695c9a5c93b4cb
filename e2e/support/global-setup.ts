import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { OIDC_CLIENT, startLocalIssuer } from './oidc-issuer';
import { repoRoot } from './paths';
import { freshSeededDataDir } from './seed-cache';
import { startServer } from './server-process';
import { buildWebIfChanged } from './web-build';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
    /** The local OpenID Connect issuer behind the "Google" sign-in button. */
    oidcIssuerUrl: string;
    /** `POST {oidcControlUrl}/identity` sets who the issuer signs in next (see support/social.ts). */
    oidcControlUrl: string;
  }
}

/**
 * Builds the web app if its sources changed (web-build.ts; E2E_SKIP_BUILD=1 uses any existing build), starts a
 * local OIDC issuer, then starts the real server in production mode on a copy of the cached, seeded demo catalogue
 * (seeded once per change to the schema, seed or media pipeline; see seed-cache.ts).
 */
export default async function setup(project: TestProject) {
  const distIndex = path.join(repoRoot, 'apps/web/dist/index.html');
  if (!(process.env.E2E_SKIP_BUILD === '1' && existsSync(distIndex))) await buildWebIfChanged();
  const dataDir = await freshSeededDataDir();
  const workDir = mkdtempSync(path.join(tmpdir(), 'backbeat-e2e-oidc-'));
  const issuer = await startLocalIssuer(workDir);
  const server = await startServer(dataDir, {
    OIDC_GOOGLE_ISSUER: issuer.issuerUrl,
    OIDC_GOOGLE_CLIENT_ID: OIDC_CLIENT.id,
    OIDC_GOOGLE_CLIENT_SECRET: OIDC_CLIENT.secret,
    // The server trusts the issuer's self-signed certificate, nothing else changes.
    NODE_EXTRA_CA_CERTS: issuer.certFile,
    // Every test registers its own users from 127.0.0.1.
    AUTH_REGISTER_RATE_LIMIT: '1000',
    // Stripe, Razorpay and PayPal against the local gateway emulator (their SDKs, signed webhooks, test checkouts
    // and browser script stand-ins), plus the demo checkout: commerce.e2e.ts and gateways.e2e.ts pay through them.
    PAYMENTS_EMULATOR: 'true',
    PAYMENTS_SANDBOX: 'true',
  }).catch(async (error: unknown) => {
    await issuer.stop();
    throw error;
  });
  project.provide('baseUrl', server.baseUrl);
  project.provide('dataDir', dataDir);
  project.provide('oidcIssuerUrl', issuer.issuerUrl);
  project.provide('oidcControlUrl', issuer.controlUrl);
  return async () => {
    await server.stop(15_000).catch((error: unknown) => console.error(error));
    await issuer.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(workDir, { recursive: true, force: true });
  };
}
