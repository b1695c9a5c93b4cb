import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { jobs } from '../src/db/schema';
import { locateFfmpeg } from '../src/modules/media';
import { catalogFixtures, multipartForm } from './catalog-fixtures';
import { createTestApp, type TestContext } from './test-app';

/**
 * The disk holding uploads and media fills up: the data directory is a real 8 MiB tmpfs (mounted for the test; CI
 * runs as root, as the suite must here). An upload that hits the full disk half-way gets 507 STORAGE_FULL with a
 * message the browser receives, its partial files are gone, earlier songs still play and the server keeps serving;
 * a transcode that hits it fails with that reason and leaves the song not half-ready.
 */
let ctx: TestContext;
let baseUrl: string;
let mounted = false;
let artist: Awaited<ReturnType<ReturnType<typeof catalogFixtures>['user']>>;
const audio: Record<'short' | 'long', Buffer> = { short: Buffer.alloc(0), long: Buffer.alloc(0) };

const filler = () => path.join(ctx.dataDir, 'filler');
const freeBytes = () => {
  const stats = statfsSync(ctx.dataDir);
  return stats.bavail * stats.bsize;
};
/** Fills the disk until only `leftBytes` are free (tmpfs counts whole 4 KiB pages). */
function fillDisk(leftBytes: number) {
  rmSync(filler(), { force: true });
  writeFileSync(filler(), Buffer.alloc(Math.max(0, freeBytes() - leftBytes)));
}

/** The media store's own layout folders, which stay once created. */
const LAYOUT = /^(media|tmp)\/((images|songs|uploads)\/((song|album|artist)\/)?)?$/;

/** Every file and folder under `dir`, relative to it (folders end in '/'), but the filler and the layout. */
function filesUnder(dir: string, prefix = ''): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (full === filler()) return [];
    if (!statSync(full).isDirectory()) return [`${prefix}${name}`];
    const folder = `${prefix}${name}/`;
    return [...(LAYOUT.test(folder) ? [] : [folder]), ...filesUnder(full, folder)];
  });
}

const upload = (title: string, file: Buffer) =>
  fetch(`${baseUrl}/api/songs`, {
    method: 'POST',
    headers: artist.headers,
    body: multipartForm({ title, accessType: 'subscription', audio: { file, name: `${title}.wav` } }),
  });

/** Plays a song the way the player does: address, playlist, key, first segment. */
async function plays(songId: string): Promise<boolean> {
  const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers: artist.headers });
  const address = await get(`/api/stream/song/${songId}`);
  if (address.statusCode !== 200) return false;
  const playlistUrl = address.json<{ url: string }>().url;
  const playlist = await get(playlistUrl);
  const key = /URI="([^"]+)"/.exec(playlist.body)?.[1];
  const segment = playlist.body.split('\n').find((line) => line && !line.startsWith('#'));
  if (!key || !segment) return false;
  const base = new URL(playlistUrl, 'http://x');
  const resolve = (ref: string) => {
    const url = new URL(ref, base);
    return url.pathname + url.search;
  };
  return (await get(resolve(key))).statusCode === 200 && (await get(resolve(segment))).statusCode === 200;
}

beforeAll(async () => {
  if (process.getuid?.() !== 0) {
    throw new Error(
      'The disk-full test mounts a tmpfs (mount -t tmpfs): run the server suite as root, as CI does.',
    );
  }
  ctx = await createTestApp();
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m,mode=0700', 'tmpfs', ctx.dataDir]);
  mounted = true;
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  const f = catalogFixtures(ctx.database);
  artist = await f.user('artist');
  await f.artist({ name: 'Full Disk', ownerUserId: artist.id });
  const tools = await locateFfmpeg();
  for (const [name, seconds] of [
    ['short', 4],
    ['long', 30],
  ] as const) {
    const file = path.join(ctx.dataDir, `${name}.wav`);
    execFileSync(tools.ffmpeg, [
      ...['-hide_banner', '-nostdin', '-v', 'error', '-y', '-f', 'lavfi'],
      ...['-i', `sine=frequency=440:duration=${seconds}`, '-ac', '1', file],
    ]);
    audio[name] = readFileSync(file);
    rmSync(file);
  }
});

afterAll(async () => {
  await ctx?.close().catch(() => undefined);
  if (mounted) execFileSync('umount', ['-l', ctx.dataDir]);
});

it('an upload on a full disk: 507 with a message the browser reads, nothing kept, the rest keeps working', async () => {
  const first = await upload('Before', audio.short);
  expect(first.status).toBe(201);
  const before = ((await first.json()) as { song: { _id: string } }).song._id;
  await ctx.app.services.jobs.drain();
  expect(await plays(before)).toBe(true);
  const media = filesUnder(ctx.dataDir);

  // Room for the upload's first pages only: the disk fills while the file streams in (2.6 MB of audio).
  fillDisk(96 * 1024);
  const free = freeBytes();
  const refused = await upload('Too Much', audio.long);
  expect(refused.status).toBe(507);
  expect(await refused.json()).toEqual({
    message:
      "The server's storage is full, so the file could not be saved. Nothing was changed; please try again later.",
    code: 'STORAGE_FULL',
  });
  // The partial file is gone (the space is back), no row was written, every earlier file is where it was.
  expect(freeBytes()).toBe(free);
  expect(filesUnder(ctx.dataDir)).toEqual(media);
  expect((await catalogFixtures(ctx.database).counts()).songs).toBe(1);

  // An image that fits the scratch space but not the media store: refused the same way.
  // 200 px of noise (120 kB) fits in the scratch space; its WebP variants (the 640 px one upscaled) do not fit
  // in what is left, so the copy into the media store fails half-way.
  const image = await sharp(randomBytes(200 * 200 * 3), { raw: { width: 200, height: 200, channels: 3 } })
    .png()
    .toBuffer();
  fillDisk(image.length + 64 * 1024);
  const artistWithImage = await ctx.app.inject({
    method: 'PUT',
    url: `/api/artists/${(await ctx.database.query<{ id: string }>(sql`select id from artists`))[0]!.id}`,
    headers: artist.headers,
    payload: multipartForm({ image: { file: image, name: 'big.png' } }),
  });
  expect(artistWithImage.statusCode, artistWithImage.body).toBe(507);
  expect(artistWithImage.json()).toMatchObject({ code: 'STORAGE_FULL' });
  expect(filesUnder(ctx.dataDir)).toEqual(media);

  // Still serving, and the song from before still plays.
  expect((await fetch(`${baseUrl}/api/health`)).status).toBe(200);
  expect(await plays(before)).toBe(true);
});

it('a transcode on a full disk fails with that reason; the song is never half-ready', async () => {
  rmSync(filler(), { force: true });
  const created = await upload('Squeezed', audio.short);
  expect(created.status).toBe(201);
  const songId = ((await created.json()) as { song: { _id: string } }).song._id;
  const songsBefore = filesUnder(path.join(ctx.dataDir, 'media', 'songs'));
  const status = async () =>
    (
      await ctx.app.inject({ method: 'GET', url: `/api/songs/${songId}/status`, headers: artist.headers })
    ).json<{ status: string; failureReason: string | null }>();
  // Each attempt hits the full disk at another step: creating its scratch folder, while ffmpeg writes (its own
  // "No space left on device"), and copying the finished version into the media store.
  const roomPerAttempt = [0, 24 * 1024, 200 * 1024];
  for (const [index, room] of roomPerAttempt.entries()) {
    fillDisk(room);
    await ctx.app.services.jobs.drain();
    const [job] = await ctx.database.db
      .select()
      .from(jobs)
      .where(sql`${jobs.payload} ->> 'songId' = ${songId}`);
    expect(job).toMatchObject({
      attempts: index + 1,
      lastError: "The server's storage is full, so the audio could not be processed",
    });
    // No version of it (its emptied folder may stay until the clean-up job's next run).
    const songs = filesUnder(path.join(ctx.dataDir, 'media', 'songs'));
    expect(songs.filter((entry) => entry !== `${songId}/`)).toEqual(songsBefore);
    expect(filesUnder(path.join(ctx.dataDir, 'tmp'))).toEqual([]);
    if (index < 2) {
      expect(await status()).toEqual({ status: 'processing', failureReason: null });
      await ctx.database.db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.id, job!.id)); // backoff passes
    }
  }
  expect(await status()).toEqual({
    status: 'failed',
    failureReason: "Processing failed: The server's storage is full, so the audio could not be processed",
  });
  expect(await plays(songId)).toBe(false);
});
