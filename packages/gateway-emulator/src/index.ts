import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { STRIPE_TEST_CARDS } from './cards';
import {
  Clock,
  escapeHtml,
  page,
  Store,
  WebhookDispatcher,
  type Delivery,
  type GatewayName,
  type Log,
} from './core';
import { json, serve, type Hold, type Router } from './http';
import { PaypalEmulator, type PaypalCredentials } from './paypal';
import { RazorpayEmulator, type RazorpayCredentials } from './razorpay';
import { StripeEmulator, type StripeCredentials } from './stripe';

export { STRIPE_API_VERSION, stripeSignature } from './stripe';
export { razorpayCheckoutSignature, razorpayWebhookSignature } from './razorpay';
export { paypalSignedText } from './paypal';
export type { Delivery, GatewayName } from './core';
export type { Hold } from './http';

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
  log?: Log;
}

export interface GatewayEmulator {
  stripe: { url: string; api: StripeEmulator };
  razorpay: { url: string; api: RazorpayEmulator };
  paypal: { url: string; api: PaypalEmulator };
  clock: Clock;
  setWebhookUrl(gateway: GatewayName, url: string | undefined): void;
  deliveries(gateway?: GatewayName): Delivery[];
  /** Webhook attempts scheduled or in flight (retries included); 0 when everything sent was answered or given up. */
  pendingWebhooks(gateway: GatewayName): number;
  /** Every event the gateway emitted, delivered or not (an unset webhook URL holds events back), oldest first. */
  events(gateway: GatewayName): Array<{ eventId: string; type: string }>;
  waitForDelivery(test: (delivery: Delivery) => boolean, timeoutMs?: number): Promise<Delivery>;
  /** An event as it would be delivered now (URL, exact body, fresh signature): to replay it in tests. */
  signedEvent(
    eventId: string,
  ): { url: string | undefined; body: string; headers: Record<string, string>; type: string } | null;
  /** Holds the next API request to a gateway matching `test` (fault injection: a slow provider, a crash mid-call). */
  hold(gateway: GatewayName, test: (method: string, path: string) => boolean): Hold;
  /** Sends an event again, as the providers' "resend" does. */
  redeliver(eventId: string): boolean;
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
 * `/_emulator/*` control routes (clock, renewals, refunds, disputes, deliveries).
 */
export async function startGatewayEmulator(options: EmulatorOptions): Promise<GatewayEmulator> {
  const host = options.host ?? '127.0.0.1';
  const log: Log = options.log ?? (() => undefined);
  const clock = new Clock();
  const webhooks = new WebhookDispatcher(
    options.retryDelaysMs ?? [1000, 2000, 5000, 10_000, 30_000, 60_000, 120_000],
    log,
  );
  for (const gateway of ['stripe', 'razorpay', 'paypal'] as const)
    webhooks.setUrl(gateway, options.webhookUrls?.[gateway]);
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
  const razorpay = new RazorpayEmulator(options.credentials.razorpay, stores.razorpay, clock, webhooks);
  const paypal = new PaypalEmulator(options.credentials.paypal, stores.paypal, clock, webhooks);

  addShared(stripe.router, 'stripe', clock, webhooks);
  addShared(razorpay.router, 'razorpay', clock, webhooks);
  addShared(paypal.router, 'paypal', clock, webhooks);
  addStripeControl(stripe);
  addRazorpayControl(razorpay);
  addPaypalControl(paypal);
  addBrowserAssets(stripe, razorpay, paypal, options.credentials);

  const onError = (error: unknown) =>
    log({ error: error instanceof Error ? error.stack : String(error) }, 'emulator route failed');
  const servers: http.Server[] = [];
  const started = async (router: Router, gateway: GatewayName) => {
    const { server, url } = await serve(router, { host, port: options.ports?.[gateway] ?? 0, onError });
    servers.push(server);
    return url;
  };
  stripe.baseUrl = await started(stripe.router, 'stripe');
  razorpay.baseUrl = await started(razorpay.router, 'razorpay');
  paypal.baseUrl = await started(paypal.router, 'paypal');
  log(
    { stripe: stripe.baseUrl, razorpay: razorpay.baseUrl, paypal: paypal.baseUrl },
    'gateway emulator listening',
  );

  return {
    stripe: { url: stripe.baseUrl, api: stripe },
    razorpay: { url: razorpay.baseUrl, api: razorpay },
    paypal: { url: paypal.baseUrl, api: paypal },
    clock,
    setWebhookUrl: (gateway, url) => webhooks.setUrl(gateway, url),
    deliveries: (gateway) => webhooks.deliveries.filter((d) => !gateway || d.gateway === gateway),
    pendingWebhooks: (gateway) => webhooks.pending(gateway),
    events: (gateway) => webhooks.events(gateway),
    waitForDelivery: (test, timeoutMs = 15_000) => webhooks.waitFor(test, timeoutMs),
    signedEvent: (eventId) => webhooks.signed(eventId),
    redeliver: (eventId) => webhooks.redeliver(eventId),
    hold: (gateway, test) => ({ stripe, razorpay, paypal })[gateway].router.hold(test),
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

function addShared(router: Router, gateway: GatewayName, clock: Clock, webhooks: WebhookDispatcher): void {
  router.on('POST', '/_emulator/events/:id/redeliver', (request) =>
    webhooks.redeliver(request.params.id!)
      ? json(200, { ok: true })
      : json(404, { message: 'no such event' }),
  );
  router.on('GET', '/_emulator/deliveries', () =>
    json(200, { deliveries: webhooks.deliveries.filter((d) => d.gateway === gateway) }),
  );
  router.on('GET', '/_emulator/clock', () =>
    json(200, { now: clock.now().toISOString(), offsetMs: clock.offset }),
  );
  router.on('POST', '/_emulator/clock/advance', async (request) => {
    const seconds = Number(request.body.seconds ?? 0) + Number(request.body.days ?? 0) * 86_400;
    if (!Number.isFinite(seconds) || seconds <= 0) return json(400, { message: 'give seconds or days > 0' });
    await clock.advance(seconds * 1000);
    return json(200, { now: clock.now().toISOString() });
  });
  router.on('GET', '/_emulator', () => ({
    status: 200,
    contentType: 'text/html',
    text: page(
      `${gateway} emulator`,
      '#444',
      `<h1>${escapeHtml(gateway)} — local gateway emulator</h1><p class="muted">Control routes: see packages/gateway-emulator/README.md.</p>`,
    ),
  }));
}

const outcome = (value: unknown): 'paid' | 'failed' | undefined =>
  value === 'paid' || value === 'failed' ? value : undefined;

function addStripeControl(stripe: StripeEmulator): void {
  const r = stripe.router;
  r.on('POST', '/_emulator/subscriptions/:id/renew', (request) => {
    const subscription = stripe.findSubscription(request.params.id!);
    if (!subscription) return json(404, { message: 'no such subscription' });
    return json(200, stripe.renew(subscription, outcome(request.body.outcome)));
  });
  r.on('POST', '/_emulator/subscriptions/:id/delete', (request) => {
    const subscription = stripe.deleteSubscription(request.params.id!);
    return subscription ? json(200, subscription) : json(404, { message: 'no such subscription' });
  });
  r.on('POST', '/_emulator/charges/:id/refund', (request) => {
    const refund = stripe.refundFromDashboard(request.params.id!);
    return refund ? json(200, refund) : json(404, { message: 'no refundable charge' });
  });
  r.on('POST', '/_emulator/charges/:id/dispute', (request) => {
    const dispute = stripe.dispute(request.params.id!);
    return dispute ? json(200, dispute) : json(404, { message: 'no such charge' });
  });
}

function addRazorpayControl(razorpay: RazorpayEmulator): void {
  const r = razorpay.router;
  r.on('POST', '/_emulator/subscriptions/:id/charge', (request) => {
    const subscription = razorpay.findSubscription(request.params.id!);
    if (!subscription) return json(404, { message: 'no such subscription' });
    razorpay.charge(subscription, outcome(request.body.outcome));
    return json(200, razorpay.findSubscription(request.params.id!));
  });
  r.on('POST', '/_emulator/payments/:id/dispute', (request) => {
    const dispute = razorpay.dispute(request.params.id!);
    return dispute ? json(200, dispute) : json(404, { message: 'no such payment' });
  });
}

function addPaypalControl(paypal: PaypalEmulator): void {
  const r = paypal.router;
  r.on('POST', '/_emulator/subscriptions/:id/bill', (request) => {
    const subscription = paypal.findSubscription(request.params.id!);
    if (!subscription) return json(404, { message: 'no such subscription' });
    paypal.bill(subscription, outcome(request.body.outcome));
    return json(200, { ok: true });
  });
  r.on('POST', '/_emulator/subscriptions/:id/cancel', (request) =>
    paypal.cancelSubscription(request.params.id!)
      ? json(200, { ok: true })
      : json(404, { message: 'not cancellable' }),
  );
  r.on('POST', '/_emulator/orders/:id/approve', (request) => {
    const amount = typeof request.body.capture_amount === 'string' ? request.body.capture_amount : undefined;
    const order = paypal.approveOrder(
      request.params.id!,
      request.body.buyer === 'declined' ? 'declined' : 'pays',
      amount,
    );
    return order ? json(200, { orderID: order.id }) : json(404, { message: 'not approvable' });
  });
  r.on('POST', '/_emulator/captures/:id/refund', (request) => paypal.refundCapture(request.params.id!));
  r.on('POST', '/_emulator/transactions/:id/dispute', (request) => {
    const dispute = paypal.dispute(request.params.id!);
    return dispute ? json(200, dispute) : json(404, { message: 'no such capture or sale' });
  });
}

function addBrowserAssets(
  stripe: StripeEmulator,
  razorpay: RazorpayEmulator,
  paypal: PaypalEmulator,
  credentials: EmulatorCredentials,
): void {
  const js = (file: string) => () => ({
    status: 200,
    contentType: 'application/javascript; charset=utf-8',
    text: script(file),
    headers: { 'cache-control': 'no-cache' },
  });
  stripe.router.on('GET', '/v3', js('stripe.js'));
  stripe.router.on('GET', '/v3/', js('stripe.js'));
  stripe.router.on('GET', '/_elements/card', (request) => {
    if (request.query.key !== credentials.stripe.publishableKey) {
      return {
        status: 401,
        contentType: 'text/html',
        text: page('Stripe', '#635bff', '<h1>Invalid publishable key</h1>'),
      };
    }
    const cards = Object.entries(STRIPE_TEST_CARDS)
      .map(
        ([number, card]) =>
          `<li><code>${number.replace(/(\d{4})(?=\d)/g, '$1 ')}</code> ${escapeHtml(card.note)}</li>`,
      )
      .join('');
    return {
      status: 200,
      contentType: 'text/html',
      text: script('stripe-card-frame.html').replace('<!--TEST_CARDS-->', cards),
    };
  });
  razorpay.router.on('GET', '/v1/checkout.js', js('razorpay-checkout.js'));
  paypal.router.on('GET', '/sdk/js', js('paypal-sdk.js'));
}
