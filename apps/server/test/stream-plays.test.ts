import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plays } from '../src/db/schema';
import { createTestApp, type TestContext } from './test-app';
import {
  buyAlbum,
  buySong,
  createAlbum,
  createArtist,
  createSong,
  createUser,
  type TestUser,
} from './stream.fixtures';

let ctx: TestContext;
const MISSING = '00000000-0000-4000-8000-000000000000';
let owner: TestUser;
const song: Record<string, string> = {};
let regularAlbum: string;

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  owner = await createUser(db, 'artist');
  const artistId = await createArtist(db, { name: 'Nina Waves', ownerUserId: owner.id });
  regularAlbum = await createAlbum(db, { artistId, title: 'Open Water' });
  song.subscription = await createSong(db, { artistId, accessType: 'subscription' });
  song.purchaseOnly = await createSong(db, { artistId, accessType: 'purchase-only' });
  song.regularSubscription = await createSong(db, { artistId, albumId: regularAlbum, trackNumber: 1 });
  song.regularPurchase = await createSong(db, {
    artistId,
    albumId: regularAlbum,
    trackNumber: 2,
    accessType: 'purchase-only',
  });
  song.processing = await createSong(db, { artistId, status: 'processing', hlsPrefix: null });
});
afterAll(() => ctx.close());

const get = (url: string, user?: TestUser) =>
  ctx.app.inject({ method: 'GET', url, headers: user?.headers ?? {} });

describe('plays and recently played', () => {
  const post = (user: TestUser | undefined, payload: object) =>
    ctx.app.inject({ method: 'POST', url: '/api/stream/plays', headers: user?.headers ?? {}, payload });

  it('records a play of an entitled song and lists distinct songs, latest first', async () => {
    const db = ctx.database.db;
    const user = await createUser(db);
    await buyAlbum(db, user.id, regularAlbum);
    for (const [songId, secondsListened] of [
      [song.regularSubscription, 3],
      [song.regularPurchase, 8],
      [song.regularSubscription, 13],
    ] as const) {
      const res = await post(user, { songId, secondsListened });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({ message: 'Play recorded' });
      await new Promise((resolve) => setTimeout(resolve, 5)); // distinct played_at even on a coarse clock
    }
    const rows = await db.select().from(plays).where(eq(plays.userId, user.id));
    expect(rows.map((r) => r.secondsListened).sort((a, b) => a - b)).toEqual([3, 8, 13]);

    const recent = await get('/api/users/me/recently-played', user);
    expect(recent.statusCode).toBe(200);
    const songs = recent.json().songs;
    expect(songs.map((s: { _id: string }) => s._id)).toEqual([
      song.regularSubscription,
      song.regularPurchase,
    ]);
    expect(Object.keys(songs[0]).sort()).toEqual([
      '_id',
      'coverImage',
      'duration',
      'playedAt',
      'singer',
      'title',
    ]);
    expect(songs[0]).toMatchObject({ singer: 'Test Singer', duration: 8, coverImage: null });
    expect(Date.parse(songs[0].playedAt)).toBeGreaterThanOrEqual(Date.parse(songs[1].playedAt));
    expect((await get('/api/users/me/recently-played?limit=1', user)).json().songs).toHaveLength(1);
    expect((await get('/api/users/me/recently-played?limit=0', user)).statusCode).toBe(400);
  });

  it('refuses a play that is not entitled, too long, unknown, processing, or from a guest, writing nothing', async () => {
    const db = ctx.database.db;
    const user = await createUser(db);
    await buySong(db, user.id, song.purchaseOnly!);
    const cases: Array<[object, number, string]> = [
      [{ songId: song.subscription, secondsListened: 5 }, 403, 'Subscribe to Nina Waves to play this song.'],
      [{ songId: song.purchaseOnly, secondsListened: 13.5 }, 400, 'secondsListened: must be at most 13'],
      [{ songId: song.purchaseOnly, secondsListened: -1 }, 400, 'secondsListened: must be at least 0'],
      [{ songId: MISSING, secondsListened: 1 }, 404, 'Song not found'],
      [{ songId: song.purchaseOnly }, 400, 'secondsListened'],
    ];
    for (const [payload, status, message] of cases) {
      const res = await post(user, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().message).toContain(message);
    }
    expect((await post(owner, { songId: song.processing, secondsListened: 1 })).statusCode).toBe(409);
    expect((await post(undefined, { songId: song.purchaseOnly, secondsListened: 1 })).statusCode).toBe(401);
    expect(await db.select().from(plays).where(eq(plays.userId, user.id))).toEqual([]);
    expect((await get('/api/users/me/recently-played', user)).json()).toEqual({ songs: [] });
    expect((await get('/api/users/me/recently-played')).statusCode).toBe(401);
  });
});

describe('OpenAPI', () => {
  it('documents the streaming calls from the contract schemas', async () => {
    const doc = (await get('/api/openapi.json')).json();
    for (const path of [
      '/api/stream/song/{id}',
      '/api/stream/album/{id}',
      '/api/stream/hls/{songId}/index.m3u8',
      '/api/stream/hls/{songId}/key',
      '/api/stream/hls/{songId}/{segment}',
      '/api/stream/audio/{songId}',
      '/api/stream/plays',
      '/api/users/me/recently-played',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
    expect(doc.paths['/api/stream/song/{id}'].get.responses['403']).toBeDefined();
  });
});
