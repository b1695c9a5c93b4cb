import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, songs } from '../src/db/schema';
import { locateFfmpeg, runFfmpeg } from '../src/modules/media';
import { isPublicMedia } from '../src/modules/streaming';
import { LocalMediaStore, S3MediaStore, type MediaStore } from '../src/storage';
import { probeAudioBytes, unzip } from './audio-files';
import { catalogFixtures, multipartForm } from './catalog-fixtures';
import { playHlsThroughApi } from './hls-decode';
import { requests, type TestUser } from './payments.fixtures';
import { startLocalS3, type LocalS3 } from './s3-local';
import { createTestApp, type TestContext } from './test-app';

/**
 * The same media journey on both stores, through HTTP: an album cover and a lossless upload, transcoded by the job
 * queue into encrypted HLS, a preview and a FLAC master (and its MP3); played back and decoded; downloaded tagged as
 * FLAC, MP3 and an album ZIP; deleted with everything it wrote. On S3 the segments sit under the public prefix and
 * nothing else does. Then the store goes down: uploads and playback answer 503 and nothing is half-written, and a
 * job caught by the outage completes on its retry.
 */
let s3: LocalS3;
let client: S3Client;
let work: string;
let wav: string;

beforeAll(async () => {
  s3 = await startLocalS3({ publicPrefixes: ['public/'] });
  client = new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    credentials: s3.credentials,
    maxAttempts: 1,
  });
  work = await mkdtemp(path.join(tmpdir(), 'backbeat-media-pipeline-'));
  wav = path.join(work, 'take.wav');
  const tools = await locateFfmpeg();
  await runFfmpeg(tools.ffmpeg, [
    ...['-hide_banner', '-nostdin', '-v', 'error', '-y', '-f', 'lavfi'],
    ...['-i', 'sine=frequency=440:duration=6', '-ac', '2', wav],
  ]);
}, 60_000);

afterAll(async () => {
  client?.destroy();
  await s3?.stop();
  await rm(work, { recursive: true, force: true });
});

async function bucketKeys(): Promise<string[]> {
  const page = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
  return (page.Contents ?? []).map((object) => object.Key!);
}

/** An artist with an album that has a cover: what every upload below goes into. */
async function artistWithAlbum(ctx: TestContext): Promise<{ artist: TestUser; albumId: string }> {
  const f = catalogFixtures(ctx.database);
  const artist = await f.user('artist');
  const artistId = (await f.artist({ name: 'Harbour Lights', ownerUserId: artist.id })).id;
  const cover = await sharp({ create: { width: 320, height: 320, channels: 3, background: '#884422' } })
    .png()
    .toBuffer();
  const album = await ctx.app.inject({
    method: 'POST',
    url: '/api/albums',
    headers: artist.headers,
    payload: multipartForm({
      title: 'Low Tide',
      artist: artistId,
      genre: 'Jazz',
      price: '4.99',
      cover: { file: cover, name: 'cover.png' },
    }),
  });
  expect(album.statusCode, album.body).toBe(201);
  return { artist, albumId: album.json<{ album: { _id: string } }>().album._id };
}

const uploadTo = async (ctx: TestContext, artist: TestUser, albumId: string, title: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/songs',
    headers: artist.headers,
    payload: multipartForm({
      title,
      accessType: 'purchase-only',
      price: '0.99',
      album: albumId,
      audio: { file: await readFile(wav), name: 'take.wav' },
    }),
  });

const stores: Array<[string, (dataDir: string) => MediaStore | undefined]> = [
  ['local disk', () => undefined],
  [
    'S3 (local S3 server)',
    () => new S3MediaStore({ bucket: s3.bucket, client, isPublic: isPublicMedia, publicPrefix: 'public' }),
  ],
];

describe.each(stores)('media on %s', (storeName, makeStore) => {
  const onS3 = storeName.startsWith('S3');
  let ctx: TestContext;
  let http: ReturnType<typeof requests>;
  let artist: TestUser;
  let albumId: string;
  let songId: string;
  let hlsPrefix: string;

  const upload = (title: string) => uploadTo(ctx, artist, albumId, title);
  const songRow = async (id: string) =>
    (await ctx.database.db.select().from(songs).where(eq(songs.id, id)))[0]!;

  beforeAll(async () => {
    ctx = await createTestApp({ services: { mediaStore: makeStore('') } });
    if (!onS3) expect(ctx.app.services.mediaStore).toBeInstanceOf(LocalMediaStore);
    http = requests(ctx);
    ({ artist, albumId } = await artistWithAlbum(ctx));
  }, 60_000);

  afterAll(async () => {
    s3.setAvailable(true);
    await ctx?.close();
  });

  it('transcodes an upload into encrypted HLS that plays back whole, with its preview', async () => {
    const res = await upload('First Light');
    expect(res.statusCode, res.body).toBe(201);
    songId = res.json<{ song: { _id: string } }>().song._id;
    await ctx.app.services.jobs.drain();
    const row = await songRow(songId);
    expect(row.status).toBe('ready');
    hlsPrefix = row.hlsPrefix!;

    const stream = await http.get(`/api/stream/song/${songId}`, artist);
    expect(stream.statusCode, stream.body).toBe(200);
    const played = await playHlsThroughApi(ctx.app, stream.json<{ url: string }>().url, artist.headers);
    expect(played.seconds).toBeGreaterThan(5.5);
    expect(played.key).toHaveLength(16);

    const preview = await http.get(`/api/stream/song/${songId}/preview`, artist);
    expect(preview.statusCode, preview.body).toBe(200);
    const clip = await playHlsThroughApi(ctx.app, preview.json<{ url: string }>().url, artist.headers);
    expect(clip.seconds).toBeGreaterThan(1);
  });

  it('downloads tagged FLAC, MP3 and the album ZIP with its cover, read from the store', async () => {
    const fetchLink = async (itemType: string, id: string, format: string) => {
      const link = await http.post(`/api/downloads/${itemType}/${id}`, { format }, artist);
      expect(link.statusCode, link.body).toBe(201);
      const file = await ctx.app.inject({ method: 'GET', url: link.json<{ url: string }>().url });
      expect(file.statusCode).toBe(200);
      return file.rawPayload;
    };
    const flac = await probeAudioBytes(await fetchLink('song', songId, 'flac'), 'flac');
    expect(flac.codec).toBe('flac');
    expect(flac.tags).toMatchObject({ title: 'First Light', album: 'Low Tide' });
    expect(flac.hasCover).toBe(true);
    const mp3 = await probeAudioBytes(await fetchLink('song', songId, 'mp3'), 'mp3');
    expect(mp3.codec).toBe('mp3');
    expect(mp3.durationSec).toBeGreaterThan(5.5);
    const zip = await unzip(await fetchLink('album', albumId, 'flac'));
    expect([...zip.keys()].sort()).toEqual(['01 - First Light.flac', 'cover.jpg']);
  });

  it('keeps only encrypted segments where a CDN may serve them', async () => {
    if (!onS3) {
      // Local disk: one folder per version, as nginx serves it (segments by name only).
      const store = ctx.app.services.mediaStore as LocalMediaStore;
      expect((await store.list(hlsPrefix)).map((entry) => entry.name)).toContain('seg_0000.ts');
      return;
    }
    const keys = await bucketKeys();
    const publicKeys = keys.filter((key) => key.startsWith('public/'));
    expect(publicKeys.length).toBeGreaterThan(1);
    for (const key of publicKeys) expect(key).toMatch(/^public\/songs\/[^/]+\/[^/]+\/seg_\d{4}\.ts$/);
    expect(keys).toContain(`${hlsPrefix}/enc.key`);
    expect(keys).not.toContain(`public/${hlsPrefix}/enc.key`);
    const anonymous = (key: string) => fetch(`${s3.endpoint}/${s3.bucket}/${key}`);
    expect((await anonymous(`public/${hlsPrefix}/seg_0000.ts`)).status).toBe(200);
    expect((await anonymous(`${hlsPrefix}/enc.key`)).status).toBe(403);
  });

  it('deletes a song with everything it wrote to the store', async () => {
    const res = await http.del(`/api/songs/${songId}`, artist);
    expect(res.statusCode, res.body).toBe(200);
    const store = ctx.app.services.mediaStore;
    await ctx.app.services.jobs.drain();
    expect(await store.list(`songs/${songId}`)).toEqual([]);
    expect(await store.list(`uploads/${songId}`)).toEqual([]);
    if (onS3) expect((await bucketKeys()).filter((key) => key.includes(songId))).toEqual([]);
  });
});

describe('media on S3 while the store is down', () => {
  let ctx: TestContext;
  let artist: TestUser;
  let albumId: string;
  const upload = (title: string) => uploadTo(ctx, artist, albumId, title);
  const songRow = async (id: string) =>
    (await ctx.database.db.select().from(songs).where(eq(songs.id, id)))[0]!;

  beforeAll(async () => {
    ctx = await createTestApp({ services: { mediaStore: stores[1]![1]('') } });
    ({ artist, albumId } = await artistWithAlbum(ctx));
  }, 60_000);

  afterAll(async () => {
    s3.setAvailable(true);
    await ctx?.close();
  });

  it('answers 503 while the store is down, writes nothing, and a job caught by the outage completes on retry', async () => {
    const songsBefore = (await ctx.database.db.select().from(songs)).length;
    const keysBefore = await bucketKeys();
    s3.setAvailable(false);
    const refused = await upload('Lost At Sea');
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('30');
    expect(refused.json()).toEqual({
      message: 'Media storage is unavailable right now. Nothing was lost; please try again in a minute.',
      code: 'MEDIA_STORE_UNAVAILABLE',
    });
    expect((await ctx.database.db.select().from(songs)).length).toBe(songsBefore);
    s3.setAvailable(true);
    expect(await bucketKeys()).toEqual(keysBefore);

    // A song whose transcode starts during an outage: the attempt fails, the job is retried and completes.
    const res = await upload('Second Light');
    expect(res.statusCode, res.body).toBe(201);
    const second = res.json<{ song: { _id: string } }>().song._id;
    s3.setAvailable(false);
    await ctx.app.services.jobs.drain();
    const [attempt] = await ctx.database.db
      .select()
      .from(jobs)
      .where(sql`${jobs.payload} ->> 'songId' = ${second} and ${jobs.type} = 'transcode-song'`);
    expect(attempt).toMatchObject({ status: 'queued', attempts: 1 });
    expect(attempt!.lastError).toMatch(/Media storage is unavailable/);
    expect((await songRow(second)).status).toBe('processing');
    s3.setAvailable(true);
    // The retry's time has come.
    await ctx.database.db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.id, attempt!.id));
    await ctx.app.services.jobs.drain();
    expect((await songRow(second)).status).toBe('ready');
  });
});
