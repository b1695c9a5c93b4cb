import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import {
  generateEmulatorCredentials,
  startGatewayEmulator,
  type EmulatorOptions,
  type GatewayEmulator,
  type GatewayName,
} from '@backbeat/gateway-emulator';
import { MemoryMailer } from './auth-helpers';
import { createTestApp, type TestContext } from './test-app';

export interface GatewayTestApp {
  ctx: TestContext;
  emulator: GatewayEmulator;
  credentials: ReturnType<typeof generateEmulatorCredentials>;
  mailer: MemoryMailer;
  /** The app's own address: the emulator delivers webhooks here over real HTTP. */
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * The app with Stripe, Razorpay and PayPal configured against a local gateway emulator (their official SDKs, real
 * HTTP both ways), listening on a free port so webhooks arrive as they would from the providers. The app's clock is
 * the emulator's, so moving it moves both.
 */
export async function gatewayTestApp(
  options: {
    env?: Record<string, string>;
    /** Emulator settings beside the credentials (webhook modes, retries, the Razorpay account's capture). */
    emulator?: Omit<EmulatorOptions, 'credentials'>;
  } = {},
): Promise<GatewayTestApp> {
  const credentials = generateEmulatorCredentials();
  const emulator = await startGatewayEmulator({
    credentials,
    retryDelaysMs: [200, 400, 800, 1600, 3200],
    ...options.emulator,
  });
  const mailer = new MemoryMailer();
  const ctx = await createTestApp({
    env: {
      STRIPE_SECRET_KEY: credentials.stripe.secretKey,
      STRIPE_PUBLISHABLE_KEY: credentials.stripe.publishableKey,
      STRIPE_WEBHOOK_SECRET: credentials.stripe.webhookSecret,
      STRIPE_API_BASE: emulator.stripe.url,
      RAZORPAY_KEY_ID: credentials.razorpay.keyId,
      RAZORPAY_KEY_SECRET: credentials.razorpay.keySecret,
      RAZORPAY_WEBHOOK_SECRET: credentials.razorpay.webhookSecret,
      RAZORPAY_API_BASE: emulator.razorpay.url,
      PAYPAL_CLIENT_ID: credentials.paypal.clientId,
      PAYPAL_CLIENT_SECRET: credentials.paypal.clientSecret,
      PAYPAL_WEBHOOK_ID: credentials.paypal.webhookId,
      PAYPAL_API_BASE: emulator.paypal.url,
      ...options.env,
    },
    services: { mailer, clock: () => emulator.clock.now() },
  });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  for (const gateway of ['stripe', 'razorpay', 'paypal'] as const) {
    emulator.setWebhookUrl(gateway, `${baseUrl}/api/payments/${gateway}/webhook`);
  }
  return {
    ctx,
    emulator,
    credentials,
    mailer,
    baseUrl,
    async close() {
      // Deliveries the last test set off (a cancellation's webhook...) are answered first: one arriving on a
      // connection while the server closes held the close for a minute (its headers timeout), 1 run in 3.
      for (const gateway of ['stripe', 'razorpay', 'paypal'] as const)
        await webhooksSettled(emulator, gateway, 10_000).catch(() => undefined);
      // Then the app: a handler still talking to the emulator finishes; later deliveries are refused.
      await ctx.close();
      await emulator.close();
    },
  };
}

/** Resolves when every webhook the emulator sent so far was answered 2xx or given up (retries included). */
export async function webhooksSettled(emulator: GatewayEmulator, gateway: GatewayName, timeoutMs = 20_000) {
  const started = Date.now();
  while (emulator.pendingWebhooks(gateway) > 0) {
    if (Date.now() - started > timeoutMs) {
      throw new Error(`webhooks not settled: ${JSON.stringify(emulator.deliveries(gateway).slice(-5))}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Polls until `check` returns a value (webhooks are asynchronous). */
export async function eventually<T>(
  check: () => Promise<T | undefined | null | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Row counts of everything a payment may write. */
export async function paymentCounts(ctx: TestContext) {
  const [row] = await ctx.database.query<Record<string, number>>(
    sql`select (select count(*)::int from orders) as orders, (select count(*)::int from payments) as payments,
               (select count(*)::int from purchases) as purchases, (select count(*)::int from subscriptions) as subscriptions,
               (select count(*)::int from refunds) as refunds, (select count(*)::int from payment_events) as events`,
  );
  return row!;
}

/** A form POST as a provider's browser script makes it (Stripe.js with the publishable key). */
export async function browserForm(base: string, key: string, path: string, form: Record<string, string>) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json: Record<string, unknown> | null = null;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = null;
  }
  return { status: response.status, body: json };
}

export const DAY_MS = 24 * 3600 * 1000;
