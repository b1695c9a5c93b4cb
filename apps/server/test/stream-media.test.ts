import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { albums, sessions, subscriptions, users } from '../src/db/schema';
import { StreamTokenService } from '../src/modules/streaming';
import { createTestApp, type TestContext } from './test-app';
import {
  buySong,
  createAlbum,
  createArtist,
  createSong,
  createUser,
  subscribe,
  type TestUser,
} from './stream.fixtures';
import { transcodeTestSong, type TranscodedMedia } from './stream.media-fixtures';

const run = promisify(execFile);
const HOUR = 60 * 60 * 1000;

let ctx: TestContext;
let media: TranscodedMedia;
let subscriber: TestUser;
let stranger: TestUser;
let artistId: string;
let songId: string;
let otherSongId: string;
let processingId: string;
/** The subscriber's token for songId, from GET /api/stream/song/:id. */
let token: string;
let segmentBytes: Buffer;

beforeAll(async () => {
  [ctx, media] = await Promise.all([createTestApp(), transcodeTestSong(8)]);
  const db = ctx.database.db;
  [subscriber, stranger] = await Promise.all([createUser(db), createUser(db)]);
  artistId = await createArtist(db, { name: 'Sine Quartet' });
  songId = await createSong(db, { artistId, durationSec: media.durationSec });
  otherSongId = await createSong(db, { artistId, durationSec: media.durationSec });
  processingId = await createSong(db, { artistId, status: 'processing', hlsPrefix: `songs/unready/v1` });
  for (const id of [songId, otherSongId]) await media.install(ctx.app.services.mediaStore, `songs/${id}/v1`);
  await media.install(ctx.app.services.mediaStore, 'songs/unready/v1');
  await subscribe(db, { userId: subscriber.id, artistId, status: 'active', endsInMs: 30 * 24 * HOUR });
  token = await tokenFor(subscriber, songId);
  segmentBytes = await readFile(path.join(media.dir, 'seg_0000.ts'));
}, 120_000);
afterAll(async () => {
  await ctx.close();
  await media.cleanup();
});

const holder = (user: TestUser) => ({ userId: user.id, sessionId: user.sessionId });

async function tokenFor(user: TestUser, id: string): Promise<string> {
  const res = await ctx.app.inject({ method: 'GET', url: `/api/stream/song/${id}`, headers: user.headers });
  expect(res.statusCode).toBe(200);
  return new URL(res.json<{ url: string }>().url, 'http://x').searchParams.get('token')!;
}

const get = (url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url, headers });
const playlistPath = (id: string, t: string) => `/api/stream/hls/${id}/index.m3u8?token=${t}`;
const keyPath = (id: string, t: string) => `/api/stream/hls/${id}/key?token=${t}`;
const audioPath = (id: string, t: string) => `/api/stream/audio/${id}?token=${t}`;
const segmentPath = (id: string, name = 'seg_0000.ts') => `/api/stream/hls/${id}/${name}`;

describe('playlist', () => {
  it('is rewritten to the tokenised key endpoint and absolute segment paths, never cached', async () => {
    const res = await get(playlistPath(songId, token));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.apple.mpegurl');
    expect(res.headers['cache-control']).toBe('private, no-store');
    const lines = res.body.split('\n');
    expect(lines[0]).toBe('#EXTM3U');
    const keyLine = lines.find((l) => l.startsWith('#EXT-X-KEY:'))!;
    expect(keyLine).toMatch(/^#EXT-X-KEY:METHOD=AES-128,URI="[^"]+",IV=0x[0-9a-f]{32}$/i);
    expect(keyLine).toContain(`URI="/api/stream/hls/${songId}/key?token=${token}"`);
    const segments = lines.filter((l) => l && !l.startsWith('#'));
    expect(segments).toHaveLength(media.segmentCount);
    segments.forEach((line, i) =>
      expect(line).toBe(`/api/stream/hls/${songId}/seg_${String(i).padStart(4, '0')}.ts`),
    );
    expect(res.body).not.toContain('key://');
  });

  it("answers the same template with each caller's own token", async () => {
    const other = await createUser(ctx.database.db, 'admin');
    const adminToken = await tokenFor(other, songId);
    const body = (await get(playlistPath(songId, adminToken))).body;
    expect(body).toContain(`key?token=${adminToken}"`);
    expect(body).not.toContain(token);
  });
});

describe('key', () => {
  it('is the 16-byte AES key, application/octet-stream, Cache-Control no-store', async () => {
    const res = await get(keyPath(songId, token));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.rawPayload).toEqual(await readFile(path.join(media.dir, 'enc.key')));
    expect(res.rawPayload).toHaveLength(16);
  });

  it('re-runs the access policy: when the paid period ends, key and audio are refused, not the playlist', async () => {
    const db = ctx.database.db;
    const lapsing = await createUser(db);
    const endsAt = Date.now() + 3000;
    await subscribe(db, { userId: lapsing.id, artistId, status: 'active', endsInMs: endsAt - Date.now() });
    const lapsingToken = await tokenFor(lapsing, songId);
    expect((await get(keyPath(songId, lapsingToken))).statusCode).toBe(200);

    await new Promise((resolve) => setTimeout(resolve, Math.max(0, endsAt - Date.now() + 100)));
    for (const url of [keyPath(songId, lapsingToken), audioPath(songId, lapsingToken)]) {
      const res = await get(url);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        message: 'Subscribe to Sine Quartet to play this song.',
        code: 'ACCESS_DENIED',
        reason: 'subscription_required',
        accessType: 'subscription',
        artistName: 'Sine Quartet',
        albumTitle: null,
        isPremium: false,
      });
    }
    expect((await get(playlistPath(songId, lapsingToken))).statusCode).toBe(200);
  });

  it('keeps playlist, key and audio for a bought song after its album turns premium; others are refused', async () => {
    const db = ctx.database.db;
    const [buyer, other] = await Promise.all([createUser(db), createUser(db)]);
    const albumId = await createAlbum(db, { artistId, title: 'Turns Premium' });
    const bought = await createSong(db, {
      artistId,
      albumId,
      accessType: 'purchase-only',
      durationSec: media.durationSec,
    });
    await media.install(ctx.app.services.mediaStore, `songs/${bought}/v1`);
    await buySong(db, buyer.id, bought);
    const buyerToken = await tokenFor(buyer, bought);
    expect((await get(keyPath(bought, buyerToken))).statusCode).toBe(200);

    await db.update(albums).set({ isPremium: true }).where(eq(albums.id, albumId));
    ctx.app.services.catalogCache.invalidate();
    const fresh = await tokenFor(buyer, bought);
    for (const url of [playlistPath(bought, fresh), keyPath(bought, fresh), audioPath(bought, fresh)]) {
      expect((await get(url)).statusCode, url).toBe(200);
    }
    const refused = await ctx.app.inject({
      method: 'GET',
      url: `/api/stream/song/${bought}`,
      headers: other.headers,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ reason: 'album_purchase_required' });
    const genuine = new StreamTokenService(ctx.config.secretKey).issue(holder(other), bought);
    expect((await get(keyPath(bought, genuine))).statusCode).toBe(403);
  });

  it('refuses a genuine token whose user may not play the song, and never caches the refusal', async () => {
    const db = ctx.database.db;
    const lapsed = await createUser(db);
    const subscriptionId = await subscribe(db, {
      userId: lapsed.id,
      artistId,
      status: 'expired',
      endsInMs: HOUR,
    });
    const genuine = new StreamTokenService(ctx.config.secretKey).issue(holder(lapsed), songId);
    expect((await get(keyPath(songId, genuine))).json()).toMatchObject({ code: 'ACCESS_DENIED' });
    // Renewed: the very next key request plays.
    await db.update(subscriptions).set({ status: 'active' }).where(eq(subscriptions.id, subscriptionId));
    expect((await get(keyPath(songId, genuine))).statusCode).toBe(200);
  });

  it('refuses the token of an account deleted since', async () => {
    const db = ctx.database.db;
    const leaving = await createUser(db, 'admin');
    const leavingToken = new StreamTokenService(ctx.config.secretKey).issue(holder(leaving), songId);
    await db.delete(users).where(eq(users.id, leaving.id));
    expect((await get(keyPath(songId, leavingToken))).json()).toMatchObject({ code: 'INVALID_STREAM_TOKEN' });
  });
});

describe('stream tokens on playlist, key and audio', () => {
  const tokenised = [
    ['playlist', playlistPath],
    ['key', keyPath],
    ['audio', audioPath],
  ] as const;

  it.each(tokenised)(
    "%s: works with the token alone, or with the token user's own session",
    async (_, to) => {
      expect((await get(to(songId, token))).statusCode).toBe(200);
      expect((await get(to(songId, token), subscriber.headers)).statusCode).toBe(200);
    },
  );

  it.each(tokenised)(
    '%s: refuses missing, forged, tampered, expired and other-song tokens with 403',
    async (_, to) => {
      const [payload, mac] = token.split('.');
      const foreignSecret = new StreamTokenService('a-different-secret-key-that-is-long-enough-42');
      const sameSecret = new StreamTokenService(ctx.config.secretKey);
      const bad = [
        '',
        'garbage',
        foreignSecret.issue(holder(subscriber), songId),
        // The last character changed (to 'A' unless it is one already: then the token would be unchanged).
        `${payload}.${mac!.slice(0, -1)}${mac!.endsWith('A') ? 'B' : 'A'}`,
        sameSecret.issue(holder(subscriber), songId, Date.now() - 7 * HOUR),
        await tokenFor(subscriber, otherSongId),
      ];
      for (const candidate of bad) {
        const res = await get(to(songId, candidate));
        expect(res.statusCode, candidate).toBe(403);
        expect(res.json()).toEqual({
          message: 'This stream link is invalid or has expired.',
          code: 'INVALID_STREAM_TOKEN',
        });
      }
      expect((await get(to(songId, '').replace('?token=', ''))).statusCode).toBe(403);
    },
  );

  it.each(tokenised)('%s: refuses a token replayed from another signed-in account', async (_, to) => {
    const res = await get(to(songId, token), stranger.headers);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      message: 'This stream link belongs to another account.',
      code: 'INVALID_STREAM_TOKEN',
    });
  });
});

describe('stream tokens end with the session that minted them', () => {
  it('refuses playlist, key and audio after logout, with the token alone or with a new session', async () => {
    const db = ctx.database.db;
    const listener = await createUser(db);
    await subscribe(db, { userId: listener.id, artistId, status: 'active', endsInMs: 30 * 24 * HOUR });
    const minted = await tokenFor(listener, songId);
    const paths = [playlistPath(songId, minted), keyPath(songId, minted), audioPath(songId, minted)];
    for (const url of paths) expect((await get(url)).statusCode, url).toBe(200);

    const logout = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/logout',
      headers: listener.headers,
    });
    expect(logout.statusCode).toBe(200);
    const sameUserElsewhere = await createUser(db);
    await db
      .update(sessions)
      .set({ userId: listener.id })
      .where(eq(sessions.id, sameUserElsewhere.sessionId));
    for (const url of paths) {
      for (const headers of [{}, listener.headers, sameUserElsewhere.headers]) {
        const res = await get(url, headers);
        expect(res.statusCode, url).toBe(403);
        expect(res.json()).toEqual({
          message: 'This stream link is invalid or has expired.',
          code: 'INVALID_STREAM_TOKEN',
        });
      }
    }
    // The new session gets its own working links; segments stay public (useless without the key).
    const fresh = await tokenFor(sameUserElsewhere, songId);
    expect((await get(keyPath(songId, fresh))).statusCode).toBe(200);
    expect((await get(segmentPath(songId))).statusCode).toBe(200);
  });

  it('refuses the token of a session revoked in the database (another instance) or expired', async () => {
    const db = ctx.database.db;
    for (const end of [{ revokedAt: new Date() }, { expiresAt: new Date(Date.now() - 1000) }]) {
      const listener = await createUser(db);
      await subscribe(db, { userId: listener.id, artistId, status: 'active', endsInMs: 30 * 24 * HOUR });
      const minted = new StreamTokenService(ctx.config.secretKey).issue(holder(listener), songId);
      await db.update(sessions).set(end).where(eq(sessions.id, listener.sessionId));
      const res = await get(keyPath(songId, minted));
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('INVALID_STREAM_TOKEN');
    }
  });
});

describe('segments', () => {
  it('are public, immutable video/mp2t with a strong ETag and no token', async () => {
    const res = await get(segmentPath(songId));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('video/mp2t');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(Number(res.headers['content-length'])).toBe(segmentBytes.length);
    expect(res.rawPayload.equals(segmentBytes)).toBe(true);
  });

  it('answer If-None-Match with 304 and no body', async () => {
    const { etag } = (await get(segmentPath(songId))).headers;
    const res = await get(segmentPath(songId), { 'if-none-match': String(etag) });
    expect(res.statusCode).toBe(304);
    expect(res.body).toBe('');
    expect(res.headers.etag).toBe(etag);
    expect((await get(segmentPath(songId), { 'if-none-match': '"stale"' })).statusCode).toBe(200);
  });

  it('answer byte ranges with 206 and Content-Range, and impossible ones with 416', async () => {
    const size = segmentBytes.length;
    const cases: Array<[string, number, number]> = [
      ['bytes=0-99', 0, 99],
      ['bytes=100-', 100, size - 1],
      ['bytes=-188', size - 188, size - 1],
      [`bytes=${size - 10}-${size + 1000}`, size - 10, size - 1],
    ];
    for (const [range, start, end] of cases) {
      const res = await get(segmentPath(songId), { range });
      expect(res.statusCode, range).toBe(206);
      expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/${size}`);
      expect(Number(res.headers['content-length'])).toBe(end - start + 1);
      expect(res.rawPayload.equals(segmentBytes.subarray(start, end + 1))).toBe(true);
    }
    const unsatisfiable = await get(segmentPath(songId), { range: `bytes=${size}-` });
    expect(unsatisfiable.statusCode).toBe(416);
    expect(unsatisfiable.headers['content-range']).toBe(`bytes */${size}`);
    expect(unsatisfiable.json()).toEqual({ message: 'Range not satisfiable', code: 'RANGE_NOT_SATISFIABLE' });
    // If-Range with an old validator means "send me the whole new file".
    const stale = await get(segmentPath(songId), { range: 'bytes=0-9', 'if-range': '"old"' });
    expect(stale.statusCode).toBe(200);
  });

  it('answer HEAD with the length and no body', async () => {
    const res = await ctx.app.inject({ method: 'HEAD', url: segmentPath(songId) });
    expect(res.statusCode).toBe(200);
    expect(Number(res.headers['content-length'])).toBe(segmentBytes.length);
    expect(res.body).toBe('');
  });

  it('serve only transcoder segment names of ready songs: never the key, the audio or other paths', async () => {
    for (const name of [
      'enc.key',
      'audio.m4a',
      'seg_1.ts',
      'seg_0000.ts.bak',
      '..%2Fenc.key',
      'seg_9999.ts',
    ]) {
      const res = await get(segmentPath(songId, name));
      expect(res.statusCode, name).toBe(404);
      expect(res.headers['content-type']).toContain('application/json');
    }
    expect((await get(segmentPath(processingId))).statusCode).toBe(404);
    expect((await get(segmentPath('00000000-0000-4000-8000-000000000000'))).statusCode).toBe(404);
  });
});

describe('fallback audio', () => {
  it('serves audio.m4a privately with byte ranges', async () => {
    const file = await readFile(path.join(media.dir, 'audio.m4a'));
    const res = await get(audioPath(songId, token));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/mp4');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.rawPayload.equals(file)).toBe(true);
    const part = await get(audioPath(songId, token), { range: 'bytes=0-1023' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-1023/${file.length}`);
    expect(part.rawPayload.equals(file.subarray(0, 1024))).toBe(true);
    expect((await get(audioPath(songId, token), { range: `bytes=${file.length}-` })).statusCode).toBe(416);
  });
});

describe('end to end with ffmpeg', () => {
  it('decodes the whole song through the rewritten playlist and the key endpoint over HTTP', async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    const { stderr } = await run(
      media.ffmpeg,
      [
        '-hide_banner',
        '-nostdin',
        '-i',
        `http://127.0.0.1:${port}${playlistPath(songId, token)}`,
        '-map',
        '0:a',
        '-f',
        'null',
        '-',
      ],
      { timeout: 60_000 },
    );
    expect(stderr).not.toMatch(/error|Unable to open key/i);
    const times = [...stderr.matchAll(/time=(\d+):(\d+):([\d.]+)/g)].map(
      ([, h, m, s]) => Number(h) * 3600 + Number(m) * 60 + Number(s),
    );
    expect(times.at(-1)).toBeGreaterThan(media.durationSec - 0.5);
  }, 60_000);
});
