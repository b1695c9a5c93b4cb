import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, payments, purchases } from '../src/db/schema';
import { catalogFixtures } from './catalog-fixtures';
import { commerceCounts, commerceFixtures, requests, type TestUser } from './payments.fixtures';
import { createTestApp, type TestContext } from './test-app';

let ctx: TestContext;
let http: ReturnType<typeof requests>;
let owner: TestUser;
let buyer: TestUser;
let other: TestUser;
let admin: TestUser;
const ids: Record<string, string> = {};
const MISSING = '00000000-0000-4000-8000-000000000000';
const CREATE = '/api/payments/sandbox/create-order';
const orderUrl = (id: string) => `/api/payments/sandbox/orders/${id}`;
const confirmUrl = (id: string) => `${orderUrl(id)}/confirm`;

async function createOrder(user: TestUser, body: Record<string, unknown>) {
  const res = await http.post(CREATE, body, user);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ order: { _id: string; status: string }; checkoutUrl: string }>().order._id;
}

beforeAll(async () => {
  ctx = await createTestApp();
  http = requests(ctx);
  const f = catalogFixtures(ctx.database);
  const c = commerceFixtures(ctx);
  [owner, buyer, other, admin] = await Promise.all([
    f.user('artist'),
    f.user('user'),
    f.user('user'),
    f.user('admin'),
  ]);
  ids.artist = (await f.artist({ name: 'Nova Reyes', ownerUserId: owner.id })).id;
  const artistId = ids.artist;
  ids.album = await c.album({ artistId, title: 'Tidal', price: 999 });
  ids.premiumAlbum = await c.album({ artistId, title: 'Deep Water', price: 1499, isPremium: true });
  ids.freeAlbum = await c.album({ artistId, title: 'Free Tapes', price: 0 });
  ids.single = await c.song({ artistId, title: 'Low Tide', price: 129, accessType: 'purchase-only' });
  ids.albumTrack = await c.song({
    artistId,
    title: 'Undertow',
    price: 99,
    accessType: 'purchase-only',
    albumId: ids.album,
  });
  ids.premiumTrack = await c.song({
    artistId,
    title: 'Abyss',
    price: 99,
    accessType: 'purchase-only',
    albumId: ids.premiumAlbum,
  });
  ids.free = await c.song({ artistId, title: 'Gift', price: 0, accessType: 'purchase-only' });
  ids.subscriptionSong = await c.song({ artistId, title: 'Drift', price: 89, accessType: 'subscription' });
  ids.processing = await c.song({
    artistId,
    title: 'Unfinished',
    price: 99,
    accessType: 'purchase-only',
    status: 'processing',
  });
});
afterAll(() => ctx.close());

describe('sandbox create-order: refusals', () => {
  it('asks a guest to sign in (401) and writes nothing', async () => {
    const before = await commerceCounts(ctx);
    const res = await http.post(CREATE, { itemType: 'song', itemId: ids.single, amount: 129 });
    expect(res.statusCode).toBe(401);
    expect((await http.get(orderUrl(MISSING))).statusCode).toBe(401);
    expect((await http.post(confirmUrl(MISSING), { outcome: 'pay' })).statusCode).toBe(401);
    expect(await commerceCounts(ctx)).toEqual(before);
  });

  it.each([
    [{ itemId: MISSING, amount: 1 }, 'itemType'],
    [{ itemType: 'playlist', itemId: MISSING, amount: 1 }, 'itemType'],
    [{ itemType: 'song', itemId: 'not-an-id', amount: 1 }, 'itemId'],
    [{ itemType: 'song', itemId: MISSING }, 'amount'],
    [{ itemType: 'song', itemId: MISSING, amount: '1' }, 'amount'],
    [{ itemType: 'song', itemId: MISSING, amount: 1.5 }, 'amount'],
    [{ itemType: 'song', itemId: MISSING, amount: -1 }, 'amount'],
    [{ itemType: 'song', itemId: MISSING, amount: 1, currency: 'dollars' }, 'currency'],
  ])('refuses a malformed body %j (400 naming %s)', async (body, field) => {
    const res = await http.post(CREATE, body, buyer);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(res.json<{ message: string }>().message.startsWith(`${field}:`)).toBe(true);
  });

  it('answers 404 for an unknown song or album and for a song still processing', async () => {
    for (const [itemType, itemId, code] of [
      ['song', MISSING, 'SONG_NOT_FOUND'],
      ['album', MISSING, 'ALBUM_NOT_FOUND'],
      ['song', ids.processing, 'SONG_NOT_FOUND'],
      ['album', ids.single, 'ALBUM_NOT_FOUND'],
    ] as const) {
      const res = await http.post(CREATE, { itemType, itemId, amount: 99 }, buyer);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code });
    }
  });

  it('refuses an amount or currency that is not the current price (400 AMOUNT_MISMATCH) and writes nothing', async () => {
    const before = await commerceCounts(ctx);
    for (const body of [
      { itemType: 'song', itemId: ids.single, amount: 99 },
      { itemType: 'song', itemId: ids.single, amount: 129, currency: 'EUR' },
    ]) {
      const res = await http.post(CREATE, body, buyer);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        message: 'The price has changed: it is now $1.29',
        code: 'AMOUNT_MISMATCH',
      });
    }
    const album = await http.post(CREATE, { itemType: 'album', itemId: ids.album, amount: 1 }, buyer);
    expect(album.json()).toEqual({
      message: 'The price has changed: it is now $9.99',
      code: 'AMOUNT_MISMATCH',
    });
    expect(await commerceCounts(ctx)).toEqual(before);
  });

  it('refuses free items and songs sold only with their premium album (409 NOT_FOR_SALE)', async () => {
    const cases = [
      [{ itemType: 'song', itemId: ids.free, amount: 0 }, 'This song is not for sale'],
      [{ itemType: 'album', itemId: ids.freeAlbum, amount: 0 }, 'This album is not for sale'],
      [
        { itemType: 'song', itemId: ids.premiumTrack, amount: 99 },
        'This song is sold only with the album "Deep Water"',
      ],
    ] as const;
    for (const [body, message] of cases) {
      const res = await http.post(CREATE, body, buyer);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ message, code: 'NOT_FOR_SALE' });
    }
  });

  it("does not sell an artist's account its own music: songs, albums, subscription (409 ALREADY_OWNED)", async () => {
    const before = await commerceCounts(ctx);
    const message = 'You manage this artist: its music already plays for your account';
    for (const [url, body] of [
      [CREATE, { itemType: 'song', itemId: ids.single, amount: 129 }],
      [CREATE, { itemType: 'album', itemId: ids.album, amount: 999 }],
      [`/api/subscriptions/artist/${ids.artist}`, { gateway: 'sandbox', cycle: '1m' }],
    ] as const) {
      const res = await http.post(url, body, owner);
      expect(res.statusCode, url).toBe(409);
      expect(res.json()).toEqual({ message, code: 'ALREADY_OWNED' });
    }
    expect(await commerceCounts(ctx)).toEqual(before);
  });
});

describe('buying a song through the sandbox', () => {
  let orderId: string;

  it('is locked before paying', async () => {
    expect(await http.stream(ids.single!, buyer)).toBe(403);
    expect((await http.canPlay(ids.artist!, buyer))[ids.single!]).toBe(false);
  });

  it('writes a pending order priced from the catalogue, before any payment', async () => {
    const res = await http.post(
      CREATE,
      { itemType: 'song', itemId: ids.single, amount: 129, currency: 'usd' },
      buyer,
    );
    expect(res.statusCode).toBe(201);
    const body = res.json<{ order: { _id: string; createdAt: string }; checkoutUrl: string }>();
    orderId = body.order._id;
    expect(body).toEqual({
      order: {
        _id: orderId,
        itemType: 'song',
        itemId: ids.single,
        itemTitle: 'Low Tide',
        amount: 129,
        currency: 'USD',
        gateway: 'sandbox',
        status: 'pending',
        cycle: null,
        createdAt: body.order.createdAt,
      },
      checkoutUrl: `/checkout/sandbox/${orderId}`,
    });
    const [row] = await ctx.database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(row).toMatchObject({
      userId: buyer.id,
      artistId: ids.artist,
      songId: ids.single,
      status: 'pending',
    });
    expect(row!.externalId).toMatch(/^sbx_ord_[0-9a-f]{24}$/);
    expect(await ctx.database.db.select().from(payments).where(eq(payments.orderId, orderId))).toEqual([]);
  });

  it('shows the order to its buyer only (others 404, malformed id 400)', async () => {
    const mine = await http.get(orderUrl(orderId), buyer);
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({ order: { _id: orderId, status: 'pending' } });
    for (const user of [other, admin]) {
      const res = await http.get(orderUrl(orderId), user);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Order not found', code: 'ORDER_NOT_FOUND' });
    }
    expect((await http.get(orderUrl(MISSING), buyer)).statusCode).toBe(404);
    expect((await http.get(orderUrl('nope'), buyer)).statusCode).toBe(400);
  });

  it("refuses another user's confirmation (404) and a malformed outcome (400), writing nothing", async () => {
    const before = await commerceCounts(ctx);
    const res = await http.post(confirmUrl(orderId), { outcome: 'pay' }, other);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Order not found', code: 'ORDER_NOT_FOUND' });
    const bad = await http.post(confirmUrl(orderId), { outcome: 'maybe' }, buyer);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: "outcome: must be 'pay' or 'decline'", code: 'VALIDATION_ERROR' });
    expect((await http.post(confirmUrl('nope'), { outcome: 'pay' }, buyer)).statusCode).toBe(400);
    expect(await commerceCounts(ctx)).toEqual(before);
  });

  it('pays: one payment, the order paid, the song owned and playable at once', async () => {
    const before = await commerceCounts(ctx);
    const res = await http.post(confirmUrl(orderId), { outcome: 'pay' }, buyer);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Payment complete',
      order: { _id: orderId, status: 'paid' },
    });
    expect(await commerceCounts(ctx)).toEqual({
      ...before,
      payments: before.payments + 1,
      purchases: before.purchases + 1,
    });
    const [payment] = await ctx.database.db.select().from(payments).where(eq(payments.orderId, orderId));
    expect(payment).toMatchObject({ gateway: 'sandbox', amount: 129, currency: 'USD', status: 'succeeded' });
    const [purchase] = await ctx.database.db.select().from(purchases).where(eq(purchases.orderId, orderId));
    expect(purchase).toMatchObject({ userId: buyer.id, songId: ids.single, albumId: null });

    expect(await http.stream(ids.single!, buyer)).toBe(200);
    expect((await http.canPlay(ids.artist!, buyer))[ids.single!]).toBe(true);
    expect(await http.stream(ids.single!, other)).toBe(403);
    const me = await http.get('/api/users/me', buyer);
    expect(me.json()).toMatchObject({ purchasedSongs: [ids.single], purchaseHistory: [orderId] });
  });

  it('answers a replayed payment the same and grants nothing new; declining it now is refused (409)', async () => {
    const before = await commerceCounts(ctx);
    const first = await http.get(orderUrl(orderId), buyer);
    const replay = await http.post(confirmUrl(orderId), { outcome: 'pay' }, buyer);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({
      message: 'Payment complete',
      order: first.json<{ order: object }>().order,
    });
    const decline = await http.post(confirmUrl(orderId), { outcome: 'decline' }, buyer);
    expect(decline.statusCode).toBe(409);
    expect(decline.json()).toEqual({ message: 'This order is already paid', code: 'ORDER_ALREADY_DECIDED' });
    expect(await commerceCounts(ctx)).toEqual(before);
  });

  it('refuses buying the song again (409 ALREADY_OWNED)', async () => {
    const res = await http.post(CREATE, { itemType: 'song', itemId: ids.single, amount: 129 }, buyer);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'You already own this song', code: 'ALREADY_OWNED' });
  });

  it('sells a subscription song on its own: a purchase keeps it playable', async () => {
    expect(await http.stream(ids.subscriptionSong!, other)).toBe(403);
    const id = await createOrder(other, { itemType: 'song', itemId: ids.subscriptionSong, amount: 89 });
    expect((await http.post(confirmUrl(id), { outcome: 'pay' }, other)).statusCode).toBe(200);
    expect(await http.stream(ids.subscriptionSong!, other)).toBe(200);
  });

  it('pays one of two open orders of a song and cancels the other instead of charging twice', async () => {
    const [first, second] = [
      await createOrder(admin, { itemType: 'song', itemId: ids.single, amount: 129 }),
      await createOrder(admin, { itemType: 'song', itemId: ids.single, amount: 129 }),
    ];
    expect((await http.post(confirmUrl(first!), { outcome: 'pay' }, admin)).statusCode).toBe(200);
    const before = await commerceCounts(ctx);
    const res = await http.post(confirmUrl(second!), { outcome: 'pay' }, admin);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'You already own this item', code: 'ALREADY_OWNED' });
    expect(await commerceCounts(ctx)).toEqual(before);
    expect((await http.get(orderUrl(second!), admin)).json()).toMatchObject({
      order: { status: 'cancelled' },
    });
    expect((await http.post(confirmUrl(second!), { outcome: 'pay' }, admin)).statusCode).toBe(409);
  });
});

describe('buying an album through the sandbox', () => {
  it('unlocks its songs at once, and its songs are then owned', async () => {
    expect(await http.stream(ids.albumTrack!, buyer)).toBe(403);
    expect((await http.canPlay(ids.artist!, buyer))[ids.albumTrack!]).toBe(false);
    const orderId = await createOrder(buyer, { itemType: 'album', itemId: ids.album, amount: 999 });
    const res = await http.post(confirmUrl(orderId), { outcome: 'pay' }, buyer);
    expect(res.json()).toMatchObject({
      message: 'Payment complete',
      order: { itemType: 'album', itemId: ids.album, itemTitle: 'Tidal', amount: 999, status: 'paid' },
    });
    expect(await http.stream(ids.albumTrack!, buyer)).toBe(200);
    expect((await http.canPlay(ids.artist!, buyer))[ids.albumTrack!]).toBe(true);
    expect((await http.get('/api/users/me', buyer)).json()).toMatchObject({ purchasedAlbums: [ids.album] });

    for (const body of [
      { itemType: 'album', itemId: ids.album, amount: 999 },
      { itemType: 'song', itemId: ids.albumTrack, amount: 99 },
    ]) {
      const again = await http.post(CREATE, body, buyer);
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ code: 'ALREADY_OWNED' });
    }
  });

  it('declines: a failed payment, a failed order, nothing granted; replays change nothing, paying is refused', async () => {
    const orderId = await createOrder(other, { itemType: 'album', itemId: ids.premiumAlbum, amount: 1499 });
    const before = await commerceCounts(ctx);
    const res = await http.post(confirmUrl(orderId), { outcome: 'decline' }, other);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Payment declined',
      order: { _id: orderId, status: 'failed' },
    });
    expect(await commerceCounts(ctx)).toEqual({ ...before, payments: before.payments + 1 });
    const [payment] = await ctx.database.db.select().from(payments).where(eq(payments.orderId, orderId));
    expect(payment).toMatchObject({ status: 'failed', amount: 1499 });
    expect(await http.stream(ids.premiumTrack!, other)).toBe(403);

    const replay = await http.post(confirmUrl(orderId), { outcome: 'decline' }, other);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual(res.json());
    const pay = await http.post(confirmUrl(orderId), { outcome: 'pay' }, other);
    expect(pay.statusCode).toBe(409);
    expect(pay.json()).toEqual({ message: 'This order is already failed', code: 'ORDER_ALREADY_DECIDED' });
    expect(await commerceCounts(ctx)).toEqual({ ...before, payments: before.payments + 1 });
  });
});

describe('dashboards after sandbox payments', () => {
  it("count the paid orders in the artist's revenue and list them as transactions", async () => {
    const revenue = await http.get(`/api/admin/dashboard/revenue-summary/${ids.artist}`, owner);
    expect(revenue.statusCode).toBe(200);
    // Low Tide twice (buyer, admin), Drift once, Tidal once; the declined album counts nothing.
    expect(revenue.json()).toMatchObject({
      revenue: { songRevenue: 129 * 2 + 89, albumRevenue: 999, subscriptionRevenue: 0, currency: 'USD' },
    });

    const list = await http.get(`/api/admin/dashboard/transactions?artistId=${ids.artist}&limit=100`, owner);
    expect(list.statusCode).toBe(200);
    const transactions = list.json<{
      transactions: Array<{ itemTitle: string; status: string; gateway: string }>;
    }>().transactions;
    expect(
      transactions
        .filter((t) => t.status === 'paid')
        .map((t) => t.itemTitle)
        .sort(),
    ).toEqual(['Drift', 'Low Tide', 'Low Tide', 'Tidal']);
    expect(transactions.every((t) => t.gateway === 'sandbox')).toBe(true);
    expect(transactions.find((t) => t.itemTitle === 'Deep Water')).toMatchObject({ status: 'failed' });

    const sold = await http.get(`/api/admin/dashboard/purchased-songs/${ids.artist}`, owner);
    expect(sold.json()).toMatchObject({
      songs: [
        { _id: ids.single, purchases: 2, revenue: 258 },
        { _id: ids.subscriptionSong, revenue: 89 },
      ],
    });
  });

  it("lists the buyer's purchases and history on the user dashboard", async () => {
    const res = await http.get('/api/user/dashboard/purchases', buyer);
    const body = res.json<{
      songs: Array<{ _id: string }>;
      albums: Array<{ _id: string }>;
      history: unknown[];
    }>();
    expect(body.songs.map((s) => s._id)).toEqual([ids.single]);
    expect(body.albums.map((a) => a._id)).toEqual([ids.album]);
    expect(body.history).toHaveLength(2);
  });
});
