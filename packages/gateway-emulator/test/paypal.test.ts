import {
  ApiError,
  CheckoutPaymentIntent,
  Client,
  Environment,
  IntervalUnit,
  OrdersController,
  PaymentsController,
  SubscriptionsController,
  TenureType,
} from '@paypal/paypal-server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentFor, eventually, postJson, startForTest } from './support';
import type { LooseJson } from './support';

let env: Awaited<ReturnType<typeof startForTest>>;
let client: Client;
let orders: OrdersController;
let payments: PaymentsController;
let subscriptions: SubscriptionsController;
const DAY = 24 * 3600 * 1000;

type Event = { id: string; event_type: string; resource: LooseJson };

/** A REST call the SDK does not offer, as Backbeat makes it: the SDK's token, PayPal's documented path. */
async function rest(path: string, body: unknown) {
  const token = await client.clientCredentialsAuthManager.fetchToken();
  const response = await fetch(`${env.emulator.paypal.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token.accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await response.json()) as LooseJson;
}

/** Received events PayPal's verify-webhook-signature accepts. */
async function verified(type: string): Promise<Event[]> {
  const out: Event[] = [];
  for (const raw of env.hooks.received.filter((r) => r.headers['paypal-transmission-id'])) {
    const event = JSON.parse(raw.body) as Event;
    if (event.event_type !== type) continue;
    const check = await rest('/v1/notifications/verify-webhook-signature', {
      auth_algo: raw.headers['paypal-auth-algo'],
      cert_url: raw.headers['paypal-cert-url'],
      transmission_id: raw.headers['paypal-transmission-id'],
      transmission_sig: raw.headers['paypal-transmission-sig'],
      transmission_time: raw.headers['paypal-transmission-time'],
      webhook_id: env.credentials.paypal.webhookId,
      webhook_event: event,
    });
    if (check.verification_status === 'SUCCESS') out.push(event);
  }
  return out;
}

async function eventuallyVerified(type: string, test: (event: Event) => boolean = () => true) {
  for (let i = 0; i < 200; i += 1) {
    const found = (await verified(type)).find(test);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no verified ${type}`);
}

async function newOrder(value = '9.99') {
  const { result } = await orders.createOrder({
    body: {
      intent: CheckoutPaymentIntent.Capture,
      purchaseUnits: [{ referenceId: 'ref-1', customId: 'order-1', amount: { currencyCode: 'USD', value } }],
    },
  });
  return result;
}

const approve = (kind: 'order' | 'subscription', id: string, buyer = 'pays') =>
  postJson(`${env.emulator.paypal.url}/_emulator/approve/${kind}/${id}`, { buyer });

beforeAll(async () => {
  env = await startForTest();
  client = new Client({
    clientCredentialsAuthCredentials: {
      oAuthClientId: env.credentials.paypal.clientId,
      oAuthClientSecret: env.credentials.paypal.clientSecret,
    },
    environment: Environment.Sandbox,
    httpClientOptions: { httpsAgent: agentFor(env.emulator.paypal.url) },
  });
  orders = new OrdersController(client);
  payments = new PaymentsController(client);
  subscriptions = new SubscriptionsController(client);
});
afterAll(async () => {
  await env.emulator.close();
  await env.hooks.close();
});

describe('PayPal emulator through @paypal/paypal-server-sdk', () => {
  it('creates an order with an approve link, refuses capture before approval, captures after', async () => {
    const order = await newOrder();
    expect(order.status).toBe('CREATED');
    const approveLink = order.links?.find((link) => link.rel === 'approve')?.href;
    expect(approveLink).toContain('/checkoutnow?token=');
    expect(await (await fetch(approveLink!)).text()).toContain('Test mode — local gateway emulator');
    const early = await orders.captureOrder({ id: order.id! }).catch((error: unknown) => error);
    expect(early).toBeInstanceOf(ApiError);
    expect(JSON.parse(String((early as ApiError).body)).details[0].issue).toBe('ORDER_NOT_APPROVED');
    expect((await approve('order', order.id!)).status).toBe(200);
    const captured = await orders.captureOrder({ id: order.id!, paypalRequestId: 'capture-1' });
    expect(captured.statusCode).toBe(201);
    const capture = captured.result.purchaseUnits?.[0]?.payments?.captures?.[0];
    expect(capture).toMatchObject({ status: 'COMPLETED', amount: { currencyCode: 'USD', value: '9.99' } });
    // The same request id answers the same capture (PayPal's idempotency).
    const replay = await orders.captureOrder({ id: order.id!, paypalRequestId: 'capture-1' });
    expect(replay.result.purchaseUnits?.[0]?.payments?.captures?.[0]?.id).toBe(capture!.id);
    const event = await eventuallyVerified('PAYMENT.CAPTURE.COMPLETED', (e) => e.resource.id === capture!.id);
    expect(event.resource.supplementary_data.related_ids.order_id).toBe(order.id);
    expect((await payments.getCapturedPayment({ captureId: capture!.id! })).result.status).toBe('COMPLETED');
  });

  it('declines the declined test buyer with INSTRUMENT_DECLINED', async () => {
    const order = await newOrder('4.99');
    await approve('order', order.id!, 'declined');
    const failure = await orders.captureOrder({ id: order.id! }).catch((error: unknown) => error);
    expect(JSON.parse(String((failure as ApiError).body)).details[0].issue).toBe('INSTRUMENT_DECLINED');
    await eventuallyVerified('PAYMENT.CAPTURE.DENIED');
  });

  it('refunds a capture and reports PAYMENT.CAPTURE.REFUNDED linking its capture', async () => {
    const order = await newOrder('12.00');
    await approve('order', order.id!);
    const capture = (await orders.captureOrder({ id: order.id! })).result.purchaseUnits![0]!.payments!
      .captures![0]!;
    const { result: refund } = await payments.refundCapturedPayment({ captureId: capture.id!, body: {} });
    expect(refund.status).toBe('COMPLETED');
    const event = await eventuallyVerified('PAYMENT.CAPTURE.REFUNDED', (e) => e.resource.id === refund.id);
    expect(event.resource.links.find((l: { rel: string }) => l.rel === 'up').href).toContain(capture.id);
    expect((await payments.getRefund({ refundId: refund.id! })).result.status).toBe('COMPLETED');
  });

  it('rejects a tampered event in verify-webhook-signature', async () => {
    const raw = env.hooks.received.find((r) => r.headers['paypal-transmission-id'])!;
    const event = JSON.parse(raw.body) as Event;
    const check = await rest('/v1/notifications/verify-webhook-signature', {
      auth_algo: raw.headers['paypal-auth-algo'],
      cert_url: raw.headers['paypal-cert-url'],
      transmission_id: raw.headers['paypal-transmission-id'],
      transmission_sig: raw.headers['paypal-transmission-sig'],
      transmission_time: raw.headers['paypal-transmission-time'],
      webhook_id: env.credentials.paypal.webhookId,
      webhook_event: { ...event, summary: 'changed' },
    });
    expect(check.verification_status).toBe('FAILURE');
  });

  it('runs a subscription: plan, approval, sale, renewal on the clock, failures to suspension, cancel', async () => {
    const product = await rest('/v1/catalogs/products', { name: 'Nova Reyes', type: 'DIGITAL' });
    expect(product.id).toMatch(/^PROD-/);
    const { result: plan } = await subscriptions.createBillingPlan({
      body: {
        productId: product.id as string,
        name: 'Nova Reyes · monthly subscription',
        billingCycles: [
          {
            frequency: { intervalUnit: IntervalUnit.Month, intervalCount: 1 },
            tenureType: TenureType.Regular,
            sequence: 1,
            totalCycles: 0,
            pricingScheme: { fixedPrice: { currencyCode: 'USD', value: '4.99' } },
          },
        ],
        paymentPreferences: { autoBillOutstanding: true, paymentFailureThreshold: 3 },
      },
    });
    const { result: created } = await subscriptions.createSubscription({
      body: {
        planId: plan.id!,
        customId: 'order-sub',
        applicationContext: { returnUrl: 'http://x/ok', cancelUrl: 'http://x/no' },
      },
    });
    expect(created.status).toBe('APPROVAL_PENDING');
    expect(created.links?.find((l) => l.rel === 'approve')?.href).toContain('/webapps/billing/subscriptions');
    await approve('subscription', created.id!);
    const { result: active } = await subscriptions.getSubscription({ id: created.id! });
    expect(active.status).toBe('ACTIVE');
    expect(active.billingInfo?.lastPayment?.amount).toEqual({ currencyCode: 'USD', value: '4.99' });
    const firstNext = active.billingInfo!.nextBillingTime!;
    await eventuallyVerified('BILLING.SUBSCRIPTION.ACTIVATED', (e) => e.resource.id === created.id);
    const sale = await eventuallyVerified(
      'PAYMENT.SALE.COMPLETED',
      (e) => e.resource.billing_agreement_id === created.id,
    );
    expect(sale.resource.amount).toMatchObject({ total: '4.99', currency: 'USD' });

    await env.emulator.clock.advance(32 * DAY);
    await eventually(() => {
      const sales = env.hooks.received.filter(
        (r) => r.body.includes('PAYMENT.SALE.COMPLETED') && r.body.includes(created.id!),
      );
      return sales.length === 2;
    });
    const { result: renewed } = await subscriptions.getSubscription({ id: created.id! });
    expect(renewed.billingInfo?.lastPayment?.time).toBeTruthy();
    expect(new Date(renewed.billingInfo!.nextBillingTime!) > new Date(firstNext)).toBe(true);

    for (let i = 0; i < 3; i += 1) {
      await postJson(`${env.emulator.paypal.url}/_emulator/subscriptions/${created.id}/bill`, {
        outcome: 'failed',
      });
    }
    await eventuallyVerified('BILLING.SUBSCRIPTION.PAYMENT.FAILED', (e) => e.resource.id === created.id);
    await eventuallyVerified('BILLING.SUBSCRIPTION.SUSPENDED', (e) => e.resource.id === created.id);

    const { result: second } = await subscriptions.createSubscription({
      body: { planId: plan.id!, applicationContext: { returnUrl: 'http://x/ok', cancelUrl: 'http://x/no' } },
    });
    await approve('subscription', second.id!);
    await subscriptions.cancelSubscription({ id: second.id!, body: { reason: 'test' } });
    expect((await subscriptions.getSubscription({ id: second.id! })).result.status).toBe('CANCELLED');
    await eventuallyVerified('BILLING.SUBSCRIPTION.CANCELLED', (e) => e.resource.id === second.id);
    const saleId = (await verified('PAYMENT.SALE.COMPLETED')).find(
      (e) => e.resource.billing_agreement_id === second.id,
    )!.resource.id;
    const refund = await rest(`/v1/payments/sale/${saleId}/refund`, {
      amount: { total: '4.99', currency: 'USD' },
    });
    expect(refund).toMatchObject({ state: 'completed', sale_id: saleId });
    await eventuallyVerified('PAYMENT.SALE.REFUNDED', (e) => e.resource.sale_id === saleId);
  });

  it('refuses a wrong client secret and an unknown order', async () => {
    const wrong = new Client({
      clientCredentialsAuthCredentials: { oAuthClientId: 'nope', oAuthClientSecret: 'nope' },
      environment: Environment.Sandbox,
      httpClientOptions: { httpsAgent: agentFor(env.emulator.paypal.url) },
    });
    await expect(new OrdersController(wrong).getOrder({ id: 'X' })).rejects.toBeTruthy();
    const missing = await orders.getOrder({ id: 'UNKNOWN' }).catch((error: unknown) => error);
    expect((missing as ApiError).statusCode).toBe(404);
  });
});
