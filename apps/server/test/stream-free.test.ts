import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plays, songs } from '../src/db/schema';
import { createTestApp, type TestContext } from './test-app';
import { buySong, createAlbum, createArtist, createSong, createUser, type TestUser } from './stream.fixtures';
import { transcodeTestSong, type TranscodedMedia } from './stream.media-fixtures';

/*
 * Songs free to stream: the artist's choice in the song form. Anyone signed in plays them in full (stream, key, album
 * stream, plays that count), guests still only preview; free listening gives no download, buying still does.
 */

let ctx: TestContext;
let media: TranscodedMedia;
let owner: TestUser;
let listener: TestUser;
let artistId: string;
let album: string;
let premiumAlbum: string;
const song: Record<string, string> = {};

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  media = await transcodeTestSong(4);
  [owner, listener] = await Promise.all([createUser(db, 'artist'), createUser(db)]);
  artistId = await createArtist(db, { name: 'Nina Waves', ownerUserId: owner.id });
  album = await createAlbum(db, { artistId, title: 'Open Water' });
  premiumAlbum = await createAlbum(db, { artistId, title: 'Tide & Time', isPremium: true });
  song.free = await createSong(db, { artistId, albumId: album, trackNumber: 1, freeToStream: true });
  song.locked = await createSong(db, { artistId, albumId: album, trackNumber: 2 });
  song.freePurchaseOnly = await createSong(db, {
    artistId,
    albumId: premiumAlbum,
    trackNumber: 1,
    accessType: 'purchase-only',
    freeToStream: true,
  });
  for (const id of Object.values(song)) await media.install(ctx.app.services.mediaStore, `songs/${id}/v1`);
});
afterAll(async () => {
  await ctx.close();
  await media.cleanup();
});

const get = (url: string, user?: TestUser) =>
  ctx.app.inject({ method: 'GET', url, headers: user?.headers ?? {} });

describe('songs free to stream', () => {
  it('plays in full for any signed-in listener, key included, whatever the access type or album', async () => {
    for (const id of [song.free!, song.freePurchaseOnly!]) {
      const res = await get(`/api/stream/song/${id}`, listener);
      expect(res.statusCode).toBe(200);
      const playlist = await get(res.json<{ url: string }>().url, listener);
      expect(playlist.statusCode).toBe(200);
      const keyUrl = /URI="([^"]+)"/.exec(playlist.body)![1]!;
      const key = await get(keyUrl, listener);
      expect(key.statusCode).toBe(200);
      expect(key.rawPayload).toHaveLength(16);
    }
    // The album's other song keeps its own rule and message.
    expect((await get(`/api/stream/song/${song.locked}`, listener)).json()).toMatchObject({
      message: 'Subscribe to Nina Waves to play this song.',
      reason: 'subscription_required',
    });
  });

  it('asks a guest to sign in, as for every full stream (the preview stays open to them)', async () => {
    const res = await get(`/api/stream/song/${song.free}`);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      message: 'Authentication token missing. Please login.',
      code: 'UNAUTHENTICATED',
    });
  });

  it('says so in song lists: freeToStream, canPlay for the signed-in, no download without a purchase', async () => {
    const row = (body: Array<{ _id: string }>, id: string) => body.find((s) => s._id === id);
    const asGuest = (await get(`/api/songs/album/${album}`)).json<Array<{ _id: string }>>();
    expect(row(asGuest, song.free!)).toMatchObject({
      freeToStream: true,
      canPlay: false,
      canDownload: false,
    });
    const asListener = (await get(`/api/songs/album/${album}`, listener)).json<Array<{ _id: string }>>();
    expect(row(asListener, song.free!)).toMatchObject({
      freeToStream: true,
      accessType: 'subscription',
      canPlay: true,
      canDownload: false,
    });
    expect(row(asListener, song.locked!)).toMatchObject({ freeToStream: false, canPlay: false });

    const buyer = await createUser(ctx.database.db);
    await buySong(ctx.database.db, buyer.id, song.free!);
    const asBuyer = (await get(`/api/songs/album/${album}`, buyer)).json<Array<{ _id: string }>>();
    expect(row(asBuyer, song.free!)).toMatchObject({ canPlay: true, canDownload: true });
    expect((await get(`/api/downloads/song/${song.free}`, listener)).statusCode).toBe(403);
  });

  it('lists free songs in the album stream of a listener who owns nothing', async () => {
    const res = await get(`/api/stream/album/${album}`, listener);
    expect(res.statusCode).toBe(200);
    expect(res.json<{ urls: Array<{ songId: string }> }>().urls.map((u) => u.songId)).toEqual([song.free]);
  });

  it('records a free listen as a play, counted in the dashboards', async () => {
    const user = await createUser(ctx.database.db);
    // A play counts only for audio the server served to that listener: the player asks for the stream, then its key.
    const stream = await get(`/api/stream/song/${song.free}`, user);
    expect(stream.statusCode).toBe(200);
    const token = new URL(stream.json<{ url: string }>().url, 'http://x').searchParams.get('token')!;
    const key = await get(`/api/stream/hls/${song.free}/key?token=${encodeURIComponent(token)}`, user);
    expect(key.statusCode).toBe(200);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/stream/plays',
      headers: user.headers,
      payload: { songId: song.free, secondsListened: 3 },
    });
    expect(res.statusCode).toBe(201);
    const rows = await ctx.database.db.select().from(plays).where(eq(plays.userId, user.id));
    expect(rows.map((r) => [r.songId, r.kind])).toEqual([[song.free, 'full']]);
    const overview = await get(`/api/admin/dashboard/overview?artistId=${artistId}`, owner);
    expect(overview.statusCode).toBe(200);
    expect(overview.json<{ plays: number }>().plays).toBeGreaterThanOrEqual(1);
  });
});

describe('the studio sets it', () => {
  const put = (id: string, payload: object, user = owner) =>
    ctx.app.inject({ method: 'PUT', url: `/api/songs/${id}`, headers: user.headers, payload });

  it('turns free streaming on and off in the song form', async () => {
    const on = await put(song.locked!, { freeToStream: 'true' });
    expect(on.statusCode).toBe(200);
    expect(on.json().song).toMatchObject({ freeToStream: true, accessType: 'subscription' });
    expect((await get(`/api/stream/song/${song.locked}`, listener)).statusCode).toBe(200);
    const off = await put(song.locked!, { freeToStream: false });
    expect(off.json().song.freeToStream).toBe(false);
    expect((await get(`/api/stream/song/${song.locked}`, listener)).statusCode).toBe(403);
  });

  it('refuses a value that is not a yes or no, and writes nothing', async () => {
    const stored = () =>
      ctx.database.db
        .select({ title: songs.title, free: songs.freeToStream, updatedAt: songs.updatedAt })
        .from(songs)
        .where(eq(songs.id, song.locked!));
    const before = await stored();
    const res = await put(song.locked!, { freeToStream: 'maybe', title: 'Renamed' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(res.json().message).toMatch(/^freeToStream/);
    expect(await stored()).toEqual(before);
  });

  it('lets only the artist’s managers change it', async () => {
    expect((await put(song.locked!, { freeToStream: true }, listener)).statusCode).toBe(403);
  });

  it('documents the field in the OpenAPI document next to accessType', async () => {
    const doc = (await get('/api/openapi.json')).json();
    const listed = doc.paths['/api/songs/album/{id}'].get.responses['200'].content['application/json'].schema;
    const fields = Object.keys(listed.items.properties as object);
    expect(fields.indexOf('freeToStream')).toBe(fields.indexOf('accessType') + 1);
    expect(listed.items.properties.freeToStream).toEqual({ type: 'boolean' });
    expect(listed.items.required).toContain('freeToStream');
  });
});
