import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloads, jobs, songRenditions } from '../src/db/schema';
import { locateFfmpeg, runFfmpeg } from '../src/modules/media';
import { probeAudioBytes, unzip } from './audio-files';
import { catalogFixtures, multipartForm } from './catalog-fixtures';
import { requests, type TestUser } from './payments.fixtures';
import { createTestApp, type TestContext } from './test-app';

/**
 * Downloads through HTTP with real files: uploads transcoded by the job queue, bought through the sandbox gateway,
 * refunded by an admin; the ZIP is read back with yauzl and every file with ffprobe.
 */
let ctx: TestContext;
let http: ReturnType<typeof requests>;
let f: ReturnType<typeof catalogFixtures>;
let work: string;
let artist: TestUser;
let admin: TestUser;
let buyer: TestUser;
let stranger: TestUser;
let artistId: string;
let albumId: string;
/** Track 1 and 2 are lossless (WAV uploads), track 3 is an MP3 upload. */
const tracks: Array<{ id: string; title: string; source: string }> = [];
let wavMd5: string;

const upload = async (title: string, file: string, extra: Record<string, string> = {}) => {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/songs',
    headers: artist.headers,
    payload: multipartForm({
      title,
      accessType: 'purchase-only',
      price: '0.99',
      album: albumId,
      ...extra,
      audio: { file: await readFile(file), name: path.basename(file) },
    }),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ song: { _id: string } }>().song._id;
};

async function buy(user: TestUser, itemType: 'song' | 'album', itemId: string, amount: number) {
  const created = await http.post('/api/payments/sandbox/create-order', { itemType, itemId, amount }, user);
  expect(created.statusCode, created.body).toBe(201);
  const orderId = created.json<{ order: { _id: string } }>().order._id;
  const paid = await http.post(`/api/payments/sandbox/orders/${orderId}/confirm`, { outcome: 'pay' }, user);
  expect(paid.statusCode, paid.body).toBe(200);
  return orderId;
}

const link = (user: TestUser, itemType: string, id: string, format = 'mp3') =>
  http.post(`/api/downloads/${itemType}/${id}`, { format }, user);
const fetchFile = (url: string, user?: TestUser) =>
  ctx.app.inject({ method: 'GET', url, headers: user?.headers ?? {} });

async function linkUrl(user: TestUser, itemType: string, id: string, format = 'mp3'): Promise<string> {
  const res = await link(user, itemType, id, format);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ url: string }>().url;
}

beforeAll(async () => {
  ctx = await createTestApp();
  http = requests(ctx);
  f = catalogFixtures(ctx.database);
  work = await mkdtemp(path.join(tmpdir(), 'backbeat-downloads-'));
  [artist, admin, buyer, stranger] = await Promise.all([
    f.user('artist'),
    f.user('admin'),
    f.user('user'),
    f.user('user'),
  ]);
  artistId = (await f.artist({ name: 'Tide Collective', ownerUserId: artist.id })).id;
  const cover = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#3366ff' } })
    .png()
    .toBuffer();
  const album = await ctx.app.inject({
    method: 'POST',
    url: '/api/albums',
    headers: artist.headers,
    payload: multipartForm({
      title: 'Café Sessions',
      artist: artistId,
      genre: 'Jazz',
      price: '4.99',
      cover: { file: cover, name: 'cover.png' },
    }),
  });
  expect(album.statusCode, album.body).toBe(201);
  albumId = album.json<{ album: { _id: string } }>().album._id;

  const tools = await locateFfmpeg();
  const synth = (name: string, args: string[]) =>
    runFfmpeg(tools.ffmpeg, [
      '-hide_banner',
      '-nostdin',
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      ...args,
      path.join(work, name),
    ]);
  await synth('one.wav', ['-i', 'sine=frequency=440:duration=6', '-ac', '2']);
  await synth('two.wav', ['-i', 'sine=frequency=550:duration=5', '-ac', '2']);
  await synth('three.mp3', ['-i', 'sine=frequency=660:duration=5', '-c:a', 'libmp3lame', '-b:a', '128k']);
  wavMd5 = (
    await runFfmpeg(tools.ffmpeg, ['-v', 'error', '-i', path.join(work, 'one.wav'), '-f', 'md5', '-'])
  ).stdout.trim();
  for (const [title, file] of [
    ['Harbour Lights', 'one.wav'],
    ['Tide / Pool: Part "2"', 'two.wav'],
    ['Lossy Ending', 'three.mp3'],
  ] as const) {
    tracks.push({ id: await upload(title, path.join(work, file)), title, source: file });
  }
  await ctx.app.services.jobs.drain();
  await buy(buyer, 'album', albumId, 499);
}, 240_000);
afterAll(async () => {
  await ctx.close();
  await rm(work, { recursive: true, force: true });
});

describe('what a buyer may download', () => {
  it('offers MP3 for everything and FLAC only where every song was lossless', async () => {
    const album = await http.get(`/api/downloads/album/${albumId}`, buyer);
    expect(album.json()).toEqual({
      itemType: 'album',
      itemId: albumId,
      title: 'Café Sessions',
      formats: ['mp3'],
      songCount: 3,
    });
    expect((await http.get(`/api/downloads/song/${tracks[0]!.id}`, buyer)).json()).toMatchObject({
      formats: ['mp3', 'flac'],
      songCount: 1,
    });
    expect((await http.get(`/api/downloads/song/${tracks[2]!.id}`, buyer)).json()).toMatchObject({
      formats: ['mp3'],
    });
    const lossy = await link(buyer, 'song', tracks[2]!.id, 'flac');
    expect(lossy.statusCode).toBe(409);
    expect(lossy.json()).toEqual({
      message: 'This song was not uploaded in a lossless format: download it as MP3 instead.',
      code: 'NOT_LOSSLESS',
    });
    expect((await link(buyer, 'album', albumId, 'flac')).json()).toMatchObject({ code: 'NOT_LOSSLESS' });
  });

  it('lists canDownload per viewer in the catalogue', async () => {
    const forViewer = async (user: TestUser) =>
      (await http.get(`/api/songs/album/${albumId}`, user))
        .json<Array<{ canDownload: boolean }>>()
        .map((song) => song.canDownload);
    expect(await forViewer(buyer)).toEqual([true, true, true]);
    expect(await forViewer(stranger)).toEqual([false, false, false]);
    expect(await forViewer(artist)).toEqual([true, true, true]);
  });
});

describe('the album as one ZIP', () => {
  it('streams "01 - Title.mp3" files tagged for ffprobe, the cover, and an exact length', async () => {
    const res = await link(buyer, 'album', albumId);
    expect(res.statusCode).toBe(201);
    const body = res.json<{ url: string; expiresAt: string; fileName: string }>();
    expect(body.fileName).toBe('Tide Collective - Café Sessions.zip');
    expect(body.url).toMatch(/^\/api\/downloads\/file\?token=/);
    const ttl = new Date(body.expiresAt).getTime() - Date.now();
    expect(ttl).toBeGreaterThan(9 * 60 * 1000);
    expect(ttl).toBeLessThanOrEqual(10 * 60 * 1000);

    const file = await fetchFile(body.url, buyer);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/zip');
    expect(file.headers['cache-control']).toBe('private, no-store');
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="Tide Collective - Cafe Sessions.zip"; filename*=UTF-8''Tide%20Collective%20-%20Caf%C3%A9%20Sessions.zip`,
    );
    expect(Number(file.headers['content-length'])).toBe(file.rawPayload.length);

    const entries = await unzip(file.rawPayload);
    expect([...entries.keys()]).toEqual([
      '01 - Harbour Lights.mp3',
      '02 - Tide Pool Part 2.mp3',
      '03 - Lossy Ending.mp3',
      'cover.jpg',
    ]);
    for (const [index, track] of tracks.entries()) {
      const name = [...entries.keys()][index]!;
      const probe = await probeAudioBytes(entries.get(name)!, 'mp3');
      expect(probe).toMatchObject({ codec: 'mp3', bitRate: 320_000, hasCover: true });
      expect(probe.tags).toMatchObject({
        title: track.title,
        artist: 'Tide Collective',
        album: 'Café Sessions',
        album_artist: 'Tide Collective',
        track: `${index + 1}/3`,
        genre: 'Jazz',
      });
    }
    expect(await sharp(entries.get('cover.jpg')!).metadata()).toMatchObject({ format: 'jpeg' });
    const counted = await ctx.database.db
      .select({ n: count() })
      .from(downloads)
      .where(and(eq(downloads.userId, buyer.id), eq(downloads.itemType, 'album')));
    expect(counted[0]!.n).toBe(1);
  });

  it('makes missing MP3s once (202 with Retry-After) and then links them', async () => {
    const [first] = tracks;
    await ctx.database.db
      .delete(songRenditions)
      .where(and(eq(songRenditions.songId, first!.id), eq(songRenditions.kind, 'mp3')));
    for (let i = 0; i < 2; i += 1) {
      const res = await link(buyer, 'album', albumId);
      expect(res.statusCode).toBe(202);
      expect(res.headers['retry-after']).toBe('3');
      expect(res.json()).toEqual({
        message: 'Preparing the album for download. It starts in a moment.',
        code: 'DOWNLOAD_PREPARING',
        retryAfterSec: 3,
      });
    }
    const queued = await ctx.database.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `song-mp3:${first!.id}`));
    expect(queued.filter((job) => job.status === 'queued')).toHaveLength(1);
    await ctx.app.services.jobs.drain();
    expect((await link(buyer, 'album', albumId)).statusCode).toBe(201);
  });
});

describe('single songs', () => {
  it('downloads a lossless song as FLAC with the original samples, tags and cover', async () => {
    const url = await linkUrl(buyer, 'song', tracks[0]!.id, 'flac');
    const file = await fetchFile(url, buyer);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('audio/flac');
    expect(file.headers['content-disposition']).toContain('filename="Tide Collective - Harbour Lights.flac"');
    const probe = await probeAudioBytes(file.rawPayload, 'flac');
    expect(probe).toMatchObject({ codec: 'flac', hasCover: true, audioMd5: wavMd5 });
    expect(probe.tags).toMatchObject({ title: 'Harbour Lights', album: 'Café Sessions', track: '1' });
  });

  it('downloads an MP3 with its exact length and current tags (an edited title is never stale)', async () => {
    const edit = await ctx.app.inject({
      method: 'PUT',
      url: `/api/songs/${tracks[2]!.id}`,
      headers: artist.headers,
      payload: multipartForm({ title: 'Lossy Ending (Edit)' }),
    });
    expect(edit.statusCode).toBe(200);
    const file = await fetchFile(await linkUrl(buyer, 'song', tracks[2]!.id), buyer);
    expect(file.headers['content-type']).toBe('audio/mpeg');
    expect(Number(file.headers['content-length'])).toBe(file.rawPayload.length);
    expect((await probeAudioBytes(file.rawPayload, 'mp3')).tags.title).toBe('Lossy Ending (Edit)');
  });
});

describe('who may not', () => {
  it('refuses a listener who did not buy (403, nothing counted) and a buyer’s link in another account', async () => {
    for (const res of [
      await http.get(`/api/downloads/album/${albumId}`, stranger),
      await link(stranger, 'album', albumId),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        message: 'You need to purchase this album to download it.',
        code: 'DOWNLOAD_DENIED',
      });
    }
    const song = await link(stranger, 'song', tracks[0]!.id);
    expect(song.statusCode).toBe(403);
    expect(song.json()).toEqual({
      message: 'You need to purchase this song to download it.',
      code: 'DOWNLOAD_DENIED',
    });

    const url = await linkUrl(buyer, 'album', albumId);
    const borrowed = await fetchFile(url, stranger);
    expect(borrowed.statusCode).toBe(403);
    expect(borrowed.json()).toEqual({
      message: 'This download link belongs to another account.',
      code: 'INVALID_DOWNLOAD_LINK',
    });
    expect(await http.get('/api/downloads/album/00000000-0000-4000-8000-000000000000', buyer)).toMatchObject({
      statusCode: 404,
    });
    expect((await http.post(`/api/downloads/album/${albumId}`, { format: 'mp3' })).statusCode).toBe(401);
  });

  it('refuses tampered, missing and expired links, and links whose session ended', async () => {
    const url = await linkUrl(buyer, 'song', tracks[0]!.id);
    const token = new URL(url, 'http://x').searchParams.get('token')!;
    const tampered = `${token.slice(0, 10)}${token[10] === 'A' ? 'B' : 'A'}${token.slice(11)}`;
    for (const bad of [
      `/api/downloads/file?token=${tampered}`,
      '/api/downloads/file',
      `/api/downloads/file?token=x.y`,
    ]) {
      const res = await fetchFile(bad, buyer);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'INVALID_DOWNLOAD_LINK' });
    }
    // A HEAD would run the download for nothing: there is none.
    expect((await ctx.app.inject({ method: 'HEAD', url, headers: buyer.headers })).statusCode).toBe(404);
    // Without a cookie the link still works while its session lives (a download manager), not after logout.
    const leaving = await f.user('user');
    await buy(leaving, 'song', tracks[1]!.id, 99);
    const leavingUrl = await linkUrl(leaving, 'song', tracks[1]!.id);
    expect((await fetchFile(leavingUrl)).statusCode).toBe(200);
    expect((await http.post('/api/users/logout', {}, leaving)).statusCode).toBe(200);
    expect((await fetchFile(leavingUrl)).statusCode).toBe(403);
  });

  it('takes the right away with a refund: the link already made and a new one are refused', async () => {
    const refunded = await f.user('user');
    const orderId = await buy(refunded, 'album', albumId, 499);
    const url = await linkUrl(refunded, 'album', albumId);
    const refund = await http.post(`/api/admin/orders/${orderId}/refund`, {}, admin);
    expect(refund.statusCode, refund.body).toBe(200);
    for (const res of [await fetchFile(url, refunded), await link(refunded, 'album', albumId)]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'DOWNLOAD_DENIED' });
    }
  });

  it('limits downloads per account to 60 an hour, with Retry-After', async () => {
    const heavy = await f.user('user');
    await buy(heavy, 'song', tracks[2]!.id, 99);
    const url = await linkUrl(heavy, 'song', tracks[2]!.id);
    for (let i = 0; i < 60; i += 1) expect((await fetchFile(url, heavy)).statusCode).toBe(200);
    const limited = await fetchFile(url, heavy);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const counted = await ctx.database.db
      .select({ n: count() })
      .from(downloads)
      .where(eq(downloads.userId, heavy.id));
    expect(counted[0]!.n).toBe(60);
    // 61 whole files: past the default 30 s when the machine is busy (it timed out at a load average of 25).
  }, 120_000);
});

describe('subscribers', () => {
  it('may download subscription songs only when the artist allows it (an artist setting, off by default)', async () => {
    const subscriber = await f.user('user');
    const song = await upload('For Subscribers', path.join(work, 'two.wav'), {
      accessType: 'subscription',
      album: '',
    });
    await ctx.app.services.jobs.drain();
    const created = await http.post(
      `/api/subscriptions/artist/${artistId}`,
      { gateway: 'sandbox' },
      subscriber,
    );
    expect(created.statusCode, created.body).toBe(201);
    const orderId = created.json<{ transactionId: string }>().transactionId;
    await http.post(`/api/payments/sandbox/orders/${orderId}/confirm`, { outcome: 'pay' }, subscriber);

    expect((await link(subscriber, 'song', song)).statusCode).toBe(403);
    const allow = await ctx.app.inject({
      method: 'PUT',
      url: `/api/artists/${artistId}`,
      headers: artist.headers,
      payload: multipartForm({ allowSubscriberDownloads: 'true' }),
    });
    expect(allow.statusCode).toBe(200);
    expect(allow.json()).toMatchObject({ artist: { allowSubscriberDownloads: true } });
    expect((await link(subscriber, 'song', song)).statusCode).toBe(201);
    // Purchase-only songs still need a purchase.
    expect((await link(subscriber, 'song', tracks[0]!.id)).statusCode).toBe(403);
  });
});
