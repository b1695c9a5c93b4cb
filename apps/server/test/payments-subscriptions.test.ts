import { addMonths } from '@backbeat/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artists, subscriptions } from '../src/db/schema';
import { catalogFixtures } from './catalog-fixtures';
import { commerceCounts, commerceFixtures, requests, type TestUser } from './payments.fixtures';
import { createTestApp, type TestContext } from './test-app';

let ctx: TestContext;
let http: ReturnType<typeof requests>;
let owner: TestUser;
let fan: TestUser;
let lapsed: TestUser;
let stranger: TestUser;
const ids: Record<string, string> = {};
const MISSING = '00000000-0000-4000-8000-000000000000';
const DAY = 86_400_000;
const subscribeUrl = (artistId: string) => `/api/subscriptions/artist/${artistId}`;
const confirmUrl = (id: string) => `/api/payments/sandbox/orders/${id}/confirm`;

async function subscriptionRows(userId: string) {
  return ctx.database.db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), eq(subscriptions.artistId, ids.artist!)));
}

/** Orders a subscription and pays it; answers the paid period's bounds as seen around the confirmation. */
async function subscribeAndPay(user: TestUser, body: Record<string, unknown>) {
  const res = await http.post(subscribeUrl(ids.artist!), body, user);
  expect(res.statusCode, res.body).toBe(201);
  const orderId = res.json<{ order: { _id: string } }>().order._id;
  const before = new Date();
  const paid = await http.post(confirmUrl(orderId), { outcome: 'pay' }, user);
  expect(paid.statusCode, paid.body).toBe(200);
  return { orderId, before, after: new Date() };
}

beforeAll(async () => {
  ctx = await createTestApp();
  http = requests(ctx);
  const f = catalogFixtures(ctx.database);
  const c = commerceFixtures(ctx);
  [owner, fan, lapsed, stranger] = await Promise.all([f.user('artist'), f.user(), f.user(), f.user()]);
  ids.artist = (await f.artist({ name: 'Echo Park', ownerUserId: owner.id })).id;
  ids.freeArtist = (await f.artist({ name: 'Open Source' })).id;
  await ctx.database.db.update(artists).set({ subscriptionPrice: 0 }).where(eq(artists.id, ids.freeArtist));
  ids.song = await c.song({ artistId: ids.artist, title: 'Night Bus', price: 0, accessType: 'subscription' });
  await f.subscribe(lapsed.id, ids.artist, new Date(Date.now() - DAY));
});
afterAll(() => ctx.close());

describe('POST /api/subscriptions/artist/:id: refusals', () => {
  it('asks a guest to sign in (401)', async () => {
    expect((await http.post(subscribeUrl(ids.artist!), { gateway: 'sandbox' })).statusCode).toBe(401);
    expect((await http.del(subscribeUrl(ids.artist!))).statusCode).toBe(401);
  });

  it.each([
    [{}, 'gateway: '],
    [{ gateway: 'bitcoin' }, 'gateway: '],
    [{ gateway: 'sandbox', amount: 4.99 }, 'amount: '],
  ])('refuses a malformed body %j (400)', async (body, message) => {
    const res = await http.post(subscribeUrl(ids.artist!), body, fan);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(res.json<{ message: string }>().message.startsWith(message)).toBe(true);
  });

  it.each(['2m', '1y', '', '12M'])(
    'refuses the cycle %j with exactly the SPEC message, writing nothing',
    async (cycle) => {
      const before = await commerceCounts(ctx);
      const res = await http.post(subscribeUrl(ids.artist!), { gateway: 'sandbox', cycle }, fan);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        message: 'Invalid subscription cycle. Use 1m, 3m, 6m, or 12m.',
        code: 'INVALID_CYCLE',
      });
      expect(await commerceCounts(ctx)).toEqual(before);
    },
  );

  it('refuses a malformed id (400), an unknown artist (404), a stale price (400), a free artist (409)', async () => {
    const before = await commerceCounts(ctx);
    expect((await http.post(subscribeUrl('nope'), { gateway: 'sandbox' }, fan)).statusCode).toBe(400);
    const unknown = await http.post(subscribeUrl(MISSING), { gateway: 'sandbox' }, fan);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Artist not found', code: 'ARTIST_NOT_FOUND' });
    const stale = await http.post(
      subscribeUrl(ids.artist!),
      { gateway: 'sandbox', cycle: '3m', amount: 499 },
      fan,
    );
    expect(stale.statusCode).toBe(400);
    expect(stale.json()).toEqual({
      message: 'The price has changed: it is now $14.97',
      code: 'AMOUNT_MISMATCH',
    });
    const free = await http.post(subscribeUrl(ids.freeArtist!), { gateway: 'sandbox' }, fan);
    expect(free.statusCode).toBe(409);
    expect(free.json()).toMatchObject({ code: 'NOT_FOR_SALE' });
    expect(await commerceCounts(ctx)).toEqual(before);
  });

  it('answers 503 GATEWAY_UNAVAILABLE for a gateway that is not configured', async () => {
    const res = await http.post(subscribeUrl(ids.artist!), { gateway: 'stripe' }, fan);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ message: 'Stripe payments are not available', code: 'GATEWAY_UNAVAILABLE' });
  });
});

describe('subscribing through the sandbox', () => {
  it('orders one month at the artist price', async () => {
    expect(await http.stream(ids.song!, fan)).toBe(403);
    expect((await http.canPlay(ids.artist!, fan))[ids.song!]).toBe(false);
    const res = await http.post(subscribeUrl(ids.artist!), { gateway: 'sandbox', amount: 499 }, fan);
    expect(res.statusCode).toBe(201);
    const body = res.json<{ order: { _id: string; createdAt: string }; checkoutUrl: string }>();
    expect(body).toEqual({
      transactionId: body.order._id,
      gateway: 'sandbox',
      cycle: '1m',
      order: {
        _id: body.order._id,
        itemType: 'subscription',
        itemId: ids.artist,
        itemTitle: 'Echo Park · monthly subscription',
        amount: 499,
        currency: 'USD',
        gateway: 'sandbox',
        status: 'pending',
        cycle: '1m',
        createdAt: body.order.createdAt,
      },
      checkoutUrl: `/checkout/sandbox/${body.order._id}`,
    });
    expect(await subscriptionRows(fan.id)).toEqual([]);
    expect(await http.stream(ids.song!, fan)).toBe(403);
  });

  it('pays: an active subscription for one month, playable at once; a replay extends nothing', async () => {
    const res = await http.post(subscribeUrl(ids.artist!), { gateway: 'sandbox' }, fan);
    const orderId = res.json<{ order: { _id: string } }>().order._id;
    const before = new Date();
    const paid = await http.post(confirmUrl(orderId), { outcome: 'pay' }, fan);
    const after = new Date();
    expect(paid.json()).toMatchObject({
      message: 'Payment complete',
      order: { status: 'paid', cycle: '1m' },
    });
    const [row, ...rest] = await subscriptionRows(fan.id);
    expect(rest).toEqual([]);
    expect(row).toMatchObject({ status: 'active', cycle: '1m', gateway: 'sandbox', cancelledAt: null });
    expect(row!.currentPeriodEnd!.getTime()).toBeGreaterThanOrEqual(addMonths(before, 1).getTime());
    expect(row!.currentPeriodEnd!.getTime()).toBeLessThanOrEqual(addMonths(after, 1).getTime());
    expect(await http.stream(ids.song!, fan)).toBe(200);
    expect((await http.canPlay(ids.artist!, fan))[ids.song!]).toBe(true);

    const counts = await commerceCounts(ctx);
    expect((await http.post(confirmUrl(orderId), { outcome: 'pay' }, fan)).json()).toEqual(paid.json());
    expect(await commerceCounts(ctx)).toEqual(counts);
    expect((await subscriptionRows(fan.id))[0]!.currentPeriodEnd).toEqual(row!.currentPeriodEnd);
  });

  it('refuses a second subscription while one is active (409 ALREADY_OWNED)', async () => {
    const res = await http.post(subscribeUrl(ids.artist!), { gateway: 'sandbox' }, fan);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'You are already subscribed to Echo Park', code: 'ALREADY_OWNED' });
  });

  it('cancels: still playable until the period ends; cancelling again or without a subscription is 404', async () => {
    const res = await http.del(subscribeUrl(ids.artist!), fan);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Subscription cancelled' });
    const [row] = await subscriptionRows(fan.id);
    expect(row!.status).toBe('cancelled');
    expect(row!.cancelledAt).toBeInstanceOf(Date);
    expect(await http.stream(ids.song!, fan)).toBe(200);
    expect((await http.canPlay(ids.artist!, fan))[ids.song!]).toBe(true);

    for (const [user, artistId] of [
      [fan, ids.artist],
      [stranger, ids.artist],
      [lapsed, ids.artist],
    ] as const) {
      const again = await http.del(subscribeUrl(artistId!), user);
      expect(again.statusCode).toBe(404);
      expect(again.json()).toEqual({
        message: 'You are not subscribed to this artist',
        code: 'NOT_SUBSCRIBED',
      });
    }
    const unknown = await http.del(subscribeUrl(MISSING), fan);
    expect(unknown.json()).toEqual({ message: 'Artist not found', code: 'ARTIST_NOT_FOUND' });
    expect((await http.del(subscribeUrl('nope'), fan)).statusCode).toBe(400);
  });

  it('resubscribing while paid through extends the same subscription from its end', async () => {
    const [cancelled] = await subscriptionRows(fan.id);
    const counts = await commerceCounts(ctx);
    await subscribeAndPay(fan, { gateway: 'sandbox', cycle: '3m', amount: 1497 });
    const rows = await subscriptionRows(fan.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: cancelled!.id, status: 'active', cycle: '3m', cancelledAt: null });
    expect(rows[0]!.currentPeriodEnd).toEqual(addMonths(cancelled!.currentPeriodEnd!, 3));
    expect(await commerceCounts(ctx)).toEqual({
      ...counts,
      orders: counts.orders + 1,
      payments: counts.payments + 1,
    });
  });

  it('a lapsed subscriber starts a new period from now', async () => {
    expect(await http.stream(ids.song!, lapsed)).toBe(403);
    const { before, after } = await subscribeAndPay(lapsed, { gateway: 'sandbox' });
    const rows = await subscriptionRows(lapsed.id);
    expect(rows).toHaveLength(2);
    const fresh = rows.find((row) => row.status === 'active' && row.currentPeriodEnd! > after)!;
    expect(fresh.currentPeriodEnd!.getTime()).toBeGreaterThanOrEqual(addMonths(before, 1).getTime());
    expect(fresh.currentPeriodEnd!.getTime()).toBeLessThanOrEqual(addMonths(after, 1).getTime());
    expect(await http.stream(ids.song!, lapsed)).toBe(200);
  });

  it("another user cannot pay someone's subscription order", async () => {
    const res = await http.post(subscribeUrl(ids.artist!), { gateway: 'sandbox' }, stranger);
    const orderId = res.json<{ order: { _id: string } }>().order._id;
    const counts = await commerceCounts(ctx);
    expect((await http.post(confirmUrl(orderId), { outcome: 'pay' }, fan)).statusCode).toBe(404);
    expect(await commerceCounts(ctx)).toEqual(counts);
    expect(await http.stream(ids.song!, stranger)).toBe(403);
  });

  it('shows the subscribers and subscription revenue on the dashboards', async () => {
    const stats = await http.get(`/api/admin/dashboard/subscriber-count/${ids.artist}`, owner);
    expect(stats.json()).toEqual({ activeSubscribers: 2, totalRevenue: 499 + 1497 + 499, currency: 'USD' });
    const revenue = await http.get(`/api/admin/dashboard/revenue-summary/${ids.artist}`, owner);
    expect(revenue.json()).toMatchObject({ revenue: { subscriptionRevenue: 2495, totalRevenue: 2495 } });
    const mine = await http.get('/api/user/dashboard/subscriptions', fan);
    expect(mine.json()).toMatchObject({
      subscriptions: [
        { artist: { _id: ids.artist }, status: 'active', cycle: '3m', cancelAtPeriodEnd: false },
      ],
    });
  });
});

describe('with the sandbox disabled by config', () => {
  let off: TestContext;
  beforeAll(async () => {
    off = await createTestApp({ env: { PAYMENTS_SANDBOX: 'false' } });
  });
  afterAll(() => off.close());

  it('answers 503 GATEWAY_UNAVAILABLE on every sandbox call and writes nothing', async () => {
    const user = await catalogFixtures(off.database).user();
    const artist = await catalogFixtures(off.database).artist({ name: 'Muted' });
    const calls = [
      {
        method: 'POST',
        url: '/api/payments/sandbox/create-order',
        payload: { itemType: 'song', itemId: MISSING, amount: 1 },
      },
      { method: 'GET', url: `/api/payments/sandbox/orders/${MISSING}` },
      { method: 'POST', url: confirmUrl(MISSING), payload: { outcome: 'pay' } },
      { method: 'POST', url: subscribeUrl(artist.id), payload: { gateway: 'sandbox' } },
    ] as const;
    for (const call of calls) {
      const res = await off.app.inject({ ...call, headers: user.headers });
      expect(res.statusCode, call.url).toBe(503);
      expect(res.json()).toEqual({
        message: 'Sandbox payments are not available',
        code: 'GATEWAY_UNAVAILABLE',
      });
    }
    expect(await commerceCounts(off)).toEqual({ orders: 0, payments: 0, purchases: 0, subscriptions: 0 });
  });
});
