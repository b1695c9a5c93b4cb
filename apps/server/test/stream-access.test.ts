import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './test-app';
import {
  buyAlbum,
  buySong,
  createAlbum,
  createArtist,
  createSong,
  createUser,
  subscribe,
  type TestUser,
} from './stream.fixtures';

let ctx: TestContext;
const DAY = 24 * 60 * 60 * 1000;
const MISSING = '00000000-0000-4000-8000-000000000000';

let owner: TestUser;
let admin: TestUser;
let otherArtist: TestUser;
let listener: TestUser;
let artistId: string;
let premiumAlbum: string;
let regularAlbum: string;
const song: Record<string, string> = {};

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  [owner, admin, otherArtist, listener] = await Promise.all([
    createUser(db, 'artist'),
    createUser(db, 'admin'),
    createUser(db, 'artist'),
    createUser(db),
  ]);
  artistId = await createArtist(db, { name: 'Nina Waves', ownerUserId: owner.id });
  premiumAlbum = await createAlbum(db, { artistId, title: 'Tide & Time', isPremium: true });
  regularAlbum = await createAlbum(db, { artistId, title: 'Open Water' });
  song.subscription = await createSong(db, { artistId, accessType: 'subscription' });
  song.purchaseOnly = await createSong(db, { artistId, accessType: 'purchase-only' });
  song.premiumTrack2 = await createSong(db, {
    artistId,
    albumId: premiumAlbum,
    trackNumber: 2,
    accessType: 'purchase-only',
  });
  song.premiumTrack1 = await createSong(db, {
    artistId,
    albumId: premiumAlbum,
    trackNumber: 1,
    accessType: 'subscription',
  });
  song.premiumProcessing = await createSong(db, {
    artistId,
    albumId: premiumAlbum,
    trackNumber: 3,
    status: 'processing',
    hlsPrefix: null,
  });
  song.regularSubscription = await createSong(db, {
    artistId,
    albumId: regularAlbum,
    trackNumber: 1,
    accessType: 'subscription',
  });
  song.regularPurchase = await createSong(db, {
    artistId,
    albumId: regularAlbum,
    trackNumber: 2,
    accessType: 'purchase-only',
  });
  song.processing = await createSong(db, { artistId, status: 'processing', hlsPrefix: null });
  song.failed = await createSong(db, {
    artistId,
    status: 'failed',
    hlsPrefix: null,
    failureReason: 'The file contains no audio track',
  });
});
afterAll(() => ctx.close());

const get = (url: string, user?: TestUser) =>
  ctx.app.inject({ method: 'GET', url, headers: user?.headers ?? {} });

describe('GET /api/stream/song/:id', () => {
  it('asks a guest to sign in (401) before anything else', async () => {
    for (const id of [song.subscription!, MISSING]) {
      const res = await get(`/api/stream/song/${id}`);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        message: 'Authentication token missing. Please login.',
        code: 'UNAUTHENTICATED',
      });
    }
  });

  it('answers 404 for an unknown song and 400 for a malformed id', async () => {
    const res = await get(`/api/stream/song/${MISSING}`, listener);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Song not found', code: 'SONG_NOT_FOUND' });
    expect((await get('/api/stream/song/not-an-id', listener)).statusCode).toBe(400);
  });

  it.each([
    [
      'subscription',
      'subscription_required',
      'Subscribe to Nina Waves to play this song.',
      'subscription',
      null,
      false,
    ],
    [
      'purchaseOnly',
      'song_purchase_required',
      'You need to purchase this song to play it.',
      'purchase-only',
      null,
      false,
    ],
    [
      'premiumTrack2',
      'album_purchase_required',
      'Purchase the album "Tide & Time" to play this song.',
      'purchase-only',
      'Tide & Time',
      true,
    ],
    [
      'premiumTrack1',
      'album_purchase_required',
      'Purchase the album "Tide & Time" to play this song.',
      'subscription',
      'Tide & Time',
      true,
    ],
    [
      'regularPurchase',
      'song_purchase_required',
      'You need to purchase this song to play it.',
      'purchase-only',
      'Open Water',
      false,
    ],
    [
      'regularSubscription',
      'subscription_required',
      'Subscribe to Nina Waves to play this song.',
      'subscription',
      'Open Water',
      false,
    ],
  ])(
    'refuses %s with 403 %s and the SPEC message',
    async (key, reason, message, accessType, albumTitle, isPremium) => {
      const res = await get(`/api/stream/song/${song[key]}`, listener);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        message,
        code: 'ACCESS_DENIED',
        reason,
        accessType,
        artistName: 'Nina Waves',
        albumTitle,
        isPremium,
      });
    },
  );

  it('says "this artist" when the artist has no name', async () => {
    const db = ctx.database.db;
    const nameless = await createArtist(db, { name: '' });
    const id = await createSong(db, { artistId: nameless });
    const res = await get(`/api/stream/song/${id}`, listener);
    expect(res.json()).toMatchObject({
      message: 'Subscribe to this artist to play this song.',
      artistName: '',
    });
  });

  it('gives admins, the owning artist account, but not another artist, a signed playlist and audio address', async () => {
    for (const user of [admin, owner]) {
      const res = await get(`/api/stream/song/${song.premiumTrack2}`, user);
      expect(res.statusCode).toBe(200);
      const body = res.json<{ url: string; audioUrl: string; firstSegmentUrl: string }>();
      expect(Object.keys(body).sort()).toEqual(['audioUrl', 'firstSegmentUrl', 'url']);
      // Public ciphertext, served without a token (the playlist names it the same way).
      expect(body.firstSegmentUrl).toBe(`/api/stream/hls/${song.premiumTrack2}/seg_0000.ts`);
      expect(body.url).toMatch(
        new RegExp(`^/api/stream/hls/${song.premiumTrack2}/index\\.m3u8\\?token=[\\w-]+\\.[\\w-]+$`),
      );
      expect(body.audioUrl).toBe(
        `/api/stream/audio/${song.premiumTrack2}?token=${body.url.split('token=')[1]}`,
      );
    }
    expect((await get(`/api/stream/song/${song.premiumTrack2}`, otherArtist)).statusCode).toBe(403);
  });

  it('answers 409 while the song is processing, and 409 with the reason when it failed', async () => {
    const processing = await get(`/api/stream/song/${song.processing}`, owner);
    expect(processing.statusCode).toBe(409);
    expect(processing.json()).toEqual({
      message: 'This song is still being processed. Try again in a moment.',
      code: 'SONG_PROCESSING',
    });
    const failed = await get(`/api/stream/song/${song.failed}`, admin);
    expect(failed.statusCode).toBe(409);
    expect(failed.json()).toEqual({
      message: 'This song could not be processed: The file contains no audio track',
      code: 'SONG_FAILED',
    });
  });

  describe('subscriptions', () => {
    it.each([
      ['active', 30 * DAY, 200],
      ['cancelled', 3 * DAY, 200], // cancelled but paid through
      ['cancelled', -DAY, 403],
      ['active', -DAY, 403], // period over, renewal not (yet) confirmed
      ['expired', 3 * DAY, 403],
      ['pending', 30 * DAY, 403],
    ] as const)('a %s subscription ending in %d ms answers %d', async (status, endsInMs, expected) => {
      const db = ctx.database.db;
      const user = await createUser(db);
      await subscribe(db, { userId: user.id, artistId, status, endsInMs });
      expect((await get(`/api/stream/song/${song.subscription}`, user)).statusCode).toBe(expected);
      // A subscription never unlocks purchase-only or premium-album songs.
      expect((await get(`/api/stream/song/${song.purchaseOnly}`, user)).statusCode).toBe(403);
      expect((await get(`/api/stream/song/${song.premiumTrack1}`, user)).statusCode).toBe(403);
    });

    it('to another artist does not count', async () => {
      const db = ctx.database.db;
      const user = await createUser(db);
      const elsewhere = await createArtist(db, { name: 'Someone Else' });
      await subscribe(db, { userId: user.id, artistId: elsewhere, status: 'active', endsInMs: DAY });
      expect((await get(`/api/stream/song/${song.subscription}`, user)).statusCode).toBe(403);
    });
  });

  describe('purchases', () => {
    it('a bought song plays, even one on an album that turned premium after it was bought', async () => {
      const db = ctx.database.db;
      const user = await createUser(db);
      const other = await createUser(db);
      await buySong(db, user.id, song.purchaseOnly!);
      // Premium album tracks are not sold alone; a row exists only if bought before the album turned premium.
      await buySong(db, user.id, song.premiumTrack2!);
      expect((await get(`/api/stream/song/${song.purchaseOnly}`, user)).statusCode).toBe(200);
      expect((await get(`/api/stream/song/${song.premiumTrack2}`, user)).statusCode).toBe(200);
      expect((await get(`/api/stream/song/${song.premiumTrack2}`, other)).json()).toMatchObject({
        reason: 'album_purchase_required',
      });
    });

    it('a bought album unlocks all its songs, whatever their access type', async () => {
      const db = ctx.database.db;
      const user = await createUser(db);
      await buyAlbum(db, user.id, premiumAlbum);
      await buyAlbum(db, user.id, regularAlbum);
      for (const key of ['premiumTrack1', 'premiumTrack2', 'regularSubscription', 'regularPurchase']) {
        expect((await get(`/api/stream/song/${song[key]}`, user)).statusCode).toBe(200);
      }
      expect((await get(`/api/stream/song/${song.purchaseOnly}`, user)).statusCode).toBe(403);
    });
  });
});

describe('GET /api/stream/album/:id', () => {
  const urlsOf = (body: { urls: Array<{ songId: string; url: string }> }) => body.urls.map((u) => u.songId);

  it('refuses a premium album that was not bought with the SPEC message', async () => {
    const res = await get(`/api/stream/album/${premiumAlbum}`, listener);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      message: 'You need to purchase this album to stream it.',
      code: 'ACCESS_DENIED',
      reason: 'album_purchase_required',
    });
  });

  it('lists the ready songs of a bought premium album in track order, each with its own token', async () => {
    const db = ctx.database.db;
    const buyer = await createUser(db);
    await buyAlbum(db, buyer.id, premiumAlbum);
    const res = await get(`/api/stream/album/${premiumAlbum}`, buyer);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(urlsOf(body)).toEqual([song.premiumTrack1, song.premiumTrack2]);
    for (const { songId, url, firstSegmentUrl } of body.urls) {
      expect(url).toMatch(new RegExp(`^/api/stream/hls/${songId}/index\\.m3u8\\?token=`));
      expect(firstSegmentUrl).toBe(`/api/stream/hls/${songId}/seg_0000.ts`);
    }
    expect(new Set(body.urls.map((u: { url: string }) => u.url.split('token=')[1])).size).toBe(2);
  });

  it('gives admins and the owner every ready song', async () => {
    for (const user of [admin, owner]) {
      expect(urlsOf((await get(`/api/stream/album/${premiumAlbum}`, user)).json())).toEqual([
        song.premiumTrack1,
        song.premiumTrack2,
      ]);
    }
  });

  it('lists only the songs the policy allows on a regular album', async () => {
    const db = ctx.database.db;
    const subscriber = await createUser(db);
    await subscribe(db, { userId: subscriber.id, artistId, status: 'active', endsInMs: DAY });
    expect(urlsOf((await get(`/api/stream/album/${regularAlbum}`, subscriber)).json())).toEqual([
      song.regularSubscription,
    ]);

    const buyer = await createUser(db);
    await buySong(db, buyer.id, song.regularPurchase!);
    expect(urlsOf((await get(`/api/stream/album/${regularAlbum}`, buyer)).json())).toEqual([
      song.regularPurchase,
    ]);
  });

  it('refuses a regular album when no song on it may be played', async () => {
    const res = await get(`/api/stream/album/${regularAlbum}`, listener);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      message: 'You need to purchase this album to stream it.',
      code: 'ACCESS_DENIED',
      reason: 'subscription_required',
    });
  });

  it('refuses an empty premium album that was not bought, and answers 404 / 401 as usual', async () => {
    const empty = await createAlbum(ctx.database.db, { artistId, title: 'Soon', isPremium: true });
    expect((await get(`/api/stream/album/${empty}`, listener)).statusCode).toBe(403);
    expect((await get(`/api/stream/album/${empty}`, owner)).json()).toEqual({ urls: [] });
    expect((await get(`/api/stream/album/${MISSING}`, listener)).json()).toEqual({
      message: 'Album not found',
      code: 'ALBUM_NOT_FOUND',
    });
    expect((await get(`/api/stream/album/${premiumAlbum}`)).statusCode).toBe(401);
  });
});
