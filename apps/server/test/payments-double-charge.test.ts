import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, paymentIssues, payments, refunds } from '../src/db/schema';
import { RazorpayApi } from '../src/modules/payments/razorpay/razorpay-api';
import { createStripeClient } from '../src/modules/payments/stripe/stripe.gateway';
import { catalogFixtures } from './catalog-fixtures';
import { browserForm, DAY_MS, gatewayTestApp, postJson, type GatewayTestApp } from './gateways.fixtures';
import { commerceFixtures, requests, type TestUser } from './payments.fixtures';

/**
 * Never two charges for one thing, and no money left hanging: a second tab paying for what the buyer owns is refused
 * before the charge where the gateway allows it and refunded (with a receipt saying why) where it took the money;
 * a capture for another amount is refunded and flagged; Razorpay payments are captured by the server; abandoned
 * checkouts expire and are cancelled at the gateway.
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
  ids.artist = (await f.artist({ name: 'Twice Artist', ownerUserId: owner.id })).id;
  ids.song = await c.song({
    artistId: ids.artist,
    title: 'Once Only',
    price: 199,
    accessType: 'purchase-only',
  });
});
afterAll(() => g.close());

const fan = () => catalogFixtures(g.ctx.database).user('user');
const stripe = () => createStripeClient({ ...g.credentials.stripe, apiBase: g.emulator.stripe.url });
const razorpay = () => new RazorpayApi({ ...g.credentials.razorpay, baseUrl: g.emulator.razorpay.url });
const song = () => ({ itemType: 'song' as const, itemId: ids.song!, amount: 199 });
/** Delivers every held event of the gateway, then runs the ledger's jobs, until nothing is left. */
async function settle(gateway: 'stripe' | 'razorpay' | 'paypal') {
  for (let round = 0; round < 5; round += 1) {
    await g.emulator.releaseWebhooks(gateway);
    await g.ctx.app.services.jobs.drain();
    if (g.emulator.heldWebhooks(gateway).length === 0) return;
  }
}
const orderRow = async (id: string) =>
  (await g.ctx.database.db.select().from(orders).where(eq(orders.id, id)))[0]!;

async function openStripe(user: TestUser) {
  const created = await http.post('/api/payments/stripe/create-payment', song(), user);
  expect(created.statusCode, created.body).toBe(200);
  return created.json<{ clientSecret: string; transactionId: string; paymentIntentId: string }>();
}
async function confirmStripe(intent: { clientSecret: string; paymentIntentId: string }) {
  const key = g.credentials.stripe.publishableKey;
  const method = await browserForm(g.emulator.stripe.url, key, '/v1/payment_methods', {
    type: 'card',
    'card[number]': '4242424242424242',
    'card[exp_month]': '12',
    'card[exp_year]': '39',
    'card[cvc]': '123',
  });
  return browserForm(g.emulator.stripe.url, key, `/v1/payment_intents/${intent.paymentIntentId}/confirm`, {
    client_secret: intent.clientSecret,
    payment_method: String(method.body.id),
  });
}
/** A listener opens the song's Stripe checkout in two tabs and pays in both, before either payment is settled. */
async function twoTabsPaid() {
  const user = await fan();
  const tab1 = await openStripe(user);
  const tab2 = await openStripe(user);
  expect((await confirmStripe(tab1)).body.status).toBe('succeeded');
  expect((await confirmStripe(tab2)).body.status).toBe('succeeded');
  return { user, tab1, tab2 };
}
async function payRazorpay(user: TestUser) {
  const created = await http.post('/api/payments/razorpay/create-order', song(), user);
  expect(created.statusCode, created.body).toBe(200);
  const order = created.json<{ order: { id: string }; transactionId: string }>();
  const paid = await postJson(`${g.emulator.razorpay.url}/_emulator/checkout/pay`, {
    key: g.credentials.razorpay.keyId,
    card: '4111111111111111',
    outcome: 'success',
    order_id: order.order.id,
  });
  const response = paid.body!.response as Record<string, string>;
  const verified = await http.post('/api/payments/razorpay/verify', response, user);
  return { order, response, verified };
}

describe('a second tab paying for what the buyer owns', () => {
  it('is refused by Stripe once the first payment made the song theirs: its PaymentIntent was cancelled', async () => {
    const user = await fan();
    const tab1 = await openStripe(user);
    const { verified } = await payRazorpay(user);
    expect(verified.statusCode, verified.body).toBe(200);
    expect(await http.stream(ids.song!, user)).toBe(200);
    await settle('razorpay');
    expect((await orderRow(tab1.transactionId)).status).toBe('cancelled');
    expect((await stripe().paymentIntents.retrieve(tab1.paymentIntentId)).status).toBe('canceled');
    const late = await confirmStripe(tab1);
    expect(late.status).toBe(400);
    expect(late.body).toMatchObject({ error: { code: 'payment_intent_unexpected_state' } });
    const paid = await g.ctx.database.db
      .select()
      .from(orders)
      .where(and(eq(orders.userId, user.id), eq(orders.status, 'paid')));
    expect(paid).toHaveLength(1);
  });

  it('is refunded automatically when both tabs paid before either was settled, with a receipt that says why', async () => {
    const { user, tab1, tab2 } = await twoTabsPaid();
    await settle('stripe');
    const first = await orderRow(tab1.transactionId);
    const second = await orderRow(tab2.transactionId);
    expect([first.status, second.status].sort()).toEqual(['paid', 'refunded']);
    const refunded = first.status === 'refunded' ? first : second;
    expect(
      await g.ctx.database.db.select().from(refunds).where(eq(refunds.orderId, refunded.id)),
    ).toMatchObject([{ kind: 'refund', amount: 199 }]);
    const issue = await g.ctx.database.db
      .select()
      .from(paymentIssues)
      .where(eq(paymentIssues.orderId, refunded.id));
    expect(issue).toMatchObject([{ kind: 'duplicate_payment', status: 'resolved' }]);
    expect(await http.stream(ids.song!, user)).toBe(200);
    expect(g.mailer.sent.some((mail) => mail.to === user.email && mail.text.includes('already owned'))).toBe(
      true,
    );
    const intent = await stripe().paymentIntents.retrieve(
      refunded.id === tab1.transactionId ? tab1.paymentIntentId : tab2.paymentIntentId,
    );
    const charge = await stripe().charges.retrieve(String(intent.latest_charge));
    expect(charge.amount_refunded).toBe(199);
  });
});

describe('a second payment the gateway will not refund (it was disputed)', () => {
  /** Opens a dispute on the PaymentIntent's charge at the emulated bank; answers how to close it won. */
  async function dispute(paymentIntentId: string) {
    const opened = await postJson(
      `${g.emulator.stripe.url}/_emulator/charges/${paymentIntentId}/dispute`,
      {},
    );
    expect(opened.status).toBe(200);
    return async () => {
      const path = `/_emulator/disputes/${String(opened.body!.id)}/close`;
      const closed = await postJson(`${g.emulator.stripe.url}${path}`, { outcome: 'won' });
      expect(closed.status).toBe(200);
    };
  }
  /** A dispute opened and won at once: the money comes back to the seller. */
  const disputeWon = async (paymentIntentId: string) => (await dispute(paymentIntentId))();
  const moneyAtStripe = async (paymentIntentId: string) => {
    const intent = await stripe().paymentIntents.retrieve(paymentIntentId);
    const charge = await stripe().charges.retrieve(String(intent.latest_charge));
    return intent.amount_received - charge.amount_refunded;
  };

  it('is kept, and the buyer’s other payment refunded instead: one payment stands, the song still plays', async () => {
    const { user, tab1, tab2 } = await twoTabsPaid();
    await disputeWon(tab2.paymentIntentId);
    await settle('stripe');
    // Stripe refuses to refund the disputed charge, so the first payment goes back and the second holds the song.
    expect(await moneyAtStripe(tab1.paymentIntentId)).toBe(0);
    expect(await moneyAtStripe(tab2.paymentIntentId)).toBe(199);
    expect((await orderRow(tab1.transactionId)).status).toBe('refunded');
    expect((await orderRow(tab2.transactionId)).status).toBe('paid');
    expect(await http.stream(ids.song!, user)).toBe(200);
    const issues = await g.ctx.database.db
      .select()
      .from(paymentIssues)
      .where(eq(paymentIssues.kind, 'duplicate_payment'));
    expect(issues.find((issue) => issue.orderId === tab2.transactionId)).toMatchObject({
      status: 'resolved',
      resolution: expect.stringContaining('kept'),
    });
    expect(issues.find((issue) => issue.orderId === tab1.transactionId)).toMatchObject({
      status: 'resolved',
    });
  });

  it('is swapped the same way when the dispute is won long after the second payment was settled', async () => {
    const { user, tab1, tab2 } = await twoTabsPaid();
    const win = await dispute(tab2.paymentIntentId);
    await settle('stripe');
    // While the bank holds the second payment, only the first holds money: nothing to refund.
    expect(await moneyAtStripe(tab1.paymentIntentId)).toBe(199);
    expect((await orderRow(tab2.transactionId)).status).toBe('disputed');
    await win();
    await settle('stripe');
    expect(await moneyAtStripe(tab1.paymentIntentId)).toBe(0);
    expect(await moneyAtStripe(tab2.paymentIntentId)).toBe(199);
    expect((await orderRow(tab2.transactionId)).status).toBe('paid');
    expect(await http.stream(ids.song!, user)).toBe(200);
  });

  it('when both payments were disputed, neither can be refunded: the admin is told to return one by hand', async () => {
    const { user, tab1, tab2 } = await twoTabsPaid();
    await disputeWon(tab1.paymentIntentId);
    await disputeWon(tab2.paymentIntentId);
    await settle('stripe');
    expect(await moneyAtStripe(tab1.paymentIntentId)).toBe(199);
    expect(await moneyAtStripe(tab2.paymentIntentId)).toBe(199);
    const open = await g.ctx.database.db
      .select()
      .from(paymentIssues)
      .where(and(eq(paymentIssues.kind, 'refund_failed'), eq(paymentIssues.status, 'open')));
    const listed = open.filter((issue) => [tab1.transactionId, tab2.transactionId].includes(issue.orderId!));
    expect(listed).toHaveLength(1);
    expect(listed[0]!.detail).toContain('another way');
    expect(await http.stream(ids.song!, user)).toBe(200);
    const admin = await catalogFixtures(g.ctx.database).user('admin');
    const health = await http.get('/api/admin/payments/health', admin);
    expect(health.statusCode).toBe(200);
    const shown = health.json<{ issues: Array<{ kind: string; status: string }> }>().issues;
    expect(shown.some((issue) => issue.kind === 'refund_failed' && issue.status === 'open')).toBe(true);
  });
});

describe('money that must not buy anything', () => {
  it('a PayPal capture of another amount is refunded, flagged for the admin, and the buyer told', async () => {
    const user = await fan();
    const created = await http.post(
      '/api/payments/paypal/create-order',
      { ...song(), currency: 'USD' },
      user,
    );
    const order = created.json<{ id: string; transactionId: string }>();
    await postJson(`${g.emulator.paypal.url}/_emulator/orders/${order.id}/approve`, {
      buyer: 'pays',
      capture_amount: '2.09',
    });
    const captured = await http.post('/api/payments/paypal/capture-order', { orderId: order.id }, user);
    expect(captured.statusCode).toBe(409);
    expect(captured.json()).toMatchObject({ code: 'AMOUNT_MISMATCH' });
    expect(await http.stream(ids.song!, user)).toBe(403);
    const [issue] = await g.ctx.database.db
      .select()
      .from(paymentIssues)
      .where(eq(paymentIssues.orderId, order.transactionId));
    expect(issue).toMatchObject({ kind: 'amount_mismatch', amount: 209, status: 'open' });
    await settle('paypal');
    expect((await orderRow(order.transactionId)).status).toBe('refunded');
    const [resolved] = await g.ctx.database.db
      .select()
      .from(paymentIssues)
      .where(eq(paymentIssues.orderId, order.transactionId));
    expect(resolved).toMatchObject({ status: 'resolved' });
    expect(
      g.mailer.sent.some((mail) => mail.to === user.email && mail.text.includes('differed from its price')),
    ).toBe(true);
  });
});

describe('Razorpay payments are captured by the server', () => {
  it('an authorized payment is captured for the server-priced amount, once, however many times it is reported', async () => {
    const user = await fan();
    const { order, response, verified } = await payRazorpay(user);
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toMatchObject({ order: { status: 'paid' } });
    const payment = await razorpay().fetchPayment(response.razorpay_payment_id!);
    expect(payment).toMatchObject({ status: 'captured', amount: 199, captured: true });
    // The same payment reported again (the authorized event, its capture, the order's paid event): one payment row.
    await settle('razorpay');
    await http.post('/api/payments/razorpay/verify', response, user);
    expect(
      await g.ctx.database.db.select().from(payments).where(eq(payments.orderId, order.transactionId)),
    ).toHaveLength(1);
  });

  it('with only the webhook (the buyer closed the tab), payment.authorized captures and settles it', async () => {
    const user = await fan();
    const created = await http.post('/api/payments/razorpay/create-order', song(), user);
    const order = created.json<{ order: { id: string }; transactionId: string }>();
    const paid = await postJson(`${g.emulator.razorpay.url}/_emulator/checkout/pay`, {
      key: g.credentials.razorpay.keyId,
      card: '4111111111111111',
      outcome: 'success',
      order_id: order.order.id,
    });
    const paymentId = (paid.body!.response as Record<string, string>).razorpay_payment_id!;
    expect((await razorpay().fetchPayment(paymentId)).status).toBe('authorized');
    await settle('razorpay');
    expect((await razorpay().fetchPayment(paymentId)).status).toBe('captured');
    expect((await orderRow(order.transactionId)).status).toBe('paid');
  });
});

describe('abandoned checkouts', () => {
  it('expire after two hours: cancelled at Stripe, not a sale, gone from the buyer’s history', async () => {
    const user = await fan();
    const open = await openStripe(user);
    await g.emulator.clock.advance(2 * 3600 * 1000 + 60_000);
    // The expiry job is recurring (every 10 minutes); here it runs once, now.
    await g.ctx.app.services.jobs.enqueue('payment-expire-orders', {});
    await g.ctx.app.services.jobs.drain();
    expect((await orderRow(open.transactionId)).status).toBe('expired');
    expect((await stripe().paymentIntents.retrieve(open.paymentIntentId)).status).toBe('canceled');
    const history = (await http.get('/api/payments/history', user)).json<{
      history: Array<{ _id: string }>;
    }>();
    expect(history.history.map((entry) => entry._id)).not.toContain(open.transactionId);
    await g.emulator.clock.advance(DAY_MS);
  });
});
