import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, paymentEvents, payments, purchases, refunds, subscriptions } from '../src/db/schema';
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
const ids: Record<string, string> = {};

const fan = () => catalogFixtures(g.ctx.database).user('user');
const control = (path: string, body: Record<string, unknown> = {}) =>
  postJson(`${g.emulator.paypal.url}/_emulator${path}`, body);

async function createOrder(user: TestUser, itemType: 'song' | 'album', itemId: string, amount: number) {
  const created = await http.post('/api/payments/paypal/create-order', { itemType, itemId, amount }, user);
  expect(created.statusCode, created.body).toBe(200);
  return created.json<{ id: string; links: Array<{ rel: string; href: string }>; transactionId: string }>();
}

/** The buttons' flow: createOrder, the buyer approves in PayPal's window, onApprove captures on the server. */
async function buy(user: TestUser, itemType: 'song' | 'album', itemId: string, amount: number) {
  const order = await createOrder(user, itemType, itemId, amount);
  expect(order.links.some((link) => link.rel === 'approve' || link.rel === 'payer-action')).toBe(true);
  expect((await control(`/orders/${order.id}/approve`)).status).toBe(200);
  const captured = await http.post('/api/payments/paypal/capture-order', { orderId: order.id }, user);
  expect(captured.statusCode, captured.body).toBe(200);
  const body = captured.json<{ data: Record<string, unknown>; order: { status: string }; message: string }>();
  const units = body.data.purchase_units as Array<{ payments: { captures: Array<{ id: string }> } }>;
  await webhooksSettled(g.emulator, 'paypal');
  return { ...order, captured: body, captureId: units[0]!.payments.captures[0]!.id };
}

async function subscribe(user: TestUser, cycle: '1m' | '3m' | '6m' | '12m' = '1m', amount = 499) {
  const created = await http.post(
    `/api/subscriptions/artist/${ids.artist}`,
    { gateway: 'paypal', cycle, amount },
    user,
  );
  expect(created.statusCode, created.body).toBe(201);
  const body = created.json<{ subscriptionId: string; transactionId: string; approveUrl?: string }>();
  expect(body.approveUrl).toContain(body.subscriptionId);
  expect((await control(`/approve/subscription/${body.subscriptionId}`)).status).toBe(200);
  const confirmed = await http.post(
    '/api/payments/paypal/confirm-subscription',
    { subscriptionId: body.subscriptionId },
    user,
  );
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  await webhooksSettled(g.emulator, 'paypal');
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
    .where(and(eq(subscriptions.gateway, 'paypal'), eq(subscriptions.externalId, externalId)));
  return row!;
}

beforeAll(async () => {
  g = await gatewayTestApp();
  http = requests(g.ctx);
  const f = catalogFixtures(g.ctx.database);
  const c = commerceFixtures(g.ctx);
  const owner = await f.user('artist');
  admin = await f.user('admin');
  ids.artist = (await f.artist({ name: 'Lena Fox', ownerUserId: owner.id })).id;
  const artistId = ids.artist;
  ids.single = await c.song({ artistId, title: 'Paper Boats', price: 129, accessType: 'purchase-only' });
  ids.premium = await c.album({ artistId, title: 'Harbour', price: 1499, isPremium: true });
  ids.premiumTrack = await c.song({
    artistId,
    title: 'Lighthouse',
    price: 99,
    accessType: 'purchase-only',
    albumId: ids.premium,
  });
  ids.subSong = await c.song({ artistId, title: 'Undertow', price: 0, accessType: 'subscription' });
});
afterAll(async () => {
  await webhooksSettled(g.emulator, 'paypal').catch(() => undefined);
  await g.close();
});

describe('PayPal purchases: Orders v2 through the official SDK -> capture -> entitlement', () => {
  it('buys a song: captured at our amount, the song plays, one payment, a receipt', async () => {
    const user = await fan();
    expect(await http.stream(ids.single!, user)).toBe(403);
    const { transactionId, captured } = await buy(user, 'song', ids.single!, 129);
    expect(captured).toMatchObject({ order: { status: 'paid' }, data: { status: 'COMPLETED' } });
    expect(await http.stream(ids.single!, user)).toBe(200);
    const db = g.ctx.database.db;
    expect(await db.select().from(payments).where(eq(payments.orderId, transactionId))).toMatchObject([
      { gateway: 'paypal', status: 'succeeded', amount: 129, currency: 'USD' },
    ]);
    await g.ctx.app.services.jobs.drain();
    expect(g.mailer.sent.some((m) => m.subject === 'Your receipt: Paper Boats')).toBe(true);
  });

  it('buys a premium album: its tracks play; capturing twice settles once', async () => {
    const user = await fan();
    const { transactionId, id } = await buy(user, 'album', ids.premium!, 1499);
    expect(await http.stream(ids.premiumTrack!, user)).toBe(200);
    const again = await http.post('/api/payments/paypal/capture-order', { orderId: id }, user);
    expect(again.statusCode, again.body).toBe(200);
    expect(
      await g.ctx.database.db.select().from(payments).where(eq(payments.orderId, transactionId)),
    ).toHaveLength(1);
  });

  it('a capture of a different amount settles nothing (409) and grants nothing', async () => {
    const user = await fan();
    const order = await createOrder(user, 'song', ids.single!, 129);
    await control(`/orders/${order.id}/approve`, { capture_amount: '0.01' });
    const captured = await http.post('/api/payments/paypal/capture-order', { orderId: order.id }, user);
    expect(captured.statusCode).toBe(409);
    expect(captured.json()).toMatchObject({ code: 'AMOUNT_MISMATCH' });
    await webhooksSettled(g.emulator, 'paypal');
    expect(await orderStatus(user, order.transactionId)).not.toBe('paid');
    expect(await http.stream(ids.single!, user)).toBe(403);
    expect(
      await g.ctx.database.db.select().from(purchases).where(eq(purchases.orderId, order.transactionId)),
    ).toHaveLength(0);
  });

  it('a declined instrument fails the order with PayPal’s message (402)', async () => {
    const user = await fan();
    const order = await createOrder(user, 'song', ids.single!, 129);
    await control(`/orders/${order.id}/approve`, { buyer: 'declined' });
    const captured = await http.post('/api/payments/paypal/capture-order', { orderId: order.id }, user);
    expect(captured.statusCode).toBe(402);
    expect(captured.json<{ message: string }>().message).toMatch(/declined/);
    expect(await orderStatus(user, order.transactionId)).toBe('failed');
  });

  it('an order not approved yet is 409; another user’s order is 404; a wrong currency is 400', async () => {
    const user = await fan();
    const order = await createOrder(user, 'song', ids.single!, 129);
    const early = await http.post('/api/payments/paypal/capture-order', { orderId: order.id }, user);
    expect(early.statusCode).toBe(409);
    const stranger = await http.post(
      '/api/payments/paypal/capture-order',
      { orderId: order.id },
      await fan(),
    );
    expect(stranger.statusCode).toBe(404);
    await webhooksSettled(g.emulator, 'paypal');
    const before = await paymentCounts(g.ctx);
    const euros = await http.post(
      '/api/payments/paypal/create-order',
      { itemType: 'song', itemId: ids.single!, amount: 129, currency: 'EUR' },
      user,
    );
    expect(euros.statusCode).toBe(400);
    expect(await paymentCounts(g.ctx)).toEqual(before);
  });
});

describe('PayPal webhooks: verified through verify-webhook-signature, idempotent', () => {
  it('the same PAYMENT.CAPTURE.COMPLETED 50 times in parallel grants once; a forged one is 400 and writes nothing', async () => {
    const user = await fan();
    const order = await createOrder(user, 'song', ids.single!, 129);
    await webhooksSettled(g.emulator, 'paypal');
    g.emulator.setWebhookUrl('paypal', undefined);
    // The buyer approved and PayPal captured, but the tab closed before onApprove reached the server.
    await control(`/orders/${order.id}/approve`);
    // PayPal captures on its side (e.g. the buyer's second tab): an OAuth token, then the capture call.
    const token = await fetch(`${g.emulator.paypal.url}/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${g.credentials.paypal.clientId}:${g.credentials.paypal.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    }).then((r) => r.json() as Promise<{ access_token: string }>);
    const capture = await fetch(`${g.emulator.paypal.url}/v2/checkout/orders/${order.id}/capture`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(capture.status).toBe(201);
    await webhooksSettled(g.emulator, 'paypal');
    g.emulator.setWebhookUrl('paypal', `${g.baseUrl}/api/payments/paypal/webhook`);
    expect(await orderStatus(user, order.transactionId)).toBe('pending');
    const completed = g.emulator.events('paypal').findLast((e) => e.type === 'PAYMENT.CAPTURE.COMPLETED')!;
    const event = g.emulator.signedEvent(completed.eventId)!;
    const url = `${g.baseUrl}/api/payments/paypal/webhook`;

    const before = await paymentCounts(g.ctx);
    const forged = await postJson(url, event.body, {
      ...event.headers,
      'paypal-transmission-sig': Buffer.from('forged').toString('base64'),
    });
    expect(forged.status).toBe(400);
    expect(forged.body).toMatchObject({ code: 'INVALID_SIGNATURE' });
    const tampered = await postJson(url, event.body.replace('"COMPLETED"', '"PENDING"'), event.headers);
    expect(tampered.status).toBe(400);
    expect(await paymentCounts(g.ctx)).toEqual(before);

    const answers = await Promise.all(
      Array.from({ length: 50 }, () => postJson(url, event.body, event.headers)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    const db = g.ctx.database.db;
    expect(await db.select().from(payments).where(eq(payments.orderId, order.transactionId))).toHaveLength(1);
    expect(await db.select().from(purchases).where(eq(purchases.orderId, order.transactionId))).toHaveLength(
      1,
    );
    expect(
      await db
        .select()
        .from(paymentEvents)
        .where(and(eq(paymentEvents.gateway, 'paypal'), eq(paymentEvents.eventId, completed.eventId))),
    ).toMatchObject([{ status: 'processed', orderId: order.transactionId }]);
    expect(await http.stream(ids.single!, user)).toBe(200);
  });
});

describe('PayPal subscriptions: a billing plan per artist and cycle, billed, suspended and cancelled', () => {
  it('subscribes for 12 months; the next sale extends to next_billing_time', async () => {
    const user = await fan();
    const started = await subscribe(user, '12m', 5988);
    expect(await orderStatus(user, started.transactionId)).toBe('paid');
    expect(await http.stream(ids.subSong!, user)).toBe(200);
    const local = await localSubscription(started.subscriptionId);
    expect(local.status).toBe('active');
    await g.emulator.clock.advance(366 * DAY_MS);
    await webhooksSettled(g.emulator, 'paypal');
    const after = await localSubscription(started.subscriptionId);
    expect(after.currentPeriodEnd!.getTime()).toBeGreaterThan(local.currentPeriodEnd!.getTime());
    const renewals = await g.ctx.database.db
      .select()
      .from(orders)
      .where(and(eq(orders.subscriptionId, after.id), eq(orders.renewal, true)));
    expect(renewals).toMatchObject([{ status: 'paid', amount: 5988, gateway: 'paypal' }]);
    expect(await http.stream(ids.subSong!, user)).toBe(200);
  });

  it('a failed bill makes it past due; cancelled at PayPal, it plays to the period end and not a day more', async () => {
    const user = await fan();
    const started = await subscribe(user);
    const local = await localSubscription(started.subscriptionId);
    await control(`/subscriptions/${started.subscriptionId}/bill`, { outcome: 'failed' });
    await webhooksSettled(g.emulator, 'paypal');
    expect((await localSubscription(started.subscriptionId)).status).toBe('past_due');
    expect(await http.stream(ids.subSong!, user)).toBe(200);
    await control(`/subscriptions/${started.subscriptionId}/cancel`);
    await webhooksSettled(g.emulator, 'paypal');
    const ended = await localSubscription(started.subscriptionId);
    expect(ended.currentPeriodEnd).toEqual(local.currentPeriodEnd);
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
    expect(refused.json()).toMatchObject({ message: 'Subscribe to Lena Fox to play this song.' });
  });

  it('cancel keeps access until the period end and cancels at PayPal', async () => {
    const user = await fan();
    const started = await subscribe(user);
    const cancelled = await http.del(`/api/subscriptions/artist/${ids.artist}`, user);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toEqual({ message: 'Subscription cancelled' });
    await webhooksSettled(g.emulator, 'paypal');
    expect(await http.stream(ids.subSong!, user)).toBe(200);
    const local = await localSubscription(started.subscriptionId);
    expect(local.cancelAtPeriodEnd).toBe(true);
    await g.emulator.clock.advance(
      local.currentPeriodEnd!.getTime() - g.emulator.clock.now().getTime() + 60_000,
    );
    await webhooksSettled(g.emulator, 'paypal');
    expect(await http.stream(ids.subSong!, user)).toBe(403);
  });
});

describe('PayPal refunds and disputes revoke', () => {
  it('an admin refund goes through PayPal, revokes and keeps a refund row', async () => {
    const user = await fan();
    const { transactionId } = await buy(user, 'song', ids.single!, 129);
    const refunded = await http.post(`/api/admin/orders/${transactionId}/refund`, {}, admin);
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(await http.stream(ids.single!, user)).toBe(403);
    await webhooksSettled(g.emulator, 'paypal');
    expect(
      await g.ctx.database.db.select().from(refunds).where(eq(refunds.orderId, transactionId)),
    ).toHaveLength(1);
  });

  it('a refund made in PayPal arrives as PAYMENT.CAPTURE.REFUNDED and revokes', async () => {
    const user = await fan();
    const { transactionId, captureId } = await buy(user, 'album', ids.premium!, 1499);
    await control(`/captures/${captureId}/refund`);
    await webhooksSettled(g.emulator, 'paypal');
    expect(await orderStatus(user, transactionId)).toBe('refunded');
    expect(await http.stream(ids.premiumTrack!, user)).toBe(403);
  });

  it('a dispute revokes and marks the order disputed', async () => {
    const user = await fan();
    const { transactionId, captureId } = await buy(user, 'song', ids.single!, 129);
    await control(`/transactions/${captureId}/dispute`);
    await webhooksSettled(g.emulator, 'paypal');
    expect(await orderStatus(user, transactionId)).toBe('disputed');
    expect(await http.stream(ids.single!, user)).toBe(403);
  });
});
