import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { albums, orders, plays as playRows, purchases, songs, subscriptions } from '../src/db/schema';
import { MEDIA_CLEANUP_JOB } from '../src/modules/renditions/media-cleanup.job';
import { titleSearchText } from '../src/modules/catalog/search-text';
import { catalogFixtures } from './catalog-fixtures';
import { commerceFixtures, requests, type TestUser } from './payments.fixtures';
import { catalogCaches, createTestApp, type TestContext } from './test-app';

/**
 * A purchase is forever: deleting a sold song or album takes it out of the catalogue, search and lists, and never
 * sells it again, but its buyers keep playing and downloading it (subscribers until the end of the period they had
 * paid for), with their orders as they were. An unsold one is deleted as before.
 */
let ctx: TestContext;
let http: ReturnType<typeof requests>;
let f: ReturnType<typeof catalogFixtures>;
let c: ReturnType<typeof commerceFixtures>;
let now = Date.parse('2025-06-02T12:00:00Z');
const DAY = 24 * 3600 * 1000;
let owner: TestUser;
let admin: TestUser;
let otherArtist: TestUser;
let artistId: string;
const ARTIST = 'Forever Band';

beforeAll(async () => {
  ctx = await createTestApp({ services: { clock: () => new Date(now) } });
  http = requests(ctx);
  f = catalogFixtures(ctx.database);
  c = commerceFixtures(ctx);
  owner = await f.user('artist', 'Forever Owner');
  otherArtist = await f.user('artist', 'Someone Else');
  admin = await f.user('admin', 'Admin');
  artistId = (await f.artist({ name: ARTIST, ownerUserId: owner.id })).id;
  await f.artist({ name: 'Other Band', ownerUserId: otherArtist.id });
});
afterAll(() => ctx.close());

const listener = () => f.user('user');

/** A ready, searchable song with a key and fallback file in the media store. */
async function song(
  title: string,
  values: { accessType?: 'subscription' | 'purchase-only'; albumId?: string } = {},
) {
  const id = await c.song({
    artistId,
    title,
    price: 129,
    accessType: values.accessType ?? 'purchase-only',
    ...(values.albumId && { albumId: values.albumId }),
  });
  await ctx.database.db
    .update(songs)
    .set({ searchText: titleSearchText(title, ARTIST) })
    .where(eq(songs.id, id));
  const dir = path.join(ctx.config.mediaDir, `songs/${id}/v1`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'enc.key'), randomBytes(16));
  writeFileSync(path.join(dir, 'audio.m4a'), randomBytes(1024));
  writeFileSync(path.join(dir, 'index.m3u8'), '#EXTM3U\n');
  catalogCaches.get(ctx.database)?.invalidate();
  return id;
}

async function album(title: string, trackIds: string[]) {
  const id = await c.album({ artistId, title, price: 999, isPremium: true });
  await ctx.database.db
    .update(albums)
    .set({
      searchText: titleSearchText(title, ARTIST),
      cover: `images/album/${id.replaceAll('-', '')}/cover-640.webp`,
    })
    .where(eq(albums.id, id));
  const res = await ctx.app.inject({
    method: 'PUT',
    url: `/api/albums/${id}`,
    headers: owner.headers,
    payload: { songs: trackIds },
  });
  expect(res.statusCode, res.body).toBe(200);
  return id;
}

/** Buys through the demo gateway: an order, a verified confirmation, the entitlement (and a receipt). */
async function buy(user: TestUser, itemType: 'song' | 'album', itemId: string, amount: number) {
  const created = await http.post('/api/payments/sandbox/create-order', { itemType, itemId, amount }, user);
  expect(created.statusCode, created.body).toBe(201);
  const orderId = created.json<{ order: { _id: string } }>().order._id;
  const paid = await http.post(`/api/payments/sandbox/orders/${orderId}/confirm`, { outcome: 'pay' }, user);
  expect(paid.statusCode, paid.body).toBe(200);
  return orderId;
}

const del = (url: string, user: TestUser = owner) =>
  ctx.app.inject({ method: 'DELETE', url, headers: user.headers });
const ids = (list: Array<{ _id: string }>) => list.map((item) => item._id);
const tokenOf = (url: string) => new URL(url, 'http://x').searchParams.get('token')!;

/** Whether the user can play the song: its stream address, then its key. */
async function plays(user: TestUser, songId: string): Promise<number> {
  const stream = await http.get(`/api/stream/song/${songId}`, user);
  if (stream.statusCode !== 200) return stream.statusCode;
  return (await http.get(`/api/stream/hls/${songId}/key?token=${tokenOf(stream.json().url)}`, user))
    .statusCode;
}

/** Every public list a song could show in, for this viewer. */
async function catalogueSongIds(user: TestUser, title: string): Promise<string[]> {
  const lists = await Promise.all([
    http.get('/api/songs?limit=100', user),
    http.get(`/api/songs/artist/${artistId}?limit=100`, user),
    http.get(`/api/search?q=${encodeURIComponent(title)}`, user),
  ]);
  return lists.flatMap((res) => ids(res.json().songs));
}

describe('a sold song', () => {
  it('leaves the catalogue and is never sold again, but plays and stays in Purchases for its buyer', async () => {
    const buyer = await listener();
    const stranger = await listener();
    const songId = await song('Evergreen Tune');
    const orderId = await buy(buyer, 'song', songId, 129);
    expect((await http.get(`/api/songs/${songId}/buyers`, owner)).json()).toEqual({ buyers: 1 });
    expect((await http.get(`/api/songs/${songId}/buyers`, otherArtist)).statusCode).toBe(403);

    const res = await del(`/api/songs/${songId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message:
        'Song deleted successfully. 1 buyer keeps it: it left the catalogue, and still plays and downloads for them.',
      buyers: 1,
    });

    for (const viewer of [buyer, stranger]) {
      expect(await catalogueSongIds(viewer, 'Evergreen Tune')).not.toContain(songId);
    }
    // The buyer still has it: the song, its stream and key, a download, Purchases.
    expect((await http.get(`/api/songs/${songId}`, buyer)).json()).toMatchObject({
      _id: songId,
      status: 'ready',
      canPlay: true,
      removed: true,
    });
    expect(await plays(buyer, songId)).toBe(200);
    expect((await http.get(`/api/downloads/song/${songId}`, buyer)).json()).toMatchObject({
      formats: ['mp3'],
    });
    // 202: its MP3 is being made (the media tests follow a download to the file).
    expect((await http.post(`/api/downloads/song/${songId}`, { format: 'mp3' }, buyer)).statusCode).toBe(202);
    const purchased = (await http.get('/api/user/dashboard/purchases', buyer)).json();
    expect(ids(purchased.songs)).toContain(songId);
    expect(purchased.history).toContainEqual(
      expect.objectContaining({ _id: orderId, itemId: songId, status: 'paid', itemTitle: 'Evergreen Tune' }),
    );
    const [order] = await ctx.database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({ songId, status: 'paid', amount: 129 });

    // For anyone else it no longer exists, and it cannot be bought again.
    expect((await http.get(`/api/songs/${songId}`, stranger)).statusCode).toBe(404);
    expect(await plays(stranger, songId)).toBe(404);
    expect((await http.get(`/api/stream/song/${songId}/preview`, stranger)).statusCode).toBe(404);
    expect((await http.get(`/api/downloads/song/${songId}`, stranger)).statusCode).toBe(404);
    const again = await http.post(
      '/api/payments/sandbox/create-order',
      { itemType: 'song', itemId: songId, amount: 129 },
      stranger,
    );
    expect(again.statusCode).toBe(404);
    // Nor edited, deleted again, or put on an album.
    expect((await del(`/api/songs/${songId}`)).statusCode).toBe(404);
    expect((await http.get(`/api/songs/${songId}/buyers`, owner)).statusCode).toBe(404);
    const put = await ctx.app.inject({
      method: 'PUT',
      url: `/api/songs/${songId}`,
      headers: owner.headers,
      payload: { title: 'Back again' },
    });
    expect(put.statusCode).toBe(404);
  });

  it('keeps its media through the media clean-up, while an unsold song is deleted with its media', async () => {
    const buyer = await listener();
    const [sold, unsold] = [await song('Kept Media'), await song('Gone Media')];
    await buy(buyer, 'song', sold, 129);
    expect((await del(`/api/songs/${sold}`)).json().buyers).toBe(1);
    const unsoldAnswer = await del(`/api/songs/${unsold}`);
    expect(unsoldAnswer.json()).toEqual({ message: 'Song deleted successfully', buyers: 0 });
    expect(await ctx.database.db.select().from(songs).where(eq(songs.id, unsold))).toEqual([]);
    expect(existsSync(path.join(ctx.config.mediaDir, `songs/${unsold}`))).toBe(false);

    // Old files, as far as the clean-up can tell: it keeps them because the removed song still plays them.
    const version = path.join(ctx.config.mediaDir, `songs/${sold}/v1`);
    const longAgo = new Date(Date.now() - 3 * 3600 * 1000);
    utimesSync(version, longAgo, longAgo);
    await ctx.app.services.jobs.enqueue(MEDIA_CLEANUP_JOB, {});
    await ctx.app.services.jobs.drain([MEDIA_CLEANUP_JOB]);
    expect(existsSync(path.join(version, 'enc.key'))).toBe(true);
    expect(await plays(buyer, sold)).toBe(200);
  });

  it('plays for subscribers until the end of the period they had paid for, and for no later subscriber', async () => {
    const buyer = await listener();
    const [subscriber, latecomer] = [await listener(), await listener()];
    const songId = await song('Subscriber Song', { accessType: 'subscription' });
    await buy(buyer, 'song', songId, 129);
    const period = (userId: string, start: number) => ({
      userId,
      artistId,
      status: 'active' as const,
      gateway: 'sandbox' as const,
      externalId: `sub_${randomBytes(6).toString('hex')}`,
      currentPeriodStart: new Date(start),
      currentPeriodEnd: new Date(start + 30 * DAY),
    });
    await ctx.database.db.insert(subscriptions).values(period(subscriber.id, now - 20 * DAY));
    catalogCaches.get(ctx.database)?.invalidate();
    expect(await plays(subscriber, songId)).toBe(200);

    expect((await del(`/api/songs/${songId}`)).json().buyers).toBe(1);
    now += 1000;
    await ctx.database.db.insert(subscriptions).values(period(latecomer.id, now));
    expect(await plays(subscriber, songId)).toBe(200);
    expect((await http.get(`/api/songs/${songId}`, subscriber)).json()).toMatchObject({ removed: true });
    expect(await plays(latecomer, songId)).toBe(404);
    // Both listened to it before: it stays in their recently played while they hold it.
    const recently = async (user: TestUser) =>
      ids((await http.get('/api/users/me/recently-played', user)).json().songs);
    await ctx.database.db.insert(playRows).values(
      [buyer, subscriber].map((user) => ({
        userId: user.id,
        songId,
        secondsListened: 60,
        playedAt: new Date(now),
      })),
    );
    expect(await recently(subscriber)).toEqual([songId]);
    // Ten days later the subscriber's paid period has ended: the song is gone for them; the buyer keeps it.
    now += 11 * DAY;
    expect(await plays(subscriber, songId)).toBe(404);
    expect(await recently(subscriber)).toEqual([]);
    expect(await plays(buyer, songId)).toBe(200);
    expect(await recently(buyer)).toEqual([songId]);
  });

  it('drops an upload still waiting for its transcode, and keeps playing the version its buyers have', async () => {
    const buyer = await listener();
    const songId = await song('Re-uploaded');
    await buy(buyer, 'song', songId, 129);
    // A new file was uploaded and waits for its transcode (the song is `processing` meanwhile).
    const upload = `uploads/${songId}/${randomBytes(8).toString('hex')}`;
    mkdirSync(path.dirname(path.join(ctx.config.mediaDir, upload)), { recursive: true });
    writeFileSync(path.join(ctx.config.mediaDir, upload), 'new audio');
    await ctx.database.db
      .update(songs)
      .set({ status: 'processing', sourceKey: upload })
      .where(eq(songs.id, songId));
    expect((await del(`/api/songs/${songId}`)).json().buyers).toBe(1);
    const [row] = await ctx.database.db.select().from(songs).where(eq(songs.id, songId));
    expect(row).toMatchObject({ status: 'removed', sourceKey: null, hlsPrefix: `songs/${songId}/v1` });
    expect(existsSync(path.join(ctx.config.mediaDir, upload))).toBe(false);
    expect(await plays(buyer, songId)).toBe(200);
  });
});

describe('a sold album', () => {
  it('leaves the catalogue; its buyers keep it with every track it held, whatever happens to the songs', async () => {
    const buyer = await listener();
    const stranger = await listener();
    const [t1, t2] = [await song('First Track'), await song('Second Track')];
    const albumId = await album('Forever Album', [t1, t2]);
    await buy(buyer, 'album', albumId, 999);
    // A track added after the purchase plays for the buyer through the album.
    const t3 = await song('Bonus Track');
    const updated = await ctx.app.inject({
      method: 'PUT',
      url: `/api/albums/${albumId}`,
      headers: owner.headers,
      payload: { songs: [t1, t2, t3] },
    });
    expect(updated.statusCode).toBe(200);
    expect(await plays(buyer, t3)).toBe(200);
    expect((await http.get(`/api/albums/${albumId}/buyers`, owner)).json()).toEqual({ buyers: 1 });

    const res = await del(`/api/albums/${albumId}`);
    expect(res.json()).toEqual({
      message:
        'Album deleted successfully. 1 buyer keeps it: it left the catalogue, and still plays and downloads for them.',
      buyers: 1,
    });

    // Out of the album lists and search, for everyone.
    for (const viewer of [buyer, stranger]) {
      const lists = await Promise.all([
        http.get('/api/albums?limit=100', viewer),
        http.get(`/api/albums/artist/${artistId}?limit=100`, viewer),
      ]);
      for (const list of lists) expect(ids(list.json().albums)).not.toContain(albumId);
      expect(ids((await http.get('/api/search?q=Forever%20Album', viewer)).json().albums)).not.toContain(
        albumId,
      );
    }
    // Its songs stay in the catalogue, without an album.
    const track = (await http.get(`/api/songs/${t1}`, stranger)).json();
    expect(track.album).toBeNull();
    expect(track).not.toHaveProperty('removed');

    // The buyer's album: its page, its tracks in order, its stream and download; Purchases.
    expect((await http.get(`/api/albums/${albumId}`, buyer)).json().album).toMatchObject({
      _id: albumId,
      removed: true,
      songCount: 3,
    });
    expect(ids((await http.get(`/api/songs/album/${albumId}`, buyer)).json())).toEqual([t1, t2, t3]);
    const stream = (await http.get(`/api/stream/album/${albumId}`, buyer)).json();
    expect(stream.urls.map((entry: { songId: string }) => entry.songId)).toEqual([t1, t2, t3]);
    const purchased = (await http.get('/api/user/dashboard/purchases', buyer)).json();
    expect(ids(purchased.albums)).toContain(albumId);
    // Its tracks are listed with the album, not again on their own.
    expect(ids(purchased.songs)).not.toContain(t1);

    // Songs moved out of it, or deleted, stay the buyer's and on the deleted album's list.
    const other = await album('Another Album', [t3]);
    expect(ids((await http.get(`/api/songs/album/${other}`, stranger)).json())).toEqual([t3]);
    expect((await del(`/api/songs/${t2}`)).json().buyers).toBe(1);
    expect(ids((await http.get(`/api/songs/album/${albumId}`, buyer)).json())).toEqual([t1, t2, t3]);
    for (const track of [t1, t2, t3]) expect(await plays(buyer, track)).toBe(200);

    // For anyone else the album no longer exists, and it is never sold again.
    expect((await http.get(`/api/albums/${albumId}`, stranger)).statusCode).toBe(404);
    expect((await http.get(`/api/songs/album/${albumId}`, stranger)).statusCode).toBe(404);
    expect((await http.get(`/api/stream/album/${albumId}`, stranger)).statusCode).toBe(404);
    const again = await http.post(
      '/api/payments/sandbox/create-order',
      { itemType: 'album', itemId: albumId, amount: 999 },
      stranger,
    );
    expect(again.statusCode).toBe(404);
    expect((await del(`/api/albums/${albumId}`)).statusCode).toBe(404);
  });

  it("a track deleted from a sold album stays its buyers', leaves the album, and is not sold with it again", async () => {
    const buyer = await listener();
    const later = await listener();
    const [kept, removed] = [await song('Stays On'), await song('Taken Off')];
    const albumId = await album('Still Selling', [kept, removed]);
    await buy(buyer, 'album', albumId, 999);
    expect((await del(`/api/songs/${removed}`)).json().buyers).toBe(1);
    expect(await plays(buyer, removed)).toBe(200);
    expect(ids((await http.get(`/api/songs/album/${albumId}`, buyer)).json())).toEqual([kept]);
    expect(ids((await http.get('/api/user/dashboard/purchases', buyer)).json().songs)).toContain(removed);
    // Someone buying the album now gets what it holds now.
    await buy(later, 'album', albumId, 999);
    expect(await plays(later, kept)).toBe(200);
    expect(await plays(later, removed)).toBe(404);
    const [row] = await ctx.database.db.select().from(purchases).where(eq(purchases.songId, removed));
    expect(row).toMatchObject({ userId: buyer.id, grantedByAlbumId: albumId });
  });

  it('an unsold album is deleted as before (its cover too), its songs stay', async () => {
    const track = await song('Lonely Track');
    const albumId = await album('Never Sold', [track]);
    expect((await del(`/api/albums/${albumId}`)).json()).toEqual({
      message: 'Album deleted successfully',
      buyers: 0,
    });
    expect(await ctx.database.db.select().from(albums).where(eq(albums.id, albumId))).toEqual([]);
    expect((await http.get(`/api/songs/${track}`, admin)).json()).toMatchObject({ album: null });
  });
});

describe('dashboards and artists', () => {
  it("drop deleted items from the artist's sold lists, keeping the money figures", async () => {
    const buyer = await listener();
    const songId = await song('Sold Then Gone');
    await buy(buyer, 'song', songId, 129);
    const summary = async () =>
      (await http.get(`/api/admin/dashboard/revenue-summary/${artistId}`, owner)).json();
    const sold = async () =>
      ids((await http.get(`/api/admin/dashboard/purchased-songs/${artistId}`, owner)).json().songs);
    const before = await summary();
    expect(await sold()).toContain(songId);
    await del(`/api/songs/${songId}`);
    expect(await sold()).not.toContain(songId);
    expect(await summary()).toEqual(before);
  });

  it('an artist with buyers is not deleted (409); one without is', async () => {
    const res = await del(`/api/artists/${artistId}`, admin);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('ARTIST_HAS_BUYERS');
    expect((await http.get(`/api/artists/${artistId}`)).statusCode).toBe(200);
    const lonely = (await f.artist({ name: 'Nobody Bought' })).id;
    expect((await del(`/api/artists/${lonely}`, admin)).json()).toEqual({
      message: 'Artist deleted successfully',
    });
  });
});
