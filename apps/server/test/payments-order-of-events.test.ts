import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { earlyAdjustments, payments, refunds } from '../src/db/schema';
import { catalogFixtures } from './catalog-fixtures';
import { browserForm, gatewayTestApp, postJson, type GatewayTestApp } from './gateways.fixtures';
import { commerceFixtures, requests, type TestUser } from './payments.fixtures';

/**
 * Gateways deliver events in any order (Stripe documents it). Every provider holds its webhooks here, so the test
 * decides the order: the refund of a payment delivered before the payment's own success must never end with the
 * music granted, on any gateway.
 */
let g: GatewayTestApp;
let http: ReturnType<typeof requests>;
const ids: Record<string, string> = {};

beforeAll(async () => {
  g = await gatewayTestApp({
    emulator: { webhookModes: { stripe: 'hold', razorpay: 'hold', paypal: 'hold' }, retryDelaysMs: [] },
  });
  http = requests(g.ctx);
  const f = catalogFixtures(g.ctx.database);
  const c = commerceFixtures(g.ctx);
  const owner = await f.user('artist');
  ids.artist = (await f.artist({ name: 'Order Artist', ownerUserId: owner.id })).id;
  ids.song = await c.song({
    artistId: ids.artist,
    title: 'Out of Order',
    price: 199,
    accessType: 'purchase-only',
  });
});
afterAll(() => g.close());

const fan = () => catalogFixtures(g.ctx.database).user('user');
const held = (gateway: 'stripe' | 'razorpay' | 'paypal') => g.emulator.heldWebhooks(gateway);
/** Delivers the held events of the gateway matching `types`, in that order of types. */
async function deliver(gateway: 'stripe' | 'razorpay' | 'paypal', types: string[]) {
  for (const type of types) {
    const ids = held(gateway)
      .filter((event) => event.type === type)
      .map((event) => event.eventId);
    if (ids.length > 0) await g.emulator.releaseWebhooks(gateway, ids);
  }
}

async function stripePaid(user: TestUser) {
  const created = await http.post(
    '/api/payments/stripe/create-payment',
    { itemType: 'song', itemId: ids.song, amount: 199 },
    user,
  );
  expect(created.statusCode, created.body).toBe(200);
  const body = created.json<{ clientSecret: string; transactionId: string; paymentIntentId: string }>();
  const key = g.credentials.stripe.publishableKey;
  const method = await browserForm(g.emulator.stripe.url, key, '/v1/payment_methods', {
    type: 'card',
    'card[number]': '4242424242424242',
    'card[exp_month]': '12',
    'card[exp_year]': '39',
    'card[cvc]': '123',
  });
  const confirmed = await browserForm(
    g.emulator.stripe.url,
    key,
    `/v1/payment_intents/${body.paymentIntentId}/confirm`,
    {
      client_secret: body.clientSecret,
      payment_method: String(method.body.id),
    },
  );
  expect(confirmed.body.status).toBe('succeeded');
  return body;
}

describe('Stripe: a refund delivered before the success it refunds', () => {
  it('is kept, and the later payment_intent.succeeded records the money and its refund: nothing plays', async () => {
    const user = await fan();
    const paid = await stripePaid(user);
    expect(
      (await postJson(`${g.emulator.stripe.url}/_emulator/charges/${paid.paymentIntentId}/refund`, {}))
        .status,
    ).toBe(200);
    // The refund's events first; the intent's success last.
    await deliver('stripe', ['charge.refunded', 'refund.created', 'refund.updated']);
    const kept = await g.ctx.database.db
      .select()
      .from(earlyAdjustments)
      .where(eq(earlyAdjustments.paymentRef, paid.paymentIntentId));
    expect(kept).toHaveLength(1);
    await deliver('stripe', ['charge.succeeded', 'payment_intent.succeeded']);
    expect(await http.stream(ids.song!, user)).toBe(403);
    const order = (await http.get(`/api/payments/orders/${paid.transactionId}`, user)).json<{
      order: { status: string };
    }>();
    expect(order.order.status).toBe('refunded');
    const db = g.ctx.database.db;
    expect(await db.select().from(payments).where(eq(payments.orderId, paid.transactionId))).toMatchObject([
      { status: 'succeeded', amount: 199 },
    ]);
    expect(await db.select().from(refunds).where(eq(refunds.orderId, paid.transactionId))).toMatchObject([
      { kind: 'refund', amount: 199 },
    ]);
    // Downloads follow the same rule: a refunded purchase downloads nothing.
    expect(await http.canPlay(ids.artist!, user)).toMatchObject({ [ids.song!]: false });
  });

  it('a success whose refund event never comes is still settled refunded, from the charge Stripe reports', async () => {
    const user = await fan();
    const paid = await stripePaid(user);
    await postJson(`${g.emulator.stripe.url}/_emulator/charges/${paid.paymentIntentId}/refund`, {});
    // The refund's own events are lost; only the success arrives, after the refund.
    g.emulator.dropWebhooks(
      'stripe',
      held('stripe')
        .filter((event) => event.type.includes('refund'))
        .map((event) => event.eventId),
    );
    await deliver('stripe', ['payment_intent.succeeded']);
    expect(await http.stream(ids.song!, user)).toBe(403);
    const order = (await http.get(`/api/payments/orders/${paid.transactionId}`, user)).json<{
      order: { status: string };
    }>();
    expect(order.order.status).toBe('refunded');
  });
});

describe('Razorpay and PayPal: the refund first, the capture after', () => {
  it('Razorpay: refund.processed before payment.captured grants nothing', async () => {
    const user = await fan();
    const created = await http.post(
      '/api/payments/razorpay/create-order',
      { itemType: 'song', itemId: ids.song, amount: 199 },
      user,
    );
    const order = created.json<{ order: { id: string }; transactionId: string }>();
    const paid = await postJson(`${g.emulator.razorpay.url}/_emulator/checkout/pay`, {
      key: g.credentials.razorpay.keyId,
      card: '4111111111111111',
      outcome: 'success',
      order_id: order.order.id,
    });
    const response = paid.body!.response as Record<string, string>;
    // The buyer's tab closes before Checkout reports back; the authorized payment's event is what arrives.
    await deliver('razorpay', ['payment.authorized']);
    const paymentId = response.razorpay_payment_id!;
    expect(
      (await postJson(`${g.emulator.razorpay.url}/_emulator/payments/${paymentId}/refund`, {})).status,
    ).toBe(200);
    await deliver('razorpay', ['refund.created', 'refund.processed', 'payment.refunded']);
    await deliver('razorpay', ['payment.captured', 'order.paid']);
    expect(await http.stream(ids.song!, user)).toBe(403);
    const status = (await http.get(`/api/payments/orders/${order.transactionId}`, user)).json<{
      order: { status: string };
    }>();
    expect(status.order.status).toBe('refunded');
  });

  it('PayPal: PAYMENT.CAPTURE.REFUNDED before PAYMENT.CAPTURE.COMPLETED grants nothing', async () => {
    const user = await fan();
    const created = await http.post(
      '/api/payments/paypal/create-order',
      { itemType: 'song', itemId: ids.song, amount: 199 },
      user,
    );
    const order = created.json<{ id: string; transactionId: string }>();
    await postJson(`${g.emulator.paypal.url}/_emulator/orders/${order.id}/approve`, { buyer: 'pays' });
    const captured = await http.post('/api/payments/paypal/capture-order', { orderId: order.id }, user);
    expect(captured.statusCode, captured.body).toBe(200);
    const captureId = captured.json<{
      data: { purchase_units: Array<{ payments: { captures: Array<{ id: string }> } }> };
    }>().data.purchase_units[0]!.payments.captures[0]!.id;
    expect(await http.stream(ids.song!, user)).toBe(200);
    await postJson(`${g.emulator.paypal.url}/_emulator/captures/${captureId}/refund`, {});
    await deliver('paypal', ['PAYMENT.CAPTURE.REFUNDED', 'PAYMENT.CAPTURE.COMPLETED']);
    expect(await http.stream(ids.song!, user)).toBe(403);
  });
});
