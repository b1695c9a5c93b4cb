import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { razorpayWebhookSignature } from '@backbeat/gateway-emulator';
import { orders, paymentEvents, payments, purchases, refunds, subscriptions } from '../src/db/schema';
import { RazorpayApi } from '../src/modules/payments/razorpay/razorpay-api';
import { catalogFixtures } from './catalog-fixtures';
import {
  DAY_MS,
  gatewayTestApp,
  paymentCounts,
  postJson,
  webhooksSettled,
  type GatewayTestApp,
} from './gateways.fixtures';
import { commerceFixtures, requests, type TestUser } from './payments.fixtures';

let g: GatewayTestApp;
let http: ReturnType<typeof requests>;
let admin: TestUser;
/** Razorpay's REST API as the server calls it (the emulator behind it). */
let direct: RazorpayApi;
const ids: Record<string, string> = {};

const fan = () => catalogFixtures(g.ctx.database).user('user');

/** What Razorpay Checkout does when the buyer pays: the emulator's checkout answers the signed handler result. */
async function checkout(target: { order_id?: string; subscription_id?: string }, outcome = 'success') {
  return postJson(`${g.emulator.razorpay.url}/_emulator/checkout/pay`, {
    key: g.credentials.razorpay.keyId,
    card: '4111111111111111',
    outcome,
    ...target,
  });
}

async function buy(user: TestUser, itemType: 'song' | 'album', itemId: string, amount: number) {
  const created = await http.post('/api/payments/razorpay/create-order', { itemType, itemId, amount }, user);
  expect(created.statusCode, created.body).toBe(200);
  const body = created.json<{
    order: { id: string; amount: number };
    transactionId: string;
    keyId: string;
  }>();
  expect(body.keyId).toBe(g.credentials.razorpay.keyId);
  const paid = await checkout({ order_id: body.order.id });
  expect(paid.status).toBe(200);
  const response = paid.body!.response as Record<string, string>;
  const verified = await http.post('/api/payments/razorpay/verify', response, user);
  expect(verified.statusCode, verified.body).toBe(200);
  await webhooksSettled(g.emulator, 'razorpay');
  return { ...body, response, verified: verified.json<{ order: { status: string }; message: string }>() };
}

async function subscribe(user: TestUser, cycle: '1m' | '3m' | '6m' | '12m' = '1m', amount = 499) {
  const created = await http.post(
    `/api/subscriptions/artist/${ids.artist}`,
    { gateway: 'razorpay', cycle, amount },
    user,
  );
  expect(created.statusCode, created.body).toBe(201);
  const body = created.json<{ subscriptionId: string; cycle: string; transactionId: string }>();
  expect(body.cycle).toBe(cycle);
  const paid = await checkout({ subscription_id: body.subscriptionId });
  const response = paid.body!.response as Record<string, string>;
  const verified = await http.post('/api/payments/razorpay/verify', response, user);
  expect(verified.statusCode, verified.body).toBe(200);
  await webhooksSettled(g.emulator, 'razorpay');
  return body;
}

async function orderStatus(user: TestUser, orderId: string) {
  return (await http.get(`/api/payments/orders/${orderId}`, user)).json<{ order: { status: string } }>().order
    .status;
}

async function localSubscription(externalId: string) {
  const [row] = await g.ctx.database.db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.gateway, 'razorpay'), eq(subscriptions.externalId, externalId)));
  return row!;
}

beforeAll(async () => {
  g = await gatewayTestApp();
  http = requests(g.ctx);
  direct = new RazorpayApi({ ...g.credentials.razorpay, baseUrl: g.emulator.razorpay.url });
  const f = catalogFixtures(g.ctx.database);
  const c = commerceFixtures(g.ctx);
  const owner = await f.user('artist');
  admin = await f.user('admin');
  ids.artist = (await f.artist({ name: 'Asha Rao', ownerUserId: owner.id })).id;
  const artistId = ids.artist;
  ids.single = await c.song({ artistId, title: 'Monsoon', price: 129, accessType: 'purchase-only' });
  ids.premium = await c.album({ artistId, title: 'Ghats', price: 1499, isPremium: true });
  ids.premiumTrack = await c.song({
    artistId,
    title: 'Western Slope',
    price: 99,
    accessType: 'purchase-only',
    albumId: ids.premium,
  });
  ids.subSong = await c.song({ artistId, title: 'Raga Night', price: 0, accessType: 'subscription' });
});
afterAll(async () => {
  await webhooksSettled(g.emulator, 'razorpay').catch(() => undefined);
  await g.close();
});

describe('Razorpay purchases: Order -> Checkout -> verified result and webhook -> entitlement', () => {
  it('buys a song: verified with the SDK helper, the song plays, one payment, a receipt', async () => {
    const user = await fan();
    expect(await http.stream(ids.single!, user)).toBe(403);
    const { transactionId, verified, order } = await buy(user, 'song', ids.single!, 129);
    expect(verified).toMatchObject({ order: { status: 'paid' } });
    expect(order.amount).toBe(129);
    expect(await http.stream(ids.single!, user)).toBe(200);
    // Checkout's result and payment.captured both arrived: still one payment and one grant.
    const db = g.ctx.database.db;
    expect(await db.select().from(payments).where(eq(payments.orderId, transactionId))).toMatchObject([
      { gateway: 'razorpay', status: 'succeeded', amount: 129 },
    ]);
    expect(await db.select().from(purchases).where(eq(purchases.orderId, transactionId))).toHaveLength(1);
    await g.ctx.app.services.jobs.drain();
    expect(g.mailer.sent.some((m) => m.subject === 'Your receipt: Monsoon')).toBe(true);
  });

  it('buys a premium album: its tracks play', async () => {
    const user = await fan();
    expect(await http.stream(ids.premiumTrack!, user)).toBe(403);
    const { transactionId } = await buy(user, 'album', ids.premium!, 1499);
    expect(await orderStatus(user, transactionId)).toBe('paid');
    expect(await http.stream(ids.premiumTrack!, user)).toBe(200);
  });

  it('a failed payment fails the order (payment.failed) and grants nothing', async () => {
    const user = await fan();
    const created = await http.post(
      '/api/payments/razorpay/create-order',
      { itemType: 'song', itemId: ids.single!, amount: 129 },
      user,
    );
    const { order, transactionId } = created.json<{ order: { id: string }; transactionId: string }>();
    const failed = await checkout({ order_id: order.id }, 'failure');
    expect(failed.body!.failure).toMatchObject({ code: 'BAD_REQUEST_ERROR' });
    await webhooksSettled(g.emulator, 'razorpay');
    expect(await orderStatus(user, transactionId)).toBe('failed');
    expect(await http.stream(ids.single!, user)).toBe(403);
  });

  it('a forged Checkout signature is 400 and writes nothing; another user cannot claim the payment', async () => {
    const user = await fan();
    const created = await http.post(
      '/api/payments/razorpay/create-order',
      { itemType: 'song', itemId: ids.single!, amount: 129 },
      user,
    );
    const { order } = created.json<{ order: { id: string } }>();
    await webhooksSettled(g.emulator, 'razorpay');
    g.emulator.setWebhookUrl('razorpay', undefined);
    const paid = await checkout({ order_id: order.id });
    await webhooksSettled(g.emulator, 'razorpay');
    g.emulator.setWebhookUrl('razorpay', `${g.baseUrl}/api/payments/razorpay/webhook`);
    const response = paid.body!.response as Record<string, string>;
    const before = await paymentCounts(g.ctx);
    const forged = await http.post(
      '/api/payments/razorpay/verify',
      { ...response, razorpay_signature: 'f'.repeat(64) },
      user,
    );
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toEqual({ message: 'Invalid Razorpay signature', code: 'INVALID_SIGNATURE' });
    const stranger = await http.post('/api/payments/razorpay/verify', response, await fan());
    expect(stranger.statusCode).toBe(404);
    expect(await paymentCounts(g.ctx)).toEqual(before);
    expect(await http.stream(ids.single!, user)).toBe(403);
  });

  it('refuses a stale client price with 400 and writes nothing', async () => {
    const user = await fan();
    await webhooksSettled(g.emulator, 'razorpay');
    const before = await paymentCounts(g.ctx);
    const stale = await http.post(
      '/api/payments/razorpay/create-order',
      { itemType: 'song', itemId: ids.single!, amount: 1 },
      user,
    );
    expect(stale.statusCode).toBe(400);
    expect(stale.json()).toMatchObject({ code: 'AMOUNT_MISMATCH' });
    expect(await paymentCounts(g.ctx)).toEqual(before);
  });
});

describe('Razorpay webhooks: verified with validateWebhookSignature, idempotent', () => {
  it('the same payment.authorized 50 times in parallel captures and grants once; a forged signature is 400 and writes nothing', async () => {
    const user = await fan();
    const created = await http.post(
      '/api/payments/razorpay/create-order',
      { itemType: 'song', itemId: ids.single!, amount: 129 },
      user,
    );
    const { order, transactionId } = created.json<{ order: { id: string }; transactionId: string }>();
    await webhooksSettled(g.emulator, 'razorpay');
    g.emulator.setWebhookUrl('razorpay', undefined); // hold the events back; the buyer closes the tab
    await checkout({ order_id: order.id });
    await webhooksSettled(g.emulator, 'razorpay');
    g.emulator.setWebhookUrl('razorpay', `${g.baseUrl}/api/payments/razorpay/webhook`);
    expect(await orderStatus(user, transactionId)).toBe('pending');
    // Payments wait authorized until the server captures them: the event that arrives is payment.authorized.
    const captured = g.emulator.events('razorpay').findLast((e) => e.type === 'payment.authorized')!;
    const event = g.emulator.signedEvent(captured.eventId)!;
    const url = `${g.baseUrl}/api/payments/razorpay/webhook`;

    const before = await paymentCounts(g.ctx);
    const forged = await postJson(url, event.body, {
      ...event.headers,
      'x-razorpay-signature': razorpayWebhookSignature(event.body, 'not-the-secret'),
    });
    expect(forged).toEqual({
      status: 400,
      body: { message: 'Invalid Razorpay signature', code: 'INVALID_SIGNATURE' },
    });
    expect(await paymentCounts(g.ctx)).toEqual(before);

    const answers = await Promise.all(
      Array.from({ length: 50 }, () => postJson(url, event.body, event.headers)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    const db = g.ctx.database.db;
    expect(await db.select().from(payments).where(eq(payments.orderId, transactionId))).toHaveLength(1);
    expect(await db.select().from(purchases).where(eq(purchases.orderId, transactionId))).toHaveLength(1);
    expect(
      await db
        .select()
        .from(paymentEvents)
        .where(and(eq(paymentEvents.gateway, 'razorpay'), eq(paymentEvents.eventId, captured.eventId))),
    ).toMatchObject([{ status: 'processed', orderId: transactionId }]);
    expect(await http.stream(ids.single!, user)).toBe(200);
  });

  it('a genuinely signed body that is not an event is 400 { message, code } and writes nothing', async () => {
    await webhooksSettled(g.emulator, 'razorpay'); // earlier tests' deliveries land first
    const url = `${g.baseUrl}/api/payments/razorpay/webhook`;
    const before = await paymentCounts(g.ctx);
    for (const body of ['null', '[]', '"payment.captured"', '{}', '{"event":"payment.captured"}']) {
      const answer = await postJson(url, body, {
        'content-type': 'application/json',
        'x-razorpay-signature': razorpayWebhookSignature(body, g.credentials.razorpay.webhookSecret),
        'x-razorpay-event-id': `evt_not_an_event_${body.length}`,
      });
      expect(answer.status, body).toBe(400);
      expect(answer.body, body).toMatchObject({ code: 'BAD_REQUEST', message: expect.any(String) });
    }
    expect(await paymentCounts(g.ctx)).toEqual(before);
  });

  it('records an event for an order it does not know and answers 200', async () => {
    const order = await direct.createOrder({ amount: 500, currency: 'USD', receipt: 'elsewhere', notes: {} });
    await checkout({ order_id: order.id });
    await webhooksSettled(g.emulator, 'razorpay');
    const unknown = await g.ctx.database.db
      .select()
      .from(paymentEvents)
      .where(and(eq(paymentEvents.gateway, 'razorpay'), eq(paymentEvents.status, 'unknown_order')));
    expect(unknown.some((row) => JSON.stringify(row.payload).includes(order.id))).toBe(true);
    const failures = g.emulator.deliveries('razorpay').filter((d) => d.status !== 200);
    expect(failures).toEqual([]);
  });
});

describe('Razorpay subscriptions: a plan per artist and cycle, charged, halted and cancelled', () => {
  it('refuses a cycle outside 1m/3m/6m/12m with the exact SPEC message', async () => {
    const user = await fan();
    const refused = await http.post(
      `/api/subscriptions/artist/${ids.artist}`,
      { gateway: 'razorpay', cycle: '2m', amount: 499 },
      user,
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ message: 'Invalid subscription cycle. Use 1m, 3m, 6m, or 12m.' });
  });

  it('subscribes for 6 months on one plan per artist and cycle; subscription.charged extends to current_end', async () => {
    const first = await fan();
    const started = await subscribe(first, '6m', 2994);
    expect(await orderStatus(first, started.transactionId)).toBe('paid');
    expect(await http.stream(ids.subSong!, first)).toBe(200);
    const remote = (await direct.fetchSubscription(started.subscriptionId)) as unknown as {
      plan_id: string;
      current_end: number;
    };
    const local = await localSubscription(started.subscriptionId);
    expect(local.status).toBe('active');
    expect(local.currentPeriodEnd!.getTime()).toBe(remote.current_end * 1000);

    // A second subscriber on the same cycle reuses the plan.
    const second = await fan();
    const other = await subscribe(second, '6m', 2994);
    const otherRemote = (await direct.fetchSubscription(other.subscriptionId)) as unknown as {
      plan_id: string;
    };
    expect(otherRemote.plan_id).toBe(remote.plan_id);

    await g.emulator.clock.advance(184 * DAY_MS);
    await webhooksSettled(g.emulator, 'razorpay');
    const renewed = (await direct.fetchSubscription(started.subscriptionId)) as unknown as {
      current_end: number;
    };
    const after = await localSubscription(started.subscriptionId);
    expect(after.currentPeriodEnd!.getTime()).toBe(renewed.current_end * 1000);
    expect(after.currentPeriodEnd!.getTime()).toBeGreaterThan(local.currentPeriodEnd!.getTime());
    const renewals = await g.ctx.database.db
      .select()
      .from(orders)
      .where(and(eq(orders.subscriptionId, after.id), eq(orders.renewal, true)));
    expect(renewals).toMatchObject([{ status: 'paid', amount: 2994, gateway: 'razorpay' }]);
    expect(await http.stream(ids.subSong!, first)).toBe(200);
  });

  it('failed charges make it past due, halted ends access at the period end and not a day more', async () => {
    const user = await fan();
    const started = await subscribe(user);
    const local = await localSubscription(started.subscriptionId);
    const charge = (outcome: string) =>
      postJson(`${g.emulator.razorpay.url}/_emulator/subscriptions/${started.subscriptionId}/charge`, {
        outcome,
      });
    await charge('failed');
    await webhooksSettled(g.emulator, 'razorpay');
    expect((await localSubscription(started.subscriptionId)).status).toBe('past_due');
    expect(await http.stream(ids.subSong!, user)).toBe(200);
    for (let i = 0; i < 3; i += 1) await charge('failed');
    await webhooksSettled(g.emulator, 'razorpay');
    const halted = await localSubscription(started.subscriptionId);
    expect(halted.currentPeriodEnd).toEqual(local.currentPeriodEnd);
    expect(halted.status).not.toBe('active');
    const msLeft = local.currentPeriodEnd!.getTime() - g.emulator.clock.now().getTime();
    if (msLeft > 60_000) {
      await g.emulator.clock.advance(msLeft - 60_000);
      expect(await http.stream(ids.subSong!, user)).toBe(200);
    }
    await g.emulator.clock.advance(120_000);
    const refused = await g.ctx.app.inject({
      method: 'GET',
      url: `/api/stream/song/${ids.subSong}`,
      headers: user.headers,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ message: 'Subscribe to Asha Rao to play this song.' });
  });

  it('cancel stops it at the cycle end at Razorpay too; it plays until then', async () => {
    const user = await fan();
    const started = await subscribe(user);
    const cancelled = await http.del(`/api/subscriptions/artist/${ids.artist}`, user);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toEqual({ message: 'Subscription cancelled' });
    const remote = (await direct.fetchSubscription(started.subscriptionId)) as unknown as {
      status: string;
      current_end: number;
    };
    expect(remote.status).toBe('active');
    expect(await http.stream(ids.subSong!, user)).toBe(200);
    await g.emulator.clock.advance(remote.current_end * 1000 - g.emulator.clock.now().getTime() + 60_000);
    await webhooksSettled(g.emulator, 'razorpay');
    expect((await direct.fetchSubscription(started.subscriptionId)).status).toBe('cancelled');
    expect(await http.stream(ids.subSong!, user)).toBe(403);
  });
});

describe('Razorpay refunds and disputes revoke', () => {
  it('an admin refund goes through Razorpay, revokes the song and keeps a refund row', async () => {
    const user = await fan();
    const { transactionId, response } = await buy(user, 'song', ids.single!, 129);
    const refunded = await http.post(
      `/api/admin/orders/${transactionId}/refund`,
      { reason: 'Duplicate' },
      admin,
    );
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(await http.stream(ids.single!, user)).toBe(403);
    await webhooksSettled(g.emulator, 'razorpay');
    const remote = (await direct.fetchPayment(response.razorpay_payment_id!)) as unknown as {
      amount_refunded: number;
    };
    expect(remote.amount_refunded).toBe(129);
    expect(
      await g.ctx.database.db.select().from(refunds).where(eq(refunds.orderId, transactionId)),
    ).toHaveLength(1);
  });

  it('a refund made in Razorpay’s dashboard arrives as refund.processed and revokes', async () => {
    const user = await fan();
    const { transactionId, response } = await buy(user, 'album', ids.premium!, 1499);
    expect(await http.stream(ids.premiumTrack!, user)).toBe(200);
    await direct.refundPayment(response.razorpay_payment_id!, { amount: 1499 });
    await webhooksSettled(g.emulator, 'razorpay');
    expect(await orderStatus(user, transactionId)).toBe('refunded');
    expect(await http.stream(ids.premiumTrack!, user)).toBe(403);
  });

  it('a dispute takes the money back only when lost (Razorpay deducts it then): the order is disputed, the song stops', async () => {
    const user = await fan();
    const { transactionId, response } = await buy(user, 'song', ids.single!, 129);
    const opened = await postJson(
      `${g.emulator.razorpay.url}/_emulator/payments/${response.razorpay_payment_id}/dispute`,
      {},
    );
    await webhooksSettled(g.emulator, 'razorpay');
    // Open: nothing deducted yet (the dispute entity's amount_deducted is 0 until it is lost); the song still plays.
    expect(await orderStatus(user, transactionId)).toBe('paid');
    expect(await http.stream(ids.single!, user)).toBe(200);
    await postJson(`${g.emulator.razorpay.url}/_emulator/disputes/${String(opened.body!.id)}/close`, {
      outcome: 'lost',
    });
    await webhooksSettled(g.emulator, 'razorpay');
    expect(await orderStatus(user, transactionId)).toBe('disputed');
    expect(await http.stream(ids.single!, user)).toBe(403);
  });
});
