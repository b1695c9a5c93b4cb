import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_SCOPE, plays } from '../src/db/schema';
import { PLAY_NOT_COUNTED } from '../src/modules/streaming/streaming.routes';
import { createTestApp, diskPath, type TestContext } from './test-app';
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
let artistId: string;
const song: Record<string, string> = {};
let regularAlbum: string;
/** The app's clock: plays are counted at most once per song length, so tests move it past a song. */
let now = Date.parse('2025-06-02T12:00:00Z');
const SONG_SECONDS = 8;

beforeAll(async () => {
  ctx = await createTestApp({ services: { clock: () => new Date(now) } });
  const db = ctx.database.db;
  owner = await createUser(db, 'artist');
  artistId = await createArtist(db, { name: 'Nina Waves', ownerUserId: owner.id });
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
  // What the key and fallback endpoints serve (the bytes do not matter here; the media tests decode real ones).
  for (const id of Object.values(song)) await installAudio(id);
});
afterAll(() => ctx.close());

async function installAudio(songId: string) {
  const dir = diskPath(ctx.app.services.mediaStore, `songs/${songId}/v1`);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'enc.key'), randomBytes(16));
  await writeFile(path.join(dir, 'audio.m4a'), randomBytes(2048));
}

const get = (url: string, user?: TestUser) =>
  ctx.app.inject({ method: 'GET', url, headers: user?.headers ?? {} });
const post = (user: TestUser | undefined, payload: object) =>
  ctx.app.inject({ method: 'POST', url: '/api/stream/plays', headers: user?.headers ?? {}, payload });
const tokenOf = (url: string) => new URL(url, 'http://x').searchParams.get('token')!;

/** What the player does when it starts a song: asks for the stream, then fetches its key (or its fallback file). */
async function listen(user: TestUser, songId: string, via: 'key' | 'audio' = 'key') {
  const stream = await get(`/api/stream/song/${songId}`, user);
  expect(stream.statusCode, stream.body).toBe(200);
  const token = encodeURIComponent(tokenOf(stream.json().url));
  const url =
    via === 'key'
      ? `/api/stream/hls/${songId}/key?token=${token}`
      : `/api/stream/audio/${songId}?token=${token}`;
  const audio = await get(url, user);
  expect(audio.statusCode, audio.body).toBe(200);
}

/** Moves the app's clock past a song's length (and the fetch-write interval). */
const afterASong = () => (now += (SONG_SECONDS + 1) * 1000);

const playsOf = (userId: string) => ctx.database.db.select().from(plays).where(eq(plays.userId, userId));
/** Full plays in the platform's daily rollup (what the dashboards read), all days. */
async function platformPlays(): Promise<number> {
  const [row] = await ctx.database.query<{ plays: number }>(
    sql`select coalesce(sum(plays), 0)::int as plays from plays_rollup
        where scope = ${PLATFORM_SCOPE}::uuid and grain = 'day'`,
  );
  return Number(row!.plays);
}

describe('plays and recently played', () => {
  it('records a play of an entitled song whose audio was fetched, and lists distinct songs, latest first', async () => {
    const db = ctx.database.db;
    const user = await createUser(db);
    await buyAlbum(db, user.id, regularAlbum);
    for (const [songId, secondsListened] of [
      [song.regularSubscription, 3],
      [song.regularPurchase, 8],
      [song.regularSubscription, 13],
    ] as const) {
      afterASong();
      await listen(user, songId!);
      const res = await post(user, { songId, secondsListened });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({ message: 'Play recorded' });
    }
    const rows = await playsOf(user.id);
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
    expect(await playsOf(user.id)).toEqual([]);
    expect((await get('/api/users/me/recently-played', user)).json()).toEqual({ songs: [] });
    expect((await get('/api/users/me/recently-played')).statusCode).toBe(401);
  });
});

describe('plays count only for audio fetched, once per song length', () => {
  it('counts nothing for a song whose audio was never fetched', async () => {
    const user = await createUser(ctx.database.db);
    await buySong(ctx.database.db, user.id, song.purchaseOnly!);
    const before = await platformPlays();
    const res = await post(user, { songId: song.purchaseOnly, secondsListened: 8 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: PLAY_NOT_COUNTED });
    expect(await playsOf(user.id)).toEqual([]);
    expect(await platformPlays()).toBe(before);
  });

  it('a flood of 100 "full plays" after one fetch counts one, and the dashboards move by one', async () => {
    const user = await createUser(ctx.database.db);
    await buySong(ctx.database.db, user.id, song.purchaseOnly!);
    afterASong();
    await listen(user, song.purchaseOnly!);
    const before = await platformPlays();
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) {
      statuses.push((await post(user, { songId: song.purchaseOnly, secondsListened: 8 })).statusCode);
      now += 180; // 100 posts in 18 s, as the report saw
    }
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 200)).toHaveLength(99);
    expect(await playsOf(user.id)).toHaveLength(1);
    expect(await platformPlays()).toBe(before + 1);
  });

  it('a song length later, counts again only after its audio was fetched again (key or fallback file)', async () => {
    const user = await createUser(ctx.database.db);
    await buySong(ctx.database.db, user.id, song.purchaseOnly!);
    afterASong();
    await listen(user, song.purchaseOnly!);
    expect((await post(user, { songId: song.purchaseOnly, secondsListened: 8 })).statusCode).toBe(201);
    // Fetched again at once (the player restarted the song): still within the song's length.
    await listen(user, song.purchaseOnly!);
    expect((await post(user, { songId: song.purchaseOnly, secondsListened: 8 })).statusCode).toBe(200);
    // A song length later without a new fetch: nothing was heard.
    afterASong();
    expect((await post(user, { songId: song.purchaseOnly, secondsListened: 8 })).statusCode).toBe(200);
    // The fallback file counts as audio fetched, like the key.
    await listen(user, song.purchaseOnly!, 'audio');
    expect((await post(user, { songId: song.purchaseOnly, secondsListened: 8 })).statusCode).toBe(201);
    expect(await playsOf(user.id)).toHaveLength(2);
  });

  it('counts one of 20 concurrent posts (the fetch row is locked while a play is counted)', async () => {
    const user = await createUser(ctx.database.db);
    await buySong(ctx.database.db, user.id, song.purchaseOnly!);
    afterASong();
    await listen(user, song.purchaseOnly!);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => post(user, { songId: song.purchaseOnly, secondsListened: 8 })),
    );
    expect(answers.filter((res) => res.statusCode === 201)).toHaveLength(1);
    expect(await playsOf(user.id)).toHaveLength(1);
  });

  it("another listener's fetch counts nothing for this one", async () => {
    const [first, second] = [await createUser(ctx.database.db), await createUser(ctx.database.db)];
    for (const user of [first, second]) await buySong(ctx.database.db, user.id, song.purchaseOnly!);
    afterASong();
    await listen(first, song.purchaseOnly!);
    expect((await post(second, { songId: song.purchaseOnly, secondsListened: 8 })).statusCode).toBe(200);
    expect((await post(first, { songId: song.purchaseOnly, secondsListened: 8 })).statusCode).toBe(201);
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
