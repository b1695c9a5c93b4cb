import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, plays, songRenditions, songs } from '../src/db/schema';
import { PREVIEW_BACKFILL_JOB } from '../src/modules/renditions/rendition.jobs';
import { TRANSCODE_JOB } from '../src/modules/renditions/transcode.job';
import { locateFfmpeg, runFfmpeg } from '../src/modules/media';
import { playHlsThroughApi } from './hls-decode';
import { createTestApp, diskPath, type TestContext } from './test-app';
import { buySong, createArtist, createSong, createUser, type TestUser } from './stream.fixtures';
import { transcodeTestSong, type TranscodedMedia } from './stream.media-fixtures';

let ctx: TestContext;
let work: string;
let artistUser: TestUser;
let listener: TestUser;
let artistId: string;
/** A 45 s WAV upload (purchase-only): its preview is clamped to 15-45 s. */
let songId: string;
/** A 12 s upload: shorter than a preview, so it previews its first half. */
let shortId: string;
const SONG_SECONDS = 45;

const get = (url: string, headers: Record<string, string> = {}, remoteAddress?: string) =>
  ctx.app.inject({ method: 'GET', url, headers, ...(remoteAddress && { remoteAddress }) });
const randomIp = () => `10.${[1, 2, 3].map(() => randomBytes(1)[0]).join('.')}`;
const tokenOf = (url: string) => new URL(url, 'http://x').searchParams.get('token')!;

async function upload(name: string, seconds: number, fields: Record<string, string> = {}): Promise<string> {
  const tools = await locateFfmpeg();
  const wav = path.join(work, `${name}.wav`);
  await runFfmpeg(tools.ffmpeg, [
    ...['-hide_banner', '-nostdin', '-v', 'error', '-y', '-f', 'lavfi'],
    ...['-i', `sine=frequency=440:duration=${seconds}`, '-ac', '2', wav],
  ]);
  const form = new FormData();
  form.append('title', name);
  form.append('accessType', 'purchase-only');
  form.append('price', '0.99');
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append('audio', new Blob([new Uint8Array(await readFile(wav))]), `${name}.wav`);
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/songs',
    headers: artistUser.headers,
    payload: form,
  });
  expect(res.statusCode).toBe(201);
  return res.json<{ song: { _id: string } }>().song._id;
}

const renditionsOf = (id: string) =>
  ctx.database.db.select().from(songRenditions).where(eq(songRenditions.songId, id));
const previewPlays = (id: string) =>
  ctx.database.db
    .select()
    .from(plays)
    .where(and(eq(plays.songId, id), eq(plays.kind, 'preview')));

beforeAll(async () => {
  ctx = await createTestApp();
  work = await mkdtemp(path.join(tmpdir(), 'backbeat-previews-'));
  const db = ctx.database.db;
  [artistUser, listener] = await Promise.all([createUser(db, 'artist'), createUser(db)]);
  artistId = await createArtist(db, { name: 'Preview Band', ownerUserId: artistUser.id });
  songId = await upload('Forty Five', SONG_SECONDS);
  shortId = await upload('Twelve', 12);
  await ctx.app.services.jobs.drain();
}, 180_000);
afterAll(async () => {
  await ctx.close();
  await rm(work, { recursive: true, force: true });
});

describe('preview renditions made by the job queue', () => {
  it('keeps a lossless upload as a FLAC master and makes its MP3 and a 30 s preview, clamped to the end', async () => {
    const rows = await renditionsOf(songId);
    const byKind = Object.fromEntries(rows.map((row) => [row.kind, row]));
    expect(Object.keys(byKind).sort()).toEqual(['flac', 'mp3', 'preview']);
    expect(byKind.preview).toMatchObject({ startSec: 15, durationSec: 30 });
    for (const row of rows) {
      const key = row.kind === 'preview' ? `${row.mediaKey}/enc.key` : row.mediaKey;
      expect(existsSync(diskPath(ctx.app.services.mediaStore, key))).toBe(true);
    }
  });

  it('previews the first half of a song shorter than 30 s', async () => {
    const [preview] = (await renditionsOf(shortId)).filter((row) => row.kind === 'preview');
    expect(preview).toMatchObject({ startSec: 0, durationSec: 6 });
  });
});

describe('GET /api/stream/song/:id/preview', () => {
  it('plays only the preview window, under its own key, while the song itself stays refused', async () => {
    const refused = await get(`/api/stream/song/${songId}`, listener.headers);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ message: 'You need to purchase this song to play it.' });

    const res = await get(`/api/stream/song/${songId}/preview`, listener.headers);
    expect(res.statusCode).toBe(200);
    const preview = res.json<{
      url: string;
      audioUrl: string;
      firstSegmentUrl: string;
      startSec: number;
      durationSec: number;
    }>();
    expect(preview).toMatchObject({ startSec: 15, durationSec: 30 });
    expect(preview.url).toMatch(new RegExp(`^/api/stream/preview/${songId}/index\\.m3u8\\?token=`));
    expect(preview.audioUrl).toMatch(new RegExp(`^/api/stream/preview/${songId}/audio\\?token=`));

    const played = await playHlsThroughApi(ctx.app, preview.url, listener.headers);
    expect(Math.abs(played.seconds - 30)).toBeLessThan(0.3);
    expect(played.keyUrl).toBe(`/api/stream/preview/${songId}/key?token=${tokenOf(preview.url)}`);
    played.segmentUrls.forEach((url) => expect(url).toMatch(`/api/stream/preview/${songId}/seg_`));
    // The answer names the preview's first segment exactly as its playlist does (never the song's).
    expect(preview.firstSegmentUrl).toBe(played.segmentUrls[0]);
    expect(preview.firstSegmentUrl).toBe(`/api/stream/preview/${songId}/seg_0000.ts`);

    // The song's own key is a different one, and neither a preview token nor the listener's session opens it.
    const { hlsPrefix } = (await ctx.database.db.select().from(songs).where(eq(songs.id, songId)))[0]!;
    const fullKey = await readFile(diskPath(ctx.app.services.mediaStore, `${hlsPrefix}/enc.key`));
    expect(played.key.equals(fullKey)).toBe(false);
    const token = encodeURIComponent(tokenOf(preview.url));
    for (const url of [
      `/api/stream/hls/${songId}/key?token=${token}`,
      `/api/stream/hls/${songId}/index.m3u8?token=${token}`,
      `/api/stream/audio/${songId}?token=${token}`,
    ]) {
      const full = await get(url, listener.headers);
      expect(full.statusCode).toBe(403);
      expect(full.json()).toMatchObject({ code: 'INVALID_STREAM_TOKEN' });
    }
    // A preview token names its song: it opens no other song's preview.
    const other = await get(`/api/stream/preview/${shortId}/key?token=${token}`, listener.headers);
    expect(other.statusCode).toBe(403);
    expect(other.json()).toMatchObject({ code: 'INVALID_PREVIEW_TOKEN' });
  });

  it('never takes a stream token for a preview token', async () => {
    const buyer = await createUser(ctx.database.db);
    await buySong(ctx.database.db, buyer.id, songId);
    const { url } = (await get(`/api/stream/song/${songId}`, buyer.headers)).json<{ url: string }>();
    const res = await get(`/api/stream/preview/${songId}/key?token=${encodeURIComponent(tokenOf(url))}`);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'INVALID_PREVIEW_TOKEN' });
  });

  it('serves the plain fallback of the preview window only', async () => {
    const { audioUrl } = (await get(`/api/stream/song/${songId}/preview`, listener.headers)).json<{
      audioUrl: string;
    }>();
    const res = await get(audioUrl, listener.headers);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/mp4');
    const file = path.join(work, 'preview.m4a');
    await writeFile(file, res.rawPayload);
    const tools = await locateFfmpeg();
    const { stdout } = await runFfmpeg(tools.ffprobe!, [
      ...['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file],
    ]);
    expect(Math.abs(Number(stdout) - 30)).toBeLessThan(0.3);
  });

  it('counts one preview play per preview (guests too), never a listen', async () => {
    const before = (await previewPlays(songId)).length;
    // A listener of their own: the same account's tokens for a song, issued in the same second, are one token.
    const fan = await createUser(ctx.database.db);
    const { url } = (await get(`/api/stream/song/${songId}/preview`, fan.headers)).json<{ url: string }>();
    const keyUrl = `/api/stream/preview/${songId}/key?token=${encodeURIComponent(tokenOf(url))}`;
    expect((await get(keyUrl, fan.headers)).statusCode).toBe(200);
    expect((await get(keyUrl, fan.headers)).statusCode).toBe(200);
    const guest = (await get(`/api/stream/song/${songId}/preview`, {}, randomIp())).json<{ url: string }>();
    expect(
      (await get(`/api/stream/preview/${songId}/key?token=${encodeURIComponent(tokenOf(guest.url))}`))
        .statusCode,
    ).toBe(200);

    const rows = await previewPlays(songId);
    expect(rows.length - before).toBe(2);
    expect(rows.filter((row) => row.userId === fan.id)).toEqual([
      expect.objectContaining({ kind: 'preview', secondsListened: 0 }),
    ]);
    expect(rows.filter((row) => row.userId === null).length).toBeGreaterThanOrEqual(1);
    const recent = await get('/api/users/me/recently-played', fan.headers);
    expect(recent.json()).toEqual({ songs: [] });
    // The song itself still cannot be recorded as a listen.
    const play = await ctx.app.inject({
      method: 'POST',
      url: '/api/stream/plays',
      headers: fan.headers,
      payload: { songId, secondsListened: 20 },
    });
    expect(play.statusCode).toBe(403);
  });

  it('binds a listener’s preview token to their account and session', async () => {
    const other = await createUser(ctx.database.db);
    const { url } = (await get(`/api/stream/song/${songId}/preview`, listener.headers)).json<{
      url: string;
    }>();
    const res = await get(url, other.headers);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      message: 'This preview link belongs to another account.',
      code: 'INVALID_PREVIEW_TOKEN',
    });
  });

  it('lets guests preview, limited per address with Retry-After', async () => {
    const ip = randomIp();
    for (let i = 0; i < 30; i += 1) {
      expect((await get(`/api/stream/song/${songId}/preview`, {}, ip)).statusCode).toBe(200);
    }
    const limited = await get(`/api/stream/song/${songId}/preview`, {}, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another address, and a signed-in listener on the same one, are not held back.
    expect((await get(`/api/stream/song/${songId}/preview`, {}, randomIp())).statusCode).toBe(200);
    expect((await get(`/api/stream/song/${songId}/preview`, listener.headers, ip)).statusCode).toBe(200);
  });

  it('answers 404 for an unknown song and 409 while a song is processing', async () => {
    const unknown = await get(
      `/api/stream/song/00000000-0000-4000-8000-000000000000/preview`,
      listener.headers,
    );
    expect(unknown.statusCode).toBe(404);
    const processing = await createSong(ctx.database.db, { artistId, status: 'processing', hlsPrefix: null });
    const res = await get(`/api/stream/song/${processing}/preview`, listener.headers);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'SONG_PROCESSING' });
  });
});

describe('the dashboards', () => {
  it('count a preview as a preview play of the artist and the platform, never as a play', async () => {
    const admin = await createUser(ctx.database.db, 'admin');
    const figures = async () => {
      const read = async (url: string, user: TestUser) => {
        const res = await get(url, user.headers);
        expect(res.statusCode, res.body).toBe(200);
        return res.json<Record<string, unknown>>();
      };
      const overview = await read('/api/admin/dashboard/overview', artistUser);
      const platform = await read('/api/admin/dashboard/overview', admin);
      const series = (await read('/api/admin/dashboard/plays?bucket=month', artistUser)).points as Array<{
        plays: number;
        previewPlays: number;
      }>;
      const top = (await read('/api/admin/dashboard/top?type=song&by=plays', artistUser)).items as Array<{
        _id: string;
        plays: number;
      }>;
      return {
        artist: { plays: overview.plays, previewPlays: overview.previewPlays },
        platform: { plays: platform.plays, previewPlays: platform.previewPlays },
        series: {
          plays: series.reduce((sum, point) => sum + point.plays, 0),
          previewPlays: series.reduce((sum, point) => sum + point.previewPlays, 0),
        },
        ranked: top.find((item) => item._id === songId)?.plays ?? 0,
      };
    };
    const before = await figures();

    const fan = await createUser(ctx.database.db);
    const { url } = (await get(`/api/stream/song/${songId}/preview`, fan.headers)).json<{ url: string }>();
    const played = await playHlsThroughApi(ctx.app, url, fan.headers);
    expect(played.seconds).toBeGreaterThan(29);
    const previewed = await figures();
    const plusPreview = (f: { plays: unknown; previewPlays: unknown }) => ({
      plays: f.plays,
      previewPlays: Number(f.previewPlays) + 1,
    });
    expect(previewed).toEqual({
      artist: plusPreview(before.artist),
      platform: plusPreview(before.platform),
      series: plusPreview(before.series),
      ranked: before.ranked,
    });

    // A full play of the song, once bought (its audio fetched: its key), moves the plays and leaves the preview
    // figure where it was.
    await buySong(ctx.database.db, fan.id, songId);
    const stream = await get(`/api/stream/song/${songId}`, fan.headers);
    expect(stream.statusCode, stream.body).toBe(200);
    const key = await get(`/api/stream/hls/${songId}/key?token=${tokenOf(stream.json().url)}`, fan.headers);
    expect(key.statusCode, key.body).toBe(200);
    const play = await ctx.app.inject({
      method: 'POST',
      url: '/api/stream/plays',
      headers: fan.headers,
      payload: { songId, secondsListened: 40 },
    });
    expect(play.statusCode, play.body).toBe(201);
    const plusPlay = (f: { plays: unknown; previewPlays: unknown }) => ({
      plays: Number(f.plays) + 1,
      previewPlays: f.previewPlays,
    });
    expect(await figures()).toEqual({
      artist: plusPlay(previewed.artist),
      platform: plusPlay(previewed.platform),
      series: plusPlay(previewed.series),
      ranked: previewed.ranked + 1,
    });
  });
});

describe('songs made before previews', () => {
  let media: TranscodedMedia;
  beforeAll(async () => {
    media = await transcodeTestSong(40);
  }, 60_000);
  afterAll(() => media.cleanup());

  it('get theirs lazily (409 while it is made, queued once) and from the start-up backfill', async () => {
    const db = ctx.database.db;
    const [lazy, backfilled] = await Promise.all([
      createSong(db, { artistId, accessType: 'purchase-only', durationSec: media.durationSec }),
      createSong(db, { artistId, accessType: 'purchase-only', durationSec: media.durationSec }),
    ]);
    for (const id of [lazy, backfilled]) await media.install(ctx.app.services.mediaStore, `songs/${id}/v1`);

    for (let i = 0; i < 2; i += 1) {
      const res = await get(`/api/stream/song/${lazy}/preview`, listener.headers);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({
        message: 'The preview of this song is being prepared. Try again in a moment.',
        code: 'PREVIEW_PREPARING',
      });
    }
    const queued = await db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `song-preview:${lazy}`));
    expect(queued).toHaveLength(1);

    const backfill = await ctx.app.services.jobs.enqueue(PREVIEW_BACKFILL_JOB, {});
    // What the demo seed does by default (SEED_DEMO_WAIT=songs): only transcodes run; previews wait for the queue.
    await ctx.app.services.jobs.drain([TRANSCODE_JOB]);
    expect((await get(`/api/stream/song/${lazy}/preview`, listener.headers)).statusCode).toBe(409);
    const [waiting] = await db.select().from(jobs).where(eq(jobs.id, backfill!));
    expect(waiting?.status).toBe('queued');

    await ctx.app.services.jobs.drain();
    for (const id of [lazy, backfilled]) {
      const res = await get(`/api/stream/song/${id}/preview`, listener.headers);
      expect(res.statusCode).toBe(200);
      const played = await playHlsThroughApi(ctx.app, res.json<{ url: string }>().url, listener.headers);
      expect(Math.abs(played.seconds - 30)).toBeLessThan(0.3);
    }
  });
});

describe('the artist picks where the preview starts', () => {
  it('refuses a start past the end, and remakes the preview from a new start', async () => {
    const put = (previewStart: string) => {
      const form = new FormData();
      form.append('previewStart', previewStart);
      return ctx.app.inject({
        method: 'PUT',
        url: `/api/songs/${songId}`,
        headers: artistUser.headers,
        payload: form,
      });
    };
    const before = (await renditionsOf(songId)).find((row) => row.kind === 'preview')!;

    const outside = 'previewStart: must be within the song (before 0:45)';
    const format = 'previewStart: must be a time such as 45 or 1:05 (seconds, or minutes:seconds)';
    for (const [value, message, code] of [
      ['0:45', outside, 'BAD_REQUEST'],
      ['90', outside, 'BAD_REQUEST'],
      ['soon', format, 'VALIDATION_ERROR'],
      ['-3', format, 'VALIDATION_ERROR'],
    ]) {
      const res = await put(value!);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message, code });
    }
    expect(
      (await ctx.database.db.select().from(songs).where(eq(songs.id, songId)))[0]!.previewStartSec,
    ).toBeNull();

    const ok = await put('0:05');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ song: { previewStartSec: 5 } });
    await ctx.app.services.jobs.drain();
    const after = (await renditionsOf(songId)).find((row) => row.kind === 'preview')!;
    expect(after).toMatchObject({ startSec: 5, durationSec: 30 });
    expect(after.mediaKey).not.toBe(before.mediaKey);
    expect(existsSync(diskPath(ctx.app.services.mediaStore, before.mediaKey))).toBe(false);
    const res = await get(`/api/stream/song/${songId}/preview`, listener.headers);
    expect(res.json()).toMatchObject({ startSec: 5, durationSec: 30 });
  });
});
