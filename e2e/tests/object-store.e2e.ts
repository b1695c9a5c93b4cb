import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { artists, hashToken, openDatabase, sessions, songs, users, type Database } from '@backbeat/server/db';
import { locateFfmpeg } from '@backbeat/server/media';
import {
  startApi,
  startLocalS3,
  startThrowawayCluster,
  startWorker,
  type ApiProcess,
  type LocalS3,
  type ServerProcess,
  type ThrowawayCluster,
} from '@backbeat/server/testing';
import { launchBrowser, openPage, screenshot } from '../support/browser';
import { loginViaUi, newPerson } from '../support/session';
import { waitForPlayback } from '../support/playback';

/**
 * The scale-out shape on object storage (issue 23): two API instances (`JOBS=off`) and one worker, each with its own
 * empty DATA_DIR, sharing only PostgreSQL and an S3 bucket (the local S3 server: SigV4 checked, anonymous reads only
 * under `public/`, CORS as a bucket read by browsers). An upload through A is transcoded by the worker and played in
 * Chromium through B: segments straight from the bucket endpoint (SEGMENT_BASE_URL), the key and playlist from B.
 */
const run = promisify(execFile);
let cluster: ThrowawayCluster;
let s3: LocalS3;
let a: ApiProcess;
let b: ApiProcess;
let worker: ServerProcess;
let database: Database;
let work: string;
const dataDirs: string[] = [];
let browser: Browser;
let context: BrowserContext;
let page: Page;
const responses: Array<{ url: string; method: string; status: number; headers: Record<string, string> }> = [];
let artistHeaders: Record<string, string>;
let albumId: string;
let wav: Buffer;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'backbeat-e2e-s3-'));
  const { ffmpeg } = await locateFfmpeg();
  const wavFile = path.join(work, 'chord.wav');
  // 20 s of an A major chord: long enough to play past a few segments.
  await run(ffmpeg, [
    ...['-v', 'error', '-y', '-f', 'lavfi'],
    ...['-i', 'aevalsrc=0.2*sin(2*PI*220*t)+0.15*sin(2*PI*277.18*t)+0.15*sin(2*PI*329.63*t):s=44100:d=20'],
    ...['-c:a', 'pcm_s16le', wavFile],
  ]);
  wav = await readFile(wavFile);

  [cluster, s3] = await Promise.all([
    startThrowawayCluster(),
    startLocalS3({ publicPrefixes: ['public/'], cors: {} }),
  ]);
  const storeEnv = {
    DATABASE_URL: cluster.url,
    MEDIA_STORE: 's3',
    S3_BUCKET: s3.bucket,
    S3_REGION: s3.region,
    S3_ENDPOINT: s3.endpoint,
    S3_PUBLIC_PREFIX: 'public',
    SEGMENT_BASE_URL: `${s3.endpoint}/${s3.bucket}/public`,
    AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
    // Nothing but the environment's credentials: no instance metadata lookups on a machine without any.
    AWS_EC2_METADATA_DISABLED: 'true',
  };
  const ownDataDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'backbeat-e2e-s3-data-'));
    dataDirs.push(dir);
    return dir;
  };
  [a, b, worker] = await Promise.all([
    startApi({ ...storeEnv, DATA_DIR: ownDataDir(), JOBS: 'off' }),
    startApi({ ...storeEnv, DATA_DIR: ownDataDir(), JOBS: 'off' }),
    startWorker({ ...storeEnv, DATA_DIR: ownDataDir() }),
  ]);
  database = await openDatabase({ kind: 'postgres', url: cluster.url, max: 2 });

  // An artist account with its own profile (accounts get the artist role from an operator, not by signing up).
  const [artistUser] = await database.db
    .insert(users)
    .values({
      name: 'Bucket Artist',
      email: `artist-${randomBytes(4).toString('hex')}@example.test`,
      role: 'artist',
    })
    .returning();
  await database.db.insert(artists).values({ name: 'Bucket Brigade', ownerUserId: artistUser!.id });
  const token = randomBytes(32).toString('base64url');
  await database.db.insert(sessions).values({
    userId: artistUser!.id,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + 86_400_000),
  });
  artistHeaders = { authorization: `Bearer ${token}` };
  const album = await fetch(`${a.baseUrl}/api/albums`, {
    method: 'POST',
    headers: { ...artistHeaders, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Object Lessons' }),
  });
  expect(album.status).toBe(201);
  albumId = ((await album.json()) as { album: { _id: string } }).album._id;

  browser = await launchBrowser();
  ({ context, page } = await openPage(browser));
  page.on('response', (response) => {
    responses.push({
      url: response.url(),
      method: response.request().method(),
      status: response.status(),
      headers: response.headers(),
    });
  });
}, 240_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  const stopped = await Promise.allSettled([a?.stop(), b?.stop(), worker?.stop()]);
  await database?.close();
  cluster?.stop();
  await s3?.stop();
  for (const dir of [...dataDirs, work]) if (dir) rmSync(dir, { recursive: true, force: true });
  // Graceful SIGTERM: every process exits 0 (no S3 client or upload left hanging).
  expect(stopped.map((result) => (result.status === 'fulfilled' ? result.value : result.reason))).toEqual([
    0, 0, 0,
  ]);
}, 60_000);

/** Uploads the chord through A as the artist, free to stream for any signed-in listener. */
function upload(title: string): Promise<Response> {
  const form = new FormData();
  form.append('title', title);
  form.append('album', albumId);
  form.append('accessType', 'purchase-only');
  form.append('price', '0.99');
  form.append('freeToStream', 'true');
  form.append('audio', new Blob([new Uint8Array(wav)], { type: 'audio/wav' }), 'chord.wav');
  return fetch(`${a.baseUrl}/api/songs`, { method: 'POST', headers: artistHeaders, body: form });
}

/** Polls B until the worker has made the song ready. */
async function readyOnB(songId: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const res = await fetch(`${b.baseUrl}/api/songs/${songId}/status`, { headers: artistHeaders });
        const { status, failureReason } = (await res.json()) as {
          status: string;
          failureReason: string | null;
        };
        if (status === 'failed') throw new Error(`transcode failed: ${failureReason}\n${worker.output()}`);
        return status;
      },
      { timeout: 90_000, interval: 200 },
    )
    .toBe('ready');
}

/** Every file under `dir`, relative to it (none when it does not exist). */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

describe('media on object storage, two API instances and a worker', () => {
  it('an upload through A, transcoded by the worker, plays in Chromium through B with segments from the bucket', async () => {
    const uploaded = await upload('Bucket Chord');
    expect(uploaded.status).toBe(201);
    const songId = ((await uploaded.json()) as { song: { _id: string } }).song._id;
    await readyOnB(songId);

    // A listener who signed up through A signs in on B and plays the song from its album page.
    const listener = newPerson('s3');
    const registered = await fetch(`${a.baseUrl}/api/users/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(listener),
    });
    expect(registered.status).toBe(201);
    await page.goto(`${b.baseUrl}/login`);
    await loginViaUi(page, listener);
    await page.waitForURL((url) => url.pathname !== '/login', { timeout: 15_000 });
    await page.goto(`${b.baseUrl}/album/${albumId}`);
    await page.getByRole('button', { name: 'Play Bucket Chord', exact: true }).click();
    await waitForPlayback(page, 3);
    await screenshot(page, 'object-store-player');

    // Segments: from the bucket's public prefix, anonymously, with the bucket's CORS answer.
    const bucketBase = `${s3.endpoint}/${s3.bucket}/`;
    const segments = responses.filter((response) => /seg_\d{4}\.ts$/.test(new URL(response.url).pathname));
    expect(segments.length).toBeGreaterThan(1);
    for (const segment of segments) {
      expect(segment.url).toMatch(
        new RegExp(`^${s3.endpoint}/${s3.bucket}/public/songs/${songId}/[0-9a-f]{32}v\\d+/seg_\\d{4}\\.ts$`),
      );
      expect(segment.status).toBe(200);
      expect(segment.headers['access-control-allow-origin']).toBe('*');
    }
    // Playlist and key: from B only, after its checks; the browser asked the bucket for nothing else.
    const playlists = responses.filter((response) => response.url.includes('/index.m3u8'));
    const keys = responses.filter((response) => new URL(response.url).pathname.endsWith('/key'));
    expect(playlists.length).toBeGreaterThan(0);
    expect(keys.length).toBeGreaterThan(0);
    for (const request of [...playlists, ...keys]) {
      expect(request.url.startsWith(`${b.baseUrl}/api/stream/`)).toBe(true);
      expect(request.status).toBe(200);
    }
    expect(
      responses.filter((response) => response.url.startsWith(bucketBase) && !segments.includes(response)),
    ).toEqual([]);
    expect(responses.some((response) => response.url.startsWith(a.baseUrl))).toBe(false);

    // The key is in the bucket, private: refused to anyone asking the bucket directly.
    // (its folder, `songs/<id>/<version>`, read off a segment's address)
    const prefix = new URL(segments[0]!.url).pathname
      .slice(`/${s3.bucket}/public/`.length)
      .replace(/\/seg_\d{4}\.ts$/, '');
    const keyObject = await fetch(`${bucketBase}${prefix}/enc.key`);
    expect(keyObject.status).toBe(403);
    expect(await keyObject.text()).toContain('<Code>AccessDenied</Code>');
    expect((await fetch(`${bucketBase}${prefix}/index.m3u8`)).status).toBe(403);
    expect([403, 404]).toContain((await fetch(`${bucketBase}public/${prefix}/enc.key`)).status);

    // No media on any process's disk: the bucket holds it all.
    for (const dir of dataDirs) expect([dir, filesUnder(path.join(dir, 'media'))]).toEqual([dir, []]);
  });
});

describe('the object store out of service', () => {
  it('an upload answers 503 MEDIA_STORE_UNAVAILABLE and creates no song; once the store is back it goes through', async () => {
    const songTitles = async () =>
      (await database.db.select({ title: songs.title }).from(songs)).map((row) => row.title);
    s3.setAvailable(false);
    try {
      const refused = await upload('Outage Chord');
      expect(refused.status).toBe(503);
      const body = (await refused.json()) as { message: string; code: string };
      expect(body).toEqual({
        code: 'MEDIA_STORE_UNAVAILABLE',
        message: 'Media storage is unavailable right now. Nothing was lost; please try again in a minute.',
      });
      expect(refused.headers.get('retry-after')).toBe('30');
      expect(await songTitles()).not.toContain('Outage Chord');
    } finally {
      s3.setAvailable(true);
    }
    const accepted = await upload('Outage Chord');
    expect(accepted.status).toBe(201);
    await readyOnB(((await accepted.json()) as { song: { _id: string } }).song._id);
    expect((await songTitles()).filter((title) => title === 'Outage Chord')).toHaveLength(1);
  });
});
