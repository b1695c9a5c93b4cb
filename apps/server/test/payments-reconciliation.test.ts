import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders } from '../src/db/schema';
import { RazorpayApi } from '../src/modules/payments/razorpay/razorpay-api';
import { catalogFixtures } from './catalog-fixtures';
import { gatewayFlows } from './gateway-flows';
import { gatewayTestApp, postJson, type GatewayTestApp } from './gateways.fixtures';
import { commerceFixtures, requests, type TestUser } from './payments.fixtures';

/**
 * A webhook that never arrives is applied by the next reconciliation, for each gateway; what reconciliation cannot
 * settle (a payment no order knows) is listed for the admin, with each run's figures.
 */
let g: GatewayTestApp;
let http: ReturnType<typeof requests>;
let flows: ReturnType<typeof gatewayFlows>;
let admin: TestUser;
const ids: Record<string, string> = {};

beforeAll(async () => {
  // Every provider drops its webhooks: only reconciliation can tell the server what happened.
  g = await gatewayTestApp({
    emulator: { webhookModes: { stripe: 'drop', razorpay: 'drop', paypal: 'drop' }, retryDelaysMs: [] },
  });
  http = requests(g.ctx);
  flows = gatewayFlows(g, http);
  const f = catalogFixtures(g.ctx.database);
  const c = commerceFixtures(g.ctx);
  const owner = await f.user('artist');
  admin = await f.user('admin');
  ids.artist = (await f.artist({ name: 'Quiet Wire', ownerUserId: owner.id })).id;
  ids.song = await c.song({
    artistId: ids.artist,
    title: 'Dropped',
    price: 249,
    accessType: 'purchase-only',
  });
});
afterAll(() => g.close());

const fan = () => catalogFixtures(g.ctx.database).user('user');
const song = () => ({ itemType: 'song' as const, itemId: ids.song!, amount: 249 });
const status = async (orderId: string) =>
  (await g.ctx.database.db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId)))[0]
    ?.status;
async function reconcile(gateway: string) {
  const res = await http.post(`/api/admin/payments/reconcile?gateway=${gateway}`, {}, admin);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{
    runs: Array<{ gateway: string; status: string; fixed: number; problems: number; fixes: string[] }>;
  }>().runs[0]!;
}

/** A PayPal checkout approved and captured by the buyer: the order and its capture id. */
async function paypalPurchase(user: Awaited<ReturnType<typeof fan>>) {
  const created = await http.post('/api/payments/paypal/create-order', song(), user);
  const order = created.json<{ id: string; transactionId: string }>();
  await postJson(`${g.emulator.paypal.url}/_emulator/orders/${order.id}/approve`, { buyer: 'pays' });
  const captured = await http.post('/api/payments/paypal/capture-order', { orderId: order.id }, user);
  const captureId = captured.json<{
    data: { purchase_units: Array<{ payments: { captures: Array<{ id: string }> } }> };
  }>().data.purchase_units[0]!.payments.captures[0]!.id;
  return { order, captureId };
}

describe('reconciliation applies what webhooks missed', () => {
  it('Stripe: a payment whose every event was lost is paid after reconciliation, and the admin sees the fix', async () => {
    const user = await fan();
    const created = await http.post('/api/payments/stripe/create-payment', song(), user);
    const intent = created.json<{ clientSecret: string; transactionId: string }>();
    expect((await flows.stripeConfirm(intent.clientSecret)).body.status).toBe('succeeded');
    expect(await status(intent.transactionId)).toBe('pending');
    const run = await reconcile('stripe');
    expect(run).toMatchObject({ gateway: 'stripe', status: 'succeeded' });
    expect(run.fixed).toBeGreaterThan(0);
    expect(await status(intent.transactionId)).toBe('paid');
    expect(await http.stream(ids.song!, user)).toBe(200);
    // A second run finds nothing left to do.
    expect((await reconcile('stripe')).fixed).toBe(0);
    const health = (await http.get('/api/admin/payments/health', admin)).json<{
      runs: Array<{ gateway: string; fixed: number; trigger: string }>;
    }>();
    expect(health.runs.filter((r) => r.gateway === 'stripe').map((r) => r.fixed)).toEqual([0, run.fixed]);
  });

  it('Razorpay: a payment authorized while the buyer closed the tab is captured and paid', async () => {
    const user = await fan();
    const created = await http.post('/api/payments/razorpay/create-order', song(), user);
    const order = created.json<{ order: { id: string }; transactionId: string }>();
    await flows.razorpayCheckout({ order_id: order.order.id });
    expect(await status(order.transactionId)).toBe('pending');
    expect((await reconcile('razorpay')).fixed).toBeGreaterThan(0);
    expect(await status(order.transactionId)).toBe('paid');
  });

  it('PayPal: a refund made in PayPal whose event was lost is applied from its transaction search', async () => {
    const user = await fan();
    const { order, captureId } = await paypalPurchase(user);
    expect(await http.stream(ids.song!, user)).toBe(200);
    await postJson(`${g.emulator.paypal.url}/_emulator/captures/${captureId}/refund`, {});
    expect(await http.stream(ids.song!, user)).toBe(200);
    expect((await reconcile('paypal')).fixed).toBeGreaterThan(0);
    expect(await status(order.transactionId)).toBe('refunded');
    expect(await http.stream(ids.song!, user)).toBe(403);
  });

  it('PayPal: a dispute whose event was lost is applied from the Disputes API, and its resolution too', async () => {
    const user = await fan();
    const { order, captureId } = await paypalPurchase(user);
    expect(await http.stream(ids.song!, user)).toBe(200);
    const dispute = await postJson(
      `${g.emulator.paypal.url}/_emulator/transactions/${captureId}/dispute`,
      {},
    );
    const run = await reconcile('paypal');
    expect(run.fixes.some((fix) => fix.startsWith('dispute '))).toBe(true);
    expect(await http.stream(ids.song!, user)).toBe(403);
    // Resolved for the seller: the money comes back, and so does the song, again without a webhook.
    const disputeId = (dispute.body as { dispute_id: string }).dispute_id;
    await postJson(`${g.emulator.paypal.url}/_emulator/disputes/${disputeId}/resolve`, { outcome: 'seller' });
    await reconcile('paypal');
    expect(await http.stream(ids.song!, user)).toBe(200);
    expect(await status(order.transactionId)).toBe('paid');
  });

  it('lists a payment no order knows for the admin, once', async () => {
    const api = new RazorpayApi({ ...g.credentials.razorpay, baseUrl: g.emulator.razorpay.url });
    const stranger = await api.createOrder({
      amount: 1000,
      currency: 'USD',
      receipt: 'elsewhere',
      notes: {},
    });
    const response = await flows.razorpayCheckout({ order_id: stranger.id });
    await api.capturePayment(response.razorpay_payment_id!, 1000, 'USD');
    const run = await reconcile('razorpay');
    expect(run.problems).toBeGreaterThan(0);
    await reconcile('razorpay');
    const issues = (await http.get('/api/admin/payments/health', admin)).json<{
      issues: Array<{ kind: string; externalId: string }>;
    }>().issues;
    expect(issues.filter((issue) => issue.externalId === response.razorpay_payment_id)).toEqual([
      expect.objectContaining({ kind: 'unknown_payment' }),
    ]);
  });

  it('is for admins only, and refuses a gateway that is not configured', async () => {
    const user = await fan();
    expect((await http.post('/api/admin/payments/reconcile', {}, user)).statusCode).toBe(403);
    expect((await http.get('/api/admin/payments/health', user)).statusCode).toBe(403);
    const bad = await http.post('/api/admin/payments/reconcile?gateway=bitcoin', {}, admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
  });
});
