import { and, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, purchases, refunds, subscriptions } from '../src/db/schema';
import { MemoryMailer } from './auth-helpers';
import { catalogFixtures, multipartForm } from './catalog-fixtures';
import { commerceCounts, commerceFixtures, requests, type TestUser } from './payments.fixtures';
import { createTestApp, type TestContext } from './test-app';

/**
 * Entitlements owned by the access module and moved by the payment ledger: a purchase is forever (until refunded),
 * refunds revoke exactly what their order granted, receipts go out for payments and refunds, the buyer's history
 * lists all of it.
 */
let ctx: TestContext;
let http: ReturnType<typeof requests>;
let mailer: MemoryMailer;
let owner: TestUser;
let admin: TestUser;
const ids: Record<string, string> = {};
const MISSING = '00000000-0000-4000-8000-000000000000';

async function buy(user: TestUser, itemType: 'song' | 'album', itemId: string, amount: number) {
  const created = await http.post('/api/payments/sandbox/create-order', { itemType, itemId, amount }, user);
  expect(created.statusCode, created.body).toBe(201);
  const orderId = created.json<{ order: { _id: string } }>().order._id;
  const paid = await http.post(`/api/payments/sandbox/orders/${orderId}/confirm`, { outcome: 'pay' }, user);
  expect(paid.statusCode, paid.body).toBe(200);
  return orderId;
}

async function subscribe(user: TestUser, artistId: string) {
  const created = await http.post(`/api/subscriptions/artist/${artistId}`, { gateway: 'sandbox' }, user);
  expect(created.statusCode, created.body).toBe(201);
  const orderId = created.json<{ transactionId: string }>().transactionId;
  const paid = await http.post(`/api/payments/sandbox/orders/${orderId}/confirm`, { outcome: 'pay' }, user);
  expect(paid.statusCode, paid.body).toBe(200);
  return orderId;
}

const refund = (orderId: string, user: TestUser, body: Record<string, unknown> = {}) =>
  http.post(`/api/admin/orders/${orderId}/refund`, body, user);

const editAlbum = (albumId: string, fields: Record<string, string | string[]>) =>
  ctx.app.inject({
    method: 'PUT',
    url: `/api/albums/${albumId}`,
    headers: owner.headers,
    payload: multipartForm(fields),
  });

beforeAll(async () => {
  mailer = new MemoryMailer();
  ctx = await createTestApp({ services: { mailer } });
  http = requests(ctx);
  const f = catalogFixtures(ctx.database);
  const c = commerceFixtures(ctx);
  [owner, admin] = await Promise.all([f.user('artist'), f.user('admin')]);
  ids.artist = (await f.artist({ name: 'Lumen Drive', ownerUserId: owner.id })).id;
  const artistId = ids.artist;
  ids.album = await c.album({ artistId, title: 'Night Bus', price: 900 });
  ids.trackA = await c.song({
    artistId,
    title: 'Stop A',
    price: 99,
    accessType: 'purchase-only',
    albumId: ids.album,
  });
  ids.trackB = await c.song({
    artistId,
    title: 'Stop B',
    price: 99,
    accessType: 'purchase-only',
    albumId: ids.album,
  });
  ids.single = await c.song({ artistId, title: 'Single', price: 129, accessType: 'purchase-only' });
  ids.albumForPremium = await c.album({ artistId, title: 'Later Premium', price: 1200 });
  ids.earlyBought = await c.song({
    artistId,
    title: 'Early Bird',
    price: 99,
    accessType: 'purchase-only',
    albumId: ids.albumForPremium,
  });
  ids.subSong = await c.song({ artistId, title: 'Members Only', price: 0, accessType: 'subscription' });
});
afterAll(() => ctx.close());

describe('a purchase is forever', () => {
  it('a song bought before its album turned premium still plays; others need the album', async () => {
    const fan = await catalogFixtures(ctx.database).user('user');
    const stranger = await catalogFixtures(ctx.database).user('user');
    await buy(fan, 'song', ids.earlyBought!, 99);
    const premium = await editAlbum(ids.albumForPremium!, { isPremium: 'true' });
    expect(premium.statusCode, premium.body).toBe(200);
    expect(await http.stream(ids.earlyBought!, fan)).toBe(200);
    expect((await http.canPlay(ids.artist!, fan))[ids.earlyBought!]).toBe(true);
    expect(await http.stream(ids.earlyBought!, stranger)).toBe(403);
  });

  it("an album's tracks stay the buyer's when they leave the album and when the album is deleted", async () => {
    const fan = await catalogFixtures(ctx.database).user('user');
    const albumId = await commerceFixtures(ctx).album({
      artistId: ids.artist!,
      title: 'Short Lived',
      price: 500,
    });
    const c = commerceFixtures(ctx);
    const keep = await c.song({
      artistId: ids.artist!,
      title: 'Leaves',
      price: 99,
      accessType: 'purchase-only',
      albumId,
    });
    const stays = await c.song({
      artistId: ids.artist!,
      title: 'Stays',
      price: 99,
      accessType: 'subscription',
      albumId,
    });
    await buy(fan, 'album', albumId, 500);
    expect(await http.stream(keep, fan)).toBe(200);

    // The track leaves the album: the album's songs list no longer holds it.
    const moved = await editAlbum(albumId, { songs: [stays] });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await http.stream(keep, fan)).toBe(200);

    const deleted = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/albums/${albumId}`,
      headers: owner.headers,
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json().buyers).toBe(1);
    expect(await http.stream(keep, fan)).toBe(200);
    expect(await http.stream(stays, fan)).toBe(200);
    // The track that left shows among the songs the fan owns; the other with the (deleted) album it was on.
    const mine = (await http.get('/api/user/dashboard/purchases', fan)).json<{
      songs: Array<{ _id: string }>;
      albums: Array<{ _id: string; removed?: boolean }>;
    }>();
    expect(mine.songs.map((s) => s._id)).toEqual([keep]);
    expect(mine.albums).toEqual([expect.objectContaining({ _id: albumId, removed: true })]);
    const tracks = await http.get(`/api/songs/album/${albumId}`, fan);
    expect(tracks.json<Array<{ _id: string }>>().map((s) => s._id)).toEqual([stays]);
  });
  it('a deleted album stays refundable: the refund takes back the tracks it granted, in lists too', async () => {
    const fan = await catalogFixtures(ctx.database).user('user');
    const stranger = await catalogFixtures(ctx.database).user('user');
    const c = commerceFixtures(ctx);
    const albumId = await c.album({ artistId: ids.artist!, title: 'Pressed Once', price: 700 });
    const track = await c.song({
      artistId: ids.artist!,
      title: 'Only Pressing',
      price: 99,
      accessType: 'purchase-only',
      albumId,
    });
    const orderId = await buy(fan, 'album', albumId, 700);
    const deleted = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/albums/${albumId}`,
      headers: owner.headers,
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await http.stream(track, fan)).toBe(200);
    expect((await http.canPlay(ids.artist!, fan))[track]).toBe(true);
    expect(await http.stream(track, stranger)).toBe(403);
    expect((await http.canPlay(ids.artist!, stranger))[track]).toBe(false);

    const refunded = await refund(orderId, admin);
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(await http.stream(track, fan)).toBe(403);
    expect((await http.canPlay(ids.artist!, fan))[track]).toBe(false);
  });
});

describe('admin refunds (through the sandbox gateway)', () => {
  it('refunds a song: the order is refunded, the song stops playing at once, a refund row and receipt exist', async () => {
    const fan = await catalogFixtures(ctx.database).user('user');
    const orderId = await buy(fan, 'song', ids.single!, 129);
    await ctx.app.services.jobs.drain();
    const receipt = mailer.sent.find((m) => m.to === fan.email && m.subject === 'Your receipt: Single');
    expect(receipt?.text).toContain('$1.29');
    expect(await http.stream(ids.single!, fan)).toBe(200);

    const res = await refund(orderId, admin, { reason: 'Asked by the buyer' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Order refunded',
      order: { _id: orderId, status: 'refunded' },
    });
    expect(await http.stream(ids.single!, fan)).toBe(403);
    expect((await http.canPlay(ids.artist!, fan))[ids.single!]).toBe(false);
    const [row] = await ctx.database.db.select().from(refunds).where(eq(refunds.orderId, orderId));
    expect(row).toMatchObject({ kind: 'refund', amount: 129, currency: 'USD', reason: 'Asked by the buyer' });
    const [purchase] = await ctx.database.db.select().from(purchases).where(eq(purchases.orderId, orderId));
    expect(purchase?.revokedAt).toBeInstanceOf(Date);

    await ctx.app.services.jobs.drain();
    const refundMail = mailer.sent.find((m) => m.to === fan.email && m.subject === 'Refund: Single');
    expect(refundMail?.text).toContain('$1.29 was refunded for Single');

    const history = await http.get('/api/payments/history', fan);
    expect(history.statusCode).toBe(200);
    expect(history.json()).toMatchObject({
      history: [
        {
          _id: orderId,
          status: 'refunded',
          itemTitle: 'Single',
          refunds: [{ kind: 'refund', amount: 129, currency: 'USD' }],
        },
      ],
    });

    // Bought again after the refund: the entitlement comes back with the new order.
    const again = await buy(fan, 'song', ids.single!, 129);
    expect(await http.stream(ids.single!, fan)).toBe(200);
    const [restored] = await ctx.database.db.select().from(purchases).where(eq(purchases.orderId, again));
    expect(restored?.revokedAt).toBeNull();
  });

  it('refunds an album: the album and every track it granted stop playing; a song bought alone stays', async () => {
    const fan = await catalogFixtures(ctx.database).user('user');
    await buy(fan, 'song', ids.trackA!, 99);
    const albumOrder = await buy(fan, 'album', ids.album!, 900);
    expect(await http.stream(ids.trackB!, fan)).toBe(200);
    expect((await refund(albumOrder, admin)).statusCode).toBe(200);
    expect(await http.stream(ids.trackB!, fan)).toBe(403);
    expect(await http.stream(ids.trackA!, fan)).toBe(200);
    const mine = (await http.get('/api/user/dashboard/purchases', fan)).json<{ albums: unknown[] }>();
    expect(mine.albums).toEqual([]);
  });

  it('refunds a subscription: its songs stop playing at once and it is revoked', async () => {
    const fan = await catalogFixtures(ctx.database).user('user');
    const orderId = await subscribe(fan, ids.artist!);
    expect(await http.stream(ids.subSong!, fan)).toBe(200);
    expect((await refund(orderId, admin)).statusCode).toBe(200);
    expect(await http.stream(ids.subSong!, fan)).toBe(403);
    const [row] = await ctx.database.db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, fan.id), isNotNull(subscriptions.endedAt)));
    expect(row).toMatchObject({ status: 'revoked' });
    const listed = await http.get('/api/user/dashboard/subscriptions', fan);
    expect(listed.json()).toMatchObject({ subscriptions: [{ status: 'revoked' }] });
  });

  it('refuses listeners and artists (403), guests (401), unknown orders (404), unpaid or refunded orders (409)', async () => {
    const fan = await catalogFixtures(ctx.database).user('user');
    const orderId = await buy(fan, 'song', ids.trackB!, 99);
    const before = await commerceCounts(ctx);
    expect((await refund(orderId, fan)).statusCode).toBe(403);
    expect((await refund(orderId, owner)).statusCode).toBe(403);
    expect((await http.post(`/api/admin/orders/${orderId}/refund`, {})).statusCode).toBe(401);
    expect((await refund(MISSING, admin)).json()).toEqual({
      message: 'Order not found',
      code: 'ORDER_NOT_FOUND',
    });
    expect((await refund('not-a-uuid', admin)).statusCode).toBe(400);
    expect((await refund(orderId, admin, { reason: 'x'.repeat(501) })).statusCode).toBe(400);
    expect(await commerceCounts(ctx)).toEqual(before);

    expect((await refund(orderId, admin)).statusCode).toBe(200);
    const twice = await refund(orderId, admin);
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toEqual({
      message: 'Only a paid order can be refunded (this one is refunded)',
      code: 'NOT_REFUNDABLE',
    });
    const created = await http.post(
      '/api/payments/sandbox/create-order',
      { itemType: 'song', itemId: ids.single!, amount: 129 },
      fan,
    );
    const pending = created.json<{ order: { _id: string } }>().order._id;
    expect((await refund(pending, admin)).json()).toMatchObject({ code: 'NOT_REFUNDABLE' });
  });
});

describe('orders, gateways and limits', () => {
  it('lists the configured gateways (the sandbox here, as a demo)', async () => {
    const res = await http.get('/api/payments/gateways');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      currency: 'USD',
      gateways: [
        {
          name: 'sandbox',
          label: 'Demo checkout',
          mode: 'demo',
          publishableKey: null,
          scriptUrl: null,
          subscriptions: true,
          minimumAmount: 0,
        },
      ],
    });
  });

  it("shows the buyer their own order by id, and nobody else's", async () => {
    const fan = await catalogFixtures(ctx.database).user('user');
    const stranger = await catalogFixtures(ctx.database).user('user');
    const orderId = await buy(fan, 'song', ids.trackB!, 99);
    expect((await http.get(`/api/payments/orders/${orderId}`, fan)).json()).toMatchObject({
      order: { _id: orderId, status: 'paid', gateway: 'sandbox' },
    });
    expect((await http.get(`/api/payments/orders/${orderId}`, stranger)).statusCode).toBe(404);
    expect((await http.get(`/api/payments/orders/${orderId}`)).statusCode).toBe(401);
  });

  it('refuses more than 60 new orders an hour from one account (429), writing nothing', async () => {
    const fan = await catalogFixtures(ctx.database).user('user');
    const [{ id: userId }] = [fan];
    await ctx.database.db.insert(orders).values(
      Array.from({ length: 60 }, () => ({
        userId,
        itemType: 'song' as const,
        songId: ids.trackB!,
        artistId: ids.artist!,
        itemTitle: 'Stop B',
        amount: 99,
        currency: 'USD',
        gateway: 'sandbox' as const,
        status: 'cancelled' as const,
      })),
    );
    const before = await commerceCounts(ctx);
    const res = await http.post(
      '/api/payments/sandbox/create-order',
      { itemType: 'song', itemId: ids.trackB!, amount: 99 },
      fan,
    );
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ code: 'TOO_MANY_ORDERS' });
    expect(await commerceCounts(ctx)).toEqual(before);
  });
});
