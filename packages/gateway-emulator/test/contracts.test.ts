/**
 * Every body the emulator serves, checked mechanically against the providers' own definitions (not by hand):
 * a scripted tour calls every API route of each provider through the states Backbeat meets, the emulator's
 * `observe` hook records each answer, the webhook receiver each delivery, and then
 * - Stripe: each body becomes a typed constant (`const s0: Stripe.Charge = {…}`, `Stripe.Event` for webhooks,
 *   Stripe's error envelope for errors) in a generated module type-checked with the `stripe` package's types for
 *   the pinned API version (required fields, enum literals, no undeclared field, at every depth);
 * - Razorpay: the same, against the `razorpay` package's entity types (razorpay-tour.ts names the few corrections
 *   its definitions need to match Razorpay's API reference);
 * - PayPal: the SDK's runtime model schemas, made strict (paypal-validate.ts), and for the v1 calls the SDK does
 *   not cover, zod schemas of the documented fields.
 * The tour must reach every API route of every provider's table, so a new route cannot escape the check.
 * Why generated TypeScript for Stripe and Razorpay: it checks against the types exactly as the SDK ships them,
 * with no converter in between (a JSON-schema generator chokes on the 500-file Stripe type graph and would add
 * its own interpretation); one program for both takes about 15 s here.
 */
import { Client, Environment } from '@paypal/paypal-server-sdk';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Exchange, GatewayName } from '../src/index';
import { checkPaypalExchange, checkPaypalWebhook } from './contracts/paypal-validate';
import { paypalTour } from './contracts/paypal-tour';
import { RAZORPAY_HEADER, razorpaySamples, razorpayTour } from './contracts/razorpay-tour';
import { STRIPE_HEADER, stripeSamples, stripeTour } from './contracts/stripe-tour';
import { typeCheck } from './contracts/typecheck';
import { agentFor, razorpayRest, startForTest } from './support';

const exchanges: Exchange[] = [];
let env: Awaited<ReturnType<typeof startForTest>>;

const webhooksOf = (header: string) => env.hooks.received.filter((r) => r.headers[header]).map((r) => r.body);
const untouched = (gateway: GatewayName) => {
  const api = env.emulator[gateway].api.router.table().filter((route) => route.auth !== 'none');
  return api
    .filter(
      (route) =>
        !exchanges.some(
          (x) =>
            x.gateway === gateway &&
            x.method === route.method &&
            x.status < 300 &&
            route.pattern.test(x.path),
        ),
    )
    .map((route) => `${route.method} ${route.path}`);
};

beforeAll(async () => {
  env = await startForTest([100, 200], { observe: (exchange) => exchanges.push(exchange) });
  const { credentials, emulator } = env;
  const stripeBase = new URL(emulator.stripe.url);
  const stripe = new Stripe(credentials.stripe.secretKey, {
    host: stripeBase.hostname,
    port: Number(stripeBase.port),
    protocol: 'http',
    maxNetworkRetries: 0,
  });
  const razorpay = razorpayRest(
    emulator.razorpay.url,
    credentials.razorpay.keyId,
    credentials.razorpay.keySecret,
  );
  const paypal = new Client({
    clientCredentialsAuthCredentials: {
      oAuthClientId: credentials.paypal.clientId,
      oAuthClientSecret: credentials.paypal.clientSecret,
    },
    environment: Environment.Sandbox,
    httpClientOptions: { httpsAgent: agentFor(emulator.paypal.url) },
  });
  await stripeTour(emulator, stripe, credentials.stripe);
  await razorpayTour(emulator, razorpay, credentials.razorpay.keyId);
  await paypalTour(emulator, paypal);
  await vi.waitFor(
    () => {
      for (const gateway of ['stripe', 'razorpay', 'paypal'] as const)
        expect(emulator.pendingWebhooks(gateway)).toBe(0);
    },
    { timeout: 20_000 },
  );
}, 120_000);
afterAll(async () => {
  await env.emulator.close();
  await env.hooks.close();
});

describe('every served body matches the provider’s definition', () => {
  it('the tour reached every API route of every provider', () => {
    expect({
      stripe: untouched('stripe'),
      razorpay: untouched('razorpay'),
      paypal: untouched('paypal'),
    }).toEqual({ stripe: [], razorpay: [], paypal: [] });
  });

  it('Stripe and Razorpay bodies type-check against the stripe and razorpay packages’ types', () => {
    const stripe = stripeSamples(exchanges, webhooksOf('stripe-signature'));
    const razorpay = razorpaySamples(exchanges, webhooksOf('x-razorpay-signature'));
    expect(stripe.length).toBeGreaterThan(150);
    expect(razorpay.length).toBeGreaterThan(60);
    const problems = typeCheck([
      { name: 'stripe-served.ts', header: STRIPE_HEADER, samples: stripe },
      { name: 'razorpay-served.ts', header: RAZORPAY_HEADER, samples: razorpay },
    ]);
    expect(problems).toEqual([]);
  }, 120_000);

  it('PayPal bodies match the PayPal SDK’s models and the documented v1 shapes', () => {
    const served = exchanges
      .filter((x) => x.gateway === 'paypal')
      .flatMap((x) =>
        (checkPaypalExchange(x) ?? []).map((problem) => `${x.method} ${x.path} → ${x.status}: ${problem}`),
      );
    const webhooks = webhooksOf('paypal-transmission-id');
    expect(webhooks.length).toBeGreaterThan(20);
    expect([...served, ...webhooks.flatMap(checkPaypalWebhook)]).toEqual([]);
  });

  it('every answer carries the provider’s request id header', () => {
    const missing = exchanges.filter(
      (x) =>
        !x.path.startsWith('/_') &&
        ((x.gateway === 'stripe' && !/^req_/.test(x.headers['request-id'] ?? '')) ||
          (x.gateway === 'paypal' && !x.headers['paypal-debug-id'])),
    );
    expect(missing.map((x) => `${x.gateway} ${x.method} ${x.path}`)).toEqual([]);
  });
});
