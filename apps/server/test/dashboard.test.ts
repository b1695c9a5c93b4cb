import type { Gateway, OrderStatus } from '@backbeat/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, payments, purchases, subscriptions } from '../src/db/schema';
import { catalogFixtures } from './catalog-fixtures';
import { createTestApp, type TestContext } from './test-app';

let ctx: TestContext;
let f: ReturnType<typeof catalogFixtures>;
type TestUser = Awaited<ReturnType<typeof f.user>>;
type UserKey =
  'listener' | 'buyer2' | 'buyer3' | 'fresh' | 'novaOwner' | 'otherOwner' | 'lonelyArtist' | 'admin';
const users = {} as Record<UserKey, TestUser>;
const ids: Record<string, string> = {};
const MISSING = '00000000-0000-4000-8000-000000000000';
const DAY = 86_400_000;
const at = (iso: string) => new Date(iso);

/** An order plus its gateway confirmations (payments), written straight to the tables. */
async function order(values: {
  userId: string | null;
  itemType: 'song' | 'album' | 'subscription';
  itemTitle: string;
  artistId: string;
  songId?: string;
  albumId?: string;
  cycle?: string;
  amount: number;
  currency?: string;
  gateway?: Gateway;
  status: OrderStatus;
  createdAt: Date;
  payments?: Array<{ status: string; amount?: number; currency?: string }>;
}): Promise<string> {
  const { payments: paid = [], currency = 'USD', gateway = 'sandbox', ...rest } = values;
  const [row] = await ctx.database.db
    .insert(orders)
    .values({ ...rest, currency, gateway, externalId: `ext-${Math.random()}`, updatedAt: values.createdAt })
    .returning({ id: orders.id });
  for (const payment of paid) {
    await ctx.database.db.insert(payments).values({
      orderId: row!.id,
      gateway,
      externalId: `pay-${Math.random()}`,
      amount: payment.amount ?? values.amount,
      currency: payment.currency ?? currency,
      status: payment.status,
      createdAt: values.createdAt,
    });
  }
  return row!.id;
}

async function subscription(
  userId: string,
  artistId: string,
  values: { status: 'pending' | 'active' | 'cancelled' | 'expired'; periodEnd: Date | null; createdAt: Date },
) {
  await ctx.database.db.insert(subscriptions).values({
    userId,
    artistId,
    status: values.status,
    cycle: '1m',
    gateway: 'stripe',
    currentPeriodEnd: values.periodEnd,
    createdAt: values.createdAt,
    updatedAt: values.createdAt,
  });
}

const get = (url: string, user: TestUser | null) =>
  ctx.app.inject({ method: 'GET', url, headers: user ? user.headers : {} });

const SONG_KEYS = [
  '_id',
  'accessType',
  'album',
  'artist',
  'audioUrl',
  'canDownload',
  'canPlay',
  'coverImage',
  'createdAt',
  'currency',
  'duration',
  'freeToStream',
  'genre',
  'previewStartSec',
  'price',
  'singer',
  'status',
  'title',
];
const ALBUM_KEYS = [
  '_id',
  'artist',
  'cover',
  'createdAt',
  'currency',
  'description',
  'genre',
  'isPremium',
  'price',
  'releaseDate',
  'songCount',
  'title',
];
const ORDER_KEYS = [
  '_id',
  'amount',
  'createdAt',
  'currency',
  'cycle',
  'gateway',
  'itemId',
  'itemTitle',
  'itemType',
  'status',
];
const keys = (value: object) => Object.keys(value).sort();

beforeAll(async () => {
  ctx = await createTestApp();
  f = catalogFixtures(ctx.database);
  users.listener = await f.user('user', 'Lena Listener');
  users.buyer2 = await f.user('user', 'Second Buyer');
  users.buyer3 = await f.user('user', 'Third Buyer');
  users.fresh = await f.user('user', 'Fresh Listener');
  users.novaOwner = await f.user('artist', 'Nova Account');
  users.otherOwner = await f.user('artist', 'Other Account');
  users.lonelyArtist = await f.user('artist', 'No Profile Yet');
  users.admin = await f.user('admin', 'Admin');

  const nova = await f.artist({ name: 'Nova Reyes', ownerUserId: users.novaOwner.id });
  const other = await f.artist({ name: 'Other Band', ownerUserId: users.otherOwner.id });
  const album = await f.album({ artistId: nova.id, title: 'Night Shift', isPremium: true, price: 999 });
  const one = await f.song({ artistId: nova.id, title: 'One', accessType: 'purchase-only', price: 199 });
  const two = await f.song({ artistId: nova.id, title: 'Two', accessType: 'subscription' });
  const three = await f.song({ artistId: nova.id, title: 'Three', albumId: album.id, trackNumber: 1 });
  const elsewhere = await f.song({ artistId: other.id, title: 'Elsewhere', accessType: 'purchase-only' });
  Object.assign(ids, {
    nova: nova.id,
    other: other.id,
    album: album.id,
    one: one.id,
    two: two.id,
    three: three.id,
    elsewhere: elsewhere.id,
  });

  const { listener, buyer2, buyer3 } = users;
  const ok = [{ status: 'succeeded' }];
  // The listener: song One and album Night Shift bought, a pending checkout, a declined one, a subscription.
  ids.oneOrder = await order({
    userId: listener.id,
    itemType: 'song',
    itemTitle: 'One',
    artistId: nova.id,
    songId: one.id,
    amount: 199,
    gateway: 'stripe',
    status: 'paid',
    createdAt: at('2024-03-01T10:00:00Z'),
    payments: ok,
  });
  ids.albumOrder = await order({
    userId: listener.id,
    itemType: 'album',
    itemTitle: 'Night Shift',
    artistId: nova.id,
    albumId: album.id,
    amount: 999,
    gateway: 'paypal',
    status: 'paid',
    createdAt: at('2024-03-02T10:00:00Z'),
    payments: ok,
  });
  ids.pendingOrder = await order({
    userId: listener.id,
    itemType: 'song',
    itemTitle: 'Two',
    artistId: nova.id,
    songId: two.id,
    amount: 199,
    gateway: 'razorpay',
    status: 'pending',
    createdAt: at('2024-03-03T10:00:00Z'),
  });
  ids.failedOrder = await order({
    userId: listener.id,
    itemType: 'album',
    itemTitle: 'Night Shift',
    artistId: nova.id,
    albumId: album.id,
    amount: 999,
    gateway: 'stripe',
    status: 'failed',
    createdAt: at('2024-03-04T10:00:00Z'),
    payments: [{ status: 'failed' }],
  });
  // A subscription order with its first payment and one renewal.
  ids.subscriptionOrder = await order({
    userId: listener.id,
    itemType: 'subscription',
    itemTitle: 'Nova Reyes',
    artistId: nova.id,
    cycle: '1m',
    amount: 499,
    gateway: 'stripe',
    status: 'paid',
    createdAt: at('2024-03-05T10:00:00Z'),
    payments: [{ status: 'succeeded' }, { status: 'succeeded' }],
  });
  ids.elsewhereOrder = await order({
    userId: listener.id,
    itemType: 'song',
    itemTitle: 'Elsewhere',
    artistId: other.id,
    songId: elsewhere.id,
    amount: 299,
    status: 'paid',
    createdAt: at('2024-03-06T10:00:00Z'),
    payments: ok,
  });
  await ctx.database.db.insert(purchases).values([
    { userId: listener.id, songId: one.id, orderId: ids.oneOrder, createdAt: at('2024-03-01T10:00:00Z') },
    {
      userId: listener.id,
      albumId: album.id,
      orderId: ids.albumOrder,
      createdAt: at('2024-03-02T10:00:00Z'),
    },
    {
      userId: listener.id,
      songId: elsewhere.id,
      orderId: ids.elsewhereOrder,
      createdAt: at('2024-03-06T10:00:00Z'),
    },
  ]);

  // Second buyer: song One, and a subscription cancelled but paid through next month.
  ids.buyer2Song = await order({
    userId: buyer2.id,
    itemType: 'song',
    itemTitle: 'One',
    artistId: nova.id,
    songId: one.id,
    amount: 199,
    status: 'paid',
    createdAt: at('2024-04-01T10:00:00Z'),
    payments: ok,
  });
  await f.purchase(buyer2.id, { songId: one.id });
  await order({
    userId: buyer2.id,
    itemType: 'subscription',
    itemTitle: 'Nova Reyes',
    artistId: nova.id,
    cycle: '3m',
    amount: 499,
    gateway: 'razorpay',
    status: 'paid',
    createdAt: at('2024-04-02T10:00:00Z'),
    payments: ok,
  });
  // Third buyer: the album paid in EUR (counted under EUR only), a refunded song, an expired subscription.
  await order({
    userId: buyer3.id,
    itemType: 'album',
    itemTitle: 'Night Shift',
    artistId: nova.id,
    albumId: album.id,
    amount: 500,
    currency: 'EUR',
    status: 'paid',
    createdAt: at('2024-05-01T10:00:00Z'),
    payments: ok,
  });
  await f.purchase(buyer3.id, { albumId: album.id });
  await order({
    userId: buyer3.id,
    itemType: 'song',
    itemTitle: 'One',
    artistId: nova.id,
    songId: one.id,
    amount: 199,
    status: 'refunded',
    createdAt: at('2024-05-02T10:00:00Z'),
    payments: [{ status: 'refunded' }],
  });
  // A buyer who deleted their account: the anonymised sale still counts as revenue.
  ids.anonymousOrder = await order({
    userId: null,
    itemType: 'song',
    itemTitle: 'One',
    artistId: nova.id,
    songId: one.id,
    amount: 199,
    status: 'paid',
    createdAt: at('2024-05-03T10:00:00Z'),
    payments: ok,
  });

  const now = Date.now();
  // Listener: an old expired subscription (superseded) and the current active one.
  await subscription(listener.id, nova.id, {
    status: 'expired',
    periodEnd: new Date(now - 60 * DAY),
    createdAt: at('2023-01-01T00:00:00Z'),
  });
  await subscription(listener.id, nova.id, {
    status: 'active',
    periodEnd: new Date(now + 20 * DAY),
    createdAt: at('2024-03-05T10:00:00Z'),
  });
  await subscription(buyer2.id, nova.id, {
    status: 'cancelled',
    periodEnd: new Date(now + 40 * DAY),
    createdAt: at('2024-04-02T10:00:00Z'),
  });
  // "active" in the table but the period ended (a renewal never came): no longer a subscriber.
  await subscription(buyer3.id, nova.id, {
    status: 'active',
    periodEnd: new Date(now - DAY),
    createdAt: at('2024-05-04T10:00:00Z'),
  });
  // A checkout that never completed: neither listed nor counted.
  await subscription(buyer3.id, other.id, {
    status: 'pending',
    periodEnd: null,
    createdAt: at('2024-05-05T10:00:00Z'),
  });
});
afterAll(() => ctx.close());

// ---------------------------------------------------------------------------------------------------------------

describe('GET /api/user/dashboard/purchases', () => {
  it('lists bought songs and albums as the catalogue shows them, and every order newest first', async () => {
    const res = await get('/api/user/dashboard/purchases', users.listener);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(keys(body)).toEqual(['albums', 'history', 'songs']);

    expect(body.songs.map((s: { title: string }) => s.title)).toEqual(['Elsewhere', 'One']);
    for (const song of body.songs) {
      expect(keys(song)).toEqual(SONG_KEYS);
      expect(song.canPlay).toBe(true);
    }
    expect(body.albums).toHaveLength(1);
    expect(keys(body.albums[0])).toEqual(ALBUM_KEYS);
    expect(body.albums[0]).toMatchObject({ _id: ids.album, title: 'Night Shift', price: 999 });

    expect(body.history.map((h: { _id: string }) => h._id)).toEqual([
      ids.elsewhereOrder,
      ids.subscriptionOrder,
      ids.failedOrder,
      ids.pendingOrder,
      ids.albumOrder,
      ids.oneOrder,
    ]);
    for (const entry of body.history) expect(keys(entry)).toEqual(ORDER_KEYS);
    expect(body.history[1]).toEqual({
      _id: ids.subscriptionOrder,
      itemType: 'subscription',
      itemId: ids.nova,
      itemTitle: 'Nova Reyes',
      cycle: '1m',
      amount: 499,
      currency: 'USD',
      gateway: 'stripe',
      status: 'paid',
      createdAt: '2024-03-05T10:00:00.000Z',
    });
    expect(body.history[4]).toMatchObject({ itemType: 'album', itemId: ids.album, gateway: 'paypal' });
    expect(body.history[3]).toMatchObject({ itemType: 'song', itemId: ids.two, status: 'pending' });
  });

  it('answers empty lists for an account that bought nothing', async () => {
    const res = await get('/api/user/dashboard/purchases', users.fresh);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ songs: [], albums: [], history: [] });
  });

  it("never shows another user's orders", async () => {
    const body = (await get('/api/user/dashboard/purchases', users.buyer2)).json();
    expect(body.songs.map((s: { title: string }) => s.title)).toEqual(['One']);
    expect(body.history).toHaveLength(2);
    expect(body.history.map((h: { itemType: string }) => h.itemType)).toEqual(['subscription', 'song']);
  });

  it('answers 401 to a guest', async () => {
    const res = await get('/api/user/dashboard/purchases', null);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      message: 'Authentication token missing. Please login.',
      code: 'UNAUTHENTICATED',
    });
  });
});

describe('GET /api/user/dashboard/subscriptions', () => {
  it("lists the user's latest subscription to each artist with its artist and price", async () => {
    const res = await get('/api/user/dashboard/subscriptions', users.listener);
    expect(res.statusCode).toBe(200);
    const { subscriptions: list } = res.json();
    expect(list).toHaveLength(1);
    expect(keys(list[0])).toEqual([
      '_id',
      'artist',
      'cancelAtPeriodEnd',
      'createdAt',
      'currency',
      'currentPeriodEnd',
      'cycle',
      'gateway',
      'price',
      'status',
    ]);
    expect(list[0]).toMatchObject({
      artist: { _id: ids.nova, name: 'Nova Reyes', image: null },
      status: 'active',
      cycle: '1m',
      cancelAtPeriodEnd: false,
      price: 499,
      currency: 'USD',
    });
    expect(new Date(list[0].currentPeriodEnd).getTime()).toBeGreaterThan(Date.now());
  });

  it('marks a cancelled subscription still paid through as ending with its period', async () => {
    const { subscriptions: list } = (await get('/api/user/dashboard/subscriptions', users.buyer2)).json();
    expect(list).toMatchObject([{ status: 'cancelled', cancelAtPeriodEnd: true }]);
  });

  it('reads an active subscription whose period ended as expired, and leaves out pending checkouts', async () => {
    const { subscriptions: list } = (await get('/api/user/dashboard/subscriptions', users.buyer3)).json();
    expect(list).toMatchObject([{ artist: { _id: ids.nova }, status: 'expired', cancelAtPeriodEnd: false }]);
  });

  it('answers an empty list, and 401 to a guest', async () => {
    expect((await get('/api/user/dashboard/subscriptions', users.fresh)).json()).toEqual({
      subscriptions: [],
    });
    expect((await get('/api/user/dashboard/subscriptions', null)).statusCode).toBe(401);
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe('GET /api/admin/dashboard/transactions', () => {
  const url = '/api/admin/dashboard/transactions';

  it('gives admins every order, newest first, with buyer (e-mail included), artist and pagination', async () => {
    const res = await get(`${url}?limit=5`, users.admin);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(keys(body)).toEqual(['pagination', 'transactions']);
    expect(body.pagination).toEqual({ page: 1, limit: 5, total: 11, totalPages: 3, totalCapped: false });
    expect(body.transactions).toHaveLength(5);
    expect(keys(body.transactions[0])).toEqual([...ORDER_KEYS, 'artist', 'user'].sort());
    expect(body.transactions[0]).toMatchObject({ _id: ids.anonymousOrder, user: null, amount: 199 });
    const buyer = body.transactions.find((t: { status: string }) => t.status === 'refunded');
    expect(buyer.user).toMatchObject({ _id: users.buyer3.id, name: 'Third Buyer' });
    expect(buyer.user.email).toMatch(/@example\.test$/);
    expect(buyer.artist).toEqual({ _id: ids.nova, name: 'Nova Reyes' });

    const last = (await get(`${url}?limit=5&page=3`, users.admin)).json();
    expect(last.transactions.map((t: { _id: string }) => t._id)).toEqual([ids.oneOrder]);
  });

  it("gives an artist account only its own artist's orders, without buyers' e-mail", async () => {
    const body = (await get(url, users.novaOwner)).json();
    expect(body.pagination.total).toBe(10);
    expect(body.transactions.every((t: { artist: { _id: string } }) => t.artist._id === ids.nova)).toBe(true);
    for (const t of body.transactions) if (t.user) expect(keys(t.user)).toEqual(['_id', 'name']);

    const other = (await get(url, users.otherOwner)).json();
    expect(other.transactions.map((t: { _id: string }) => t._id)).toEqual([ids.elsewhereOrder]);
    expect((await get(`${url}?artistId=${ids.nova}`, users.novaOwner)).json().pagination.total).toBe(10);
  });

  it('answers an empty page to an artist account that owns no artist yet', async () => {
    const res = await get(url, users.lonelyArtist);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      transactions: [],
      pagination: { page: 1, limit: 20, total: 0, totalPages: 0, totalCapped: false },
    });
  });

  it('filters by status, gateway, artist and an inclusive date range', async () => {
    const ofAdmin = async (query: string) =>
      (await get(`${url}?${query}`, users.admin)).json().transactions.map((t: { _id: string }) => t._id);
    expect(await ofAdmin('status=pending')).toEqual([ids.pendingOrder]);
    expect(await ofAdmin('gateway=paypal')).toEqual([ids.albumOrder]);
    expect(await ofAdmin(`artistId=${ids.other}`)).toEqual([ids.elsewhereOrder]);
    expect(await ofAdmin('from=2024-03-02&to=2024-03-04')).toEqual([
      ids.failedOrder,
      ids.pendingOrder,
      ids.albumOrder,
    ]);
    expect(await ofAdmin('from=2024-03-02T10:00:01Z&to=2024-03-04T10:00:00%2B00:00')).toEqual([
      ids.failedOrder,
      ids.pendingOrder,
    ]);
    expect(await ofAdmin('status=paid&gateway=stripe&to=2024-03-31')).toEqual([
      ids.subscriptionOrder,
      ids.oneOrder,
    ]);
  });

  it.each([
    ['status=bogus', 'status'],
    ['gateway=cash', 'gateway'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['page=abc', 'page'],
    ['from=yesterday', 'from'],
    ['to=2024-13-45', 'to'],
    ['from=2024-05-02&to=2024-05-01', 'from'],
    ['artistId=not-a-uuid', 'artistId'],
  ])('answers 400 to %s', async (query, field) => {
    const res = await get(`${url}?${query}`, users.admin);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(keys(body)).toEqual(['code', 'message']);
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(body.message).toContain(field);
  });

  it("refuses another artist's orders (403) and an unknown artist (404)", async () => {
    const mine = await get(`${url}?artistId=${ids.other}`, users.novaOwner);
    expect(mine.statusCode).toBe(403);
    expect(mine.json()).toEqual({
      message: "You can only view your own artist's dashboard",
      code: 'NOT_YOUR_ARTIST',
    });
    const missing = await get(`${url}?artistId=${MISSING}`, users.admin);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Artist not found', code: 'ARTIST_NOT_FOUND' });
  });
});

describe('per-artist dashboard', () => {
  const paths = ['purchased-songs', 'purchased-albums', 'subscriber-count', 'revenue-summary'];

  it('purchased-songs: owners and succeeded revenue per song, highest revenue first', async () => {
    const res = await get(`/api/admin/dashboard/purchased-songs/${ids.nova}`, users.novaOwner);
    expect(res.statusCode).toBe(200);
    // One: bought by two accounts and by a deleted one (3 x 199); the refund is not revenue.
    expect(res.json()).toEqual({
      songs: [{ _id: ids.one, title: 'One', coverImage: null, purchases: 2, revenue: 597, currency: 'USD' }],
    });
    const other = (await get(`/api/admin/dashboard/purchased-songs/${ids.other}`, users.admin)).json();
    expect(other.songs).toMatchObject([{ _id: ids.elsewhere, purchases: 1, revenue: 299 }]);
  });

  it("purchased-albums: owners and revenue in the album's currency", async () => {
    const res = await get(`/api/admin/dashboard/purchased-albums/${ids.nova}`, users.admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      albums: [
        { _id: ids.album, title: 'Night Shift', cover: null, purchases: 2, revenue: 999, currency: 'USD' },
      ],
    });
    expect((await get(`/api/admin/dashboard/purchased-albums/${ids.other}`, users.admin)).json()).toEqual({
      albums: [],
    });
  });

  it('subscriber-count: active or cancelled-but-paid-through subscribers and subscription revenue', async () => {
    const res = await get(`/api/admin/dashboard/subscriber-count/${ids.nova}`, users.novaOwner);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ activeSubscribers: 2, totalRevenue: 3 * 499, currency: 'USD' });
    expect((await get(`/api/admin/dashboard/subscriber-count/${ids.other}`, users.admin)).json()).toEqual({
      activeSubscribers: 0,
      totalRevenue: 0,
      currency: 'USD',
    });
  });

  it('revenue-summary: succeeded payments by kind, in the artist currency and per currency', async () => {
    const res = await get(`/api/admin/dashboard/revenue-summary/${ids.nova}`, users.admin);
    expect(res.statusCode).toBe(200);
    const usd = {
      songRevenue: 3 * 199,
      albumRevenue: 999,
      subscriptionRevenue: 3 * 499,
      totalRevenue: 3 * 199 + 999 + 3 * 499,
      currency: 'USD',
    };
    const eur = {
      songRevenue: 0,
      albumRevenue: 500,
      subscriptionRevenue: 0,
      totalRevenue: 500,
      currency: 'EUR',
    };
    const body = res.json();
    expect(keys(body)).toEqual(['revenue']);
    expect(body.revenue).toEqual({ ...usd, byCurrency: [usd, eur] });

    const other = (await get(`/api/admin/dashboard/revenue-summary/${ids.other}`, users.otherOwner)).json();
    expect(other.revenue).toMatchObject({
      songRevenue: 299,
      totalRevenue: 299,
      byCurrency: [{ currency: 'USD' }],
    });
  });

  it.each(paths)('%s answers 401 to a guest, even with a bad id', async (path) => {
    for (const id of [ids.nova, 'nope']) {
      const res = await get(`/api/admin/dashboard/${path}/${id}`, null);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        message: 'Authentication token missing. Please login.',
        code: 'UNAUTHENTICATED',
      });
    }
  });

  it.each(paths)('%s answers 403 to a listener and to the owner of another artist', async (path) => {
    const listener = await get(`/api/admin/dashboard/${path}/${ids.nova}`, users.listener);
    expect(listener.statusCode).toBe(403);
    expect(listener.json()).toEqual({
      message: 'You do not have permission to do this',
      code: 'FORBIDDEN_ROLE',
    });
    for (const artist of [users.otherOwner, users.lonelyArtist]) {
      const res = await get(`/api/admin/dashboard/${path}/${ids.nova}`, artist);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('NOT_YOUR_ARTIST');
    }
  });

  it.each(paths)('%s answers 404 to an unknown artist and 400 to a malformed id', async (path) => {
    const missing = await get(`/api/admin/dashboard/${path}/${MISSING}`, users.admin);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Artist not found', code: 'ARTIST_NOT_FOUND' });
    const bad = await get(`/api/admin/dashboard/${path}/not-a-uuid`, users.novaOwner);
    expect(bad.statusCode).toBe(400);
    expect(keys(bad.json())).toEqual(['code', 'message']);
  });

  it('listener also gets 403 on transactions', async () => {
    const res = await get('/api/admin/dashboard/transactions', users.listener);
    expect(res.statusCode).toBe(403);
    expect((await get('/api/admin/dashboard/transactions?limit=0', null)).statusCode).toBe(401);
  });
});

describe('OpenAPI', () => {
  it('documents every dashboard route from the contract schemas', async () => {
    const doc = (await get('/api/openapi.json', null)).json<{ paths: Record<string, unknown> }>();
    for (const path of [
      '/api/user/dashboard/purchases',
      '/api/user/dashboard/subscriptions',
      '/api/admin/dashboard/transactions',
      '/api/admin/dashboard/purchased-songs/{artistId}',
      '/api/admin/dashboard/purchased-albums/{artistId}',
      '/api/admin/dashboard/subscriber-count/{artistId}',
      '/api/admin/dashboard/revenue-summary/{artistId}',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
  });
});
