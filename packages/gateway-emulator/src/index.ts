import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { STRIPE_TEST_CARDS } from './cards';
import { Clock } from './core/clock';
import { escapeHtml, page } from './core/pages';
import { html, route, serve, type EmulatorResponse, type Hold, type Router } from './core/router';
import { Store, type GatewayName, type Log } from './core/store';
import { WebhookDispatcher, type Delivery, type EmittedEvent, type WebhookMode } from './core/webhooks';
import type { PaypalCredentials } from './paypal/dialect';
import { PaypalEmulator } from './paypal/paypal';
import type { RazorpayCredentials } from './razorpay/dialect';
import { RazorpayEmulator, type RazorpaySettings } from './razorpay/razorpay';
import type { StripeCredentials } from './stripe/dialect';
import { StripeEmulator } from './stripe/stripe';

export { STRIPE_API_VERSION, stripeSignature } from './stripe/dialect';
export { razorpayCheckoutSignature, razorpayWebhookSignature } from './razorpay/dialect';
export { paypalSignedText } from './paypal/dialect';
export type { GatewayName } from './core/store';
export type { Delivery, EmittedEvent, WebhookMode } from './core/webhooks';
export type { Hold } from './core/router';
export type { StripeEmulator, PaypalEmulator, RazorpayEmulator, RazorpaySettings };

export interface EmulatorCredentials {
  stripe: StripeCredentials;
  razorpay: RazorpayCredentials;
  paypal: PaypalCredentials;
}

export interface EmulatorOptions {
  host?: string;
  credentials: EmulatorCredentials;
  webhookUrls?: Partial<Record<GatewayName, string>>;
  ports?: Partial<Record<GatewayName, number>>;
  /** Keep all state (customers, plans, subscriptions, the clock) in this JSON file across restarts. */
  stateFile?: string;
  /** Delays between webhook delivery attempts (the first attempt is immediate). */
  retryDelaysMs?: number[];
  /** Each provider's webhook mode at start (default `deliver`). */
  webhookModes?: Partial<Record<GatewayName, WebhookMode>>;
  /** The Razorpay account's settings, as its dashboard has them (automatic capture off by default). */
  razorpay?: Partial<RazorpaySettings>;
  log?: Log;
  /** Sees every answer the emulator gives (tests record them to check each against the providers' definitions). */
  observe?: (exchange: Exchange) => void;
}

/** One request and its answer, as the emulator served it. */
export interface Exchange {
  gateway: GatewayName;
  method: string;
  path: string;
  query: Record<string, unknown>;
  status: number;
  /** The JSON body answered (undefined for pages, scripts and empty answers). */
  body: unknown;
  headers: Record<string, string>;
}

export interface GatewayEmulator {
  stripe: { url: string; api: StripeEmulator };
  razorpay: { url: string; api: RazorpayEmulator };
  paypal: { url: string; api: PaypalEmulator };
  clock: Clock;
  setWebhookUrl(gateway: GatewayName, url: string | undefined): void;
  /** Every delivery attempt (of one gateway), oldest first. */
  deliveries(gateway?: GatewayName): Delivery[];
  /** Webhook attempts scheduled or in flight (retries included); 0 when everything sent was answered or given up. */
  pendingWebhooks(gateway: GatewayName): number;
  /** Every event the gateway emitted, in any mode, oldest first, with its delivery state. */
  events(gateway: GatewayName): EmittedEvent[];
  waitForDelivery(test: (delivery: Delivery) => boolean, timeoutMs?: number): Promise<Delivery>;
  /** An event as it would be delivered now (URL, exact body, fresh signature): to replay it in tests. */
  signedEvent(
    eventId: string,
  ): { url: string | undefined; body: string; headers: Record<string, string>; type: string } | null;
  /** Holds the next API request to a gateway matching `test` (fault injection: a slow provider, a crash mid-call). */
  hold(gateway: GatewayName, test: (method: string, path: string) => boolean): Hold;
  /**
   * An outage (fault injection): the next `times` API requests to a gateway matching `test` are answered with its
   * own 500 error. Answers a function that ends it early.
   */
  fail(gateway: GatewayName, test: (method: string, path: string) => boolean, times?: number): () => void;
  /** Sends an event again (any state), as the providers' "resend" does, without waiting. */
  redeliver(eventId: string): boolean;
  /** Sends an event again now; resolves with the attempt once answered (null: no such event). */
  redeliverNow(eventId: string): Promise<Delivery | null>;
  webhookMode(gateway: GatewayName): WebhookMode;
  /** `deliver` (default), `hold` (kept until released or dropped) or `drop` (never sent). Held events stay held. */
  setWebhookMode(gateway: GatewayName, mode: WebhookMode): void;
  heldWebhooks(gateway: GatewayName): EmittedEvent[];
  /** Delivers held events in the order given (all, oldest first, without ids); resolves once each was answered. */
  releaseWebhooks(gateway: GatewayName, eventIds?: string[]): Promise<Delivery[]>;
  /** Drops held events (all without ids); answers the ids dropped. */
  dropWebhooks(gateway: GatewayName, eventIds?: string[]): string[];
  close(): Promise<void>;
}

const token = (bytes: number) => randomBytes(bytes).toString('base64url').replace(/[-_]/g, 'x');

/** Random test credentials in each provider's format; the emulator accepts only the ones it was started with. */
export function generateEmulatorCredentials(): EmulatorCredentials {
  return {
    stripe: {
      secretKey: `sk_test_emu${token(30)}`,
      publishableKey: `pk_test_emu${token(30)}`,
      webhookSecret: `whsec_${token(24)}`,
    },
    razorpay: { keyId: `rzp_test_${token(10)}`, keySecret: token(18), webhookSecret: token(18) },
    paypal: {
      clientId: `emu-${token(30)}`,
      clientSecret: `E${token(40)}`,
      webhookId: `WH-EMU${token(10).toUpperCase()}`,
    },
  };
}

const browserDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'browser');
const script = (file: string) => readFileSync(path.join(browserDir, file), 'utf8');

/**
 * Starts the three stand-ins, each on its own loopback port, as the official SDKs expect one API host per
 * provider: Stripe (reached through stripe-node's host/port/protocol), Razorpay (its axios base URL) and PayPal (an
 * https agent dialling this port). Each also serves its browser script stand-in, its test checkout pages and the
 * `/_emulator/*` control routes (clock, deliveries and their steering, renewals, refunds, disputes).
 */
export async function startGatewayEmulator(options: EmulatorOptions): Promise<GatewayEmulator> {
  const host = options.host ?? '127.0.0.1';
  const log: Log = options.log ?? (() => undefined);
  const clock = new Clock();
  const webhooks = new WebhookDispatcher(
    options.retryDelaysMs ?? [1000, 2000, 5000, 10_000, 30_000, 60_000, 120_000],
    log,
  );
  for (const gateway of ['stripe', 'razorpay', 'paypal'] as const) {
    webhooks.setUrl(gateway, options.webhookUrls?.[gateway]);
    if (options.webhookModes?.[gateway]) webhooks.setMode(gateway, options.webhookModes[gateway]);
  }
  const stateFile = (gateway: GatewayName) =>
    options.stateFile ? options.stateFile.replace(/(\.json)?$/, `.${gateway}.json`) : null;
  const clockState = {
    get: () => ({ offsetMs: clock.offset }),
    set: (value: unknown) => clock.restore(Number((value as { offsetMs?: number }).offsetMs ?? 0)),
  };
  const stores = {
    stripe: new Store(stateFile('stripe'), clockState),
    razorpay: new Store(stateFile('razorpay')),
    paypal: new Store(stateFile('paypal')),
  };
  const stripe = new StripeEmulator(options.credentials.stripe, stores.stripe, clock, webhooks);
  const razorpay = new RazorpayEmulator(options.credentials.razorpay, stores.razorpay, clock, webhooks, {
    autoCapture: options.razorpay?.autoCapture ?? false,
  });
  const paypal = new PaypalEmulator(options.credentials.paypal, stores.paypal, clock, webhooks);
  addBrowserAssets(stripe.router, razorpay.router, paypal.router, options.credentials);

  for (const router of [stripe.router, razorpay.router, paypal.router]) {
    router.onError = (error, request) =>
      log(
        { error: error instanceof Error ? error.stack : String(error), path: request.path },
        'emulator route failed',
      );
  }
  const servers: http.Server[] = [];
  const started = async (router: Router, gateway: GatewayName) => {
    const observe = options.observe;
    const { server, url } = await serve(router, {
      host,
      port: options.ports?.[gateway] ?? 0,
      observe: observe
        ? (request, response) =>
            observe({
              gateway,
              method: request.method,
              path: request.path,
              query: request.query,
              status: response.status,
              body: 'json' in response ? structuredClone(response.json) : undefined,
              headers: response.headers ?? {},
            })
        : undefined,
    });
    servers.push(server);
    return url;
  };
  stripe.ctx.baseUrl = await started(stripe.router, 'stripe');
  razorpay.baseUrl = await started(razorpay.router, 'razorpay');
  paypal.ctx.baseUrl = await started(paypal.router, 'paypal');
  log(
    { stripe: stripe.ctx.baseUrl, razorpay: razorpay.baseUrl, paypal: paypal.ctx.baseUrl },
    'gateway emulator listening',
  );

  return {
    stripe: { url: stripe.ctx.baseUrl, api: stripe },
    razorpay: { url: razorpay.baseUrl, api: razorpay },
    paypal: { url: paypal.ctx.baseUrl, api: paypal },
    clock,
    setWebhookUrl: (gateway, url) => webhooks.setUrl(gateway, url),
    deliveries: (gateway) => webhooks.deliveries.filter((d) => !gateway || d.gateway === gateway),
    pendingWebhooks: (gateway) => webhooks.pending(gateway),
    events: (gateway) => webhooks.events(gateway),
    waitForDelivery: (test, timeoutMs = 15_000) => webhooks.waitFor(test, timeoutMs),
    signedEvent: (eventId) => webhooks.signed(eventId),
    redeliver: (eventId) => webhooks.redeliver(eventId),
    redeliverNow: (eventId) => webhooks.redeliverNow(eventId),
    webhookMode: (gateway) => webhooks.mode(gateway),
    setWebhookMode: (gateway, mode) => webhooks.setMode(gateway, mode),
    heldWebhooks: (gateway) => webhooks.held(gateway),
    releaseWebhooks: (gateway, eventIds) => webhooks.release(gateway, eventIds),
    dropWebhooks: (gateway, eventIds) => webhooks.drop(gateway, eventIds),
    hold: (gateway, test) => ({ stripe, razorpay, paypal })[gateway].router.hold(test),
    fail: (gateway, test, times) => ({ stripe, razorpay, paypal })[gateway].router.fail(test, times),
    async close() {
      webhooks.close();
      for (const store of Object.values(stores)) store.flush();
      await Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.closeAllConnections();
              server.close(() => resolve());
            }),
        ),
      );
    },
  };
}

/** Stand-ins of the providers' browser scripts, served where the web app loads them in test mode. */
function addBrowserAssets(
  stripe: Router,
  razorpay: Router,
  paypal: Router,
  credentials: EmulatorCredentials,
): void {
  const js = (file: string) => (): EmulatorResponse => ({
    status: 200,
    contentType: 'application/javascript; charset=utf-8',
    text: script(file),
    headers: { 'cache-control': 'no-cache' },
  });
  const get = (path: string, handler: () => EmulatorResponse) => route(`GET ${path}`, 'none', { handler });
  stripe.add(
    get('/v3', js('stripe.js')),
    get('/v3/', js('stripe.js')),
    route('GET /_elements/card', 'none', {
      handler: ({ request }) => {
        if (request.query.key !== credentials.stripe.publishableKey) {
          return html(401, page('Stripe', '#635bff', '<h1>Invalid publishable key</h1>'));
        }
        const cards = Object.entries(STRIPE_TEST_CARDS)
          .map(
            ([number, card]) =>
              `<li><code>${number.replace(/(\d{4})(?=\d)/g, '$1 ')}</code> ${escapeHtml(card.note)}</li>`,
          )
          .join('');
        return html(200, script('stripe-card-frame.html').replace('<!--TEST_CARDS-->', cards));
      },
    }),
  );
  razorpay.add(get('/v1/checkout.js', js('razorpay-checkout.js')));
  paypal.add(get('/sdk/js', js('paypal-sdk.js')));
}
