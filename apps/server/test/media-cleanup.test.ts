import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { albums, jobs, songRenditions, songs } from '../src/db/schema';
import { MEDIA_CLEANUP_JOB } from '../src/modules/renditions/media-cleanup.job';
import { hlsVersionName, parseHlsVersion, TRANSCODE_JOB } from '../src/modules/renditions/transcode.job';
import { currentProcess, formatIdentity } from '../src/platform/process-identity';
import { catalogFixtures } from './catalog-fixtures';
import { createTestApp, type TestContext } from './test-app';

/**
 * The media clean-up job (run at every start, then hourly) on what killed uploads and transcodes leave: it removes
 * exactly the files no row points at and no running job is writing (uploads only once old enough not to be in
 * flight), and fails songs left waiting for a transcode nobody will do.
 */
let ctx: TestContext;
const HOUR = 60 * 60 * 1000;

function file(key: string, ageMs = 0) {
  const full = path.join(ctx.config.mediaDir, key);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, 'x');
  const when = new Date(Date.now() - ageMs);
  utimesSync(full, when, when);
  utimesSync(path.dirname(full), when, when);
}
const exists = (key: string) => existsSync(path.join(ctx.config.mediaDir, key));

/** A transcode job; a running one is held by this (live) process, with a fresh lease. */
async function job(status: 'running' | 'done' | 'failed', songId: string, sourceKey: string) {
  const held =
    status === 'running' ? { lockedBy: formatIdentity(currentProcess()), lockedAt: new Date() } : {};
  const [row] = await ctx.database.db
    .insert(jobs)
    .values({ type: TRANSCODE_JOB, payload: { songId, sourceKey }, status, attempts: 1, ...held })
    .returning();
  return row!.id;
}

beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

it('removes what interrupted work left behind, and nothing any row or running job still needs', async () => {
  const f = catalogFixtures(ctx.database);
  const owner = await f.user('artist');
  const artist = await f.artist({ name: 'Sweeper', ownerUserId: owner.id });
  const album = await f.album({ artistId: artist.id, title: 'Kept Cover' });
  const old = 2 * HOUR;

  // A ready song: its version stays, the version of an attempt killed before it goes, its original goes.
  const ready = await f.song({ artistId: artist.id, title: 'Ready' });
  const readyJob = await job('done', ready.id, `uploads/${ready.id}/orig`);
  await ctx.database.db
    .update(songs)
    .set({
      hlsPrefix: `songs/${ready.id}/${hlsVersionName(readyJob, 2)}`,
      coverImage: 'images/song/aaaaaaaaaaaaaaaa/cover-640.webp',
    })
    .where(eq(songs.id, ready.id));
  file(`songs/${ready.id}/${hlsVersionName(readyJob, 2)}/index.m3u8`);
  file(`songs/${ready.id}/${hlsVersionName(readyJob, 1)}/seg_0000.ts`);
  file(`uploads/${ready.id}/orig`, old);
  // Its preview and MP3 download (folders of their own, made by jobs after the transcode) stay, like the FLAC
  // master inside the version; a preview folder no row points at goes once old, stays while young (being stored).
  const readyPrefix = `songs/${ready.id}/${hlsVersionName(readyJob, 2)}`;
  await ctx.database.db.insert(songRenditions).values([
    {
      songId: ready.id,
      kind: 'flac',
      hlsPrefix: readyPrefix,
      mediaKey: `${readyPrefix}/master.flac`,
      durationSec: 60,
    },
    {
      songId: ready.id,
      kind: 'preview',
      hlsPrefix: readyPrefix,
      mediaKey: `songs/${ready.id}/p1111111111111111`,
      startSec: 30,
      durationSec: 30,
    },
    {
      songId: ready.id,
      kind: 'mp3',
      hlsPrefix: readyPrefix,
      mediaKey: `songs/${ready.id}/m2222222222222222/download.mp3`,
      durationSec: 60,
    },
  ]);
  file(`${readyPrefix}/master.flac`, old);
  file(`songs/${ready.id}/p1111111111111111/index.m3u8`, old);
  file(`songs/${ready.id}/m2222222222222222/download.mp3`, old);
  file(`songs/${ready.id}/p3333333333333333/index.m3u8`, old);
  file(`songs/${ready.id}/p4444444444444444/index.m3u8`);

  // A song being transcoded right now: its original and the running attempt's version stay.
  const busy = await f.song({ artistId: artist.id, title: 'Busy', status: 'processing' });
  await ctx.database.db
    .update(songs)
    .set({ sourceKey: `uploads/${busy.id}/orig` })
    .where(eq(songs.id, busy.id));
  const busyJob = await job('running', busy.id, `uploads/${busy.id}/orig`);
  file(`uploads/${busy.id}/orig`, old);
  file(`songs/${busy.id}/${hlsVersionName(busyJob, 1)}/seg_0000.ts`);

  // A song left waiting for a transcode no job will do (its worker gave up): failed, its original kept.
  const stuck = await f.song({ artistId: artist.id, title: 'Stuck', status: 'processing' });
  await ctx.database.db
    .update(songs)
    .set({ sourceKey: `uploads/${stuck.id}/orig` })
    .where(eq(songs.id, stuck.id));
  await job('failed', stuck.id, `uploads/${stuck.id}/orig`);
  file(`uploads/${stuck.id}/orig`, old);

  // No row at all: a deleted song's version goes; an original goes once old, stays while it may be in flight.
  const gone = randomUUID();
  file(`songs/${gone}/${hlsVersionName(randomUUID(), 1)}/index.m3u8`);
  const abandoned = randomUUID();
  const inFlight = randomUUID();
  file(`uploads/${abandoned}/orig`, old);
  file(`uploads/${inFlight}/orig`);

  // Images: shown ones stay (an album cover a song shows too), an old unshown one goes, a young one stays.
  await ctx.database.db
    .update(albums)
    .set({ cover: 'images/album/bbbbbbbbbbbbbbbb/cover-640.webp' })
    .where(eq(albums.id, album.id));
  file('images/song/aaaaaaaaaaaaaaaa/cover-640.webp', old);
  file('images/album/bbbbbbbbbbbbbbbb/cover-640.webp', old);
  file('images/song/cccccccccccccccc/cover-640.webp', old);
  file('images/artist/dddddddddddddddd/cover-640.webp');

  // Scratch folders: one of a process that is gone, one of this live process.
  const tmp = path.join(ctx.dataDir, 'tmp');
  const dead = spawnSync('true').pid!;
  for (const [name, owner] of [
    ['upload-dead', { ...currentProcess(), pid: dead, started: null }],
    ['upload-alive', currentProcess()],
  ] as const) {
    mkdirSync(path.join(tmp, name), { recursive: true });
    writeFileSync(path.join(tmp, name, '.owner'), formatIdentity(owner));
  }

  await ctx.app.services.jobs.start();
  await expect
    .poll(
      async () =>
        (await ctx.database.db.select().from(jobs).where(eq(jobs.type, MEDIA_CLEANUP_JOB))).map(
          (row) => row.status,
        ),
      { timeout: 10_000 },
    )
    .toContain('done');
  await ctx.app.services.jobs.stop();

  expect(exists(`songs/${ready.id}/${hlsVersionName(readyJob, 2)}/index.m3u8`)).toBe(true);
  expect(exists(`songs/${ready.id}/${hlsVersionName(readyJob, 1)}`)).toBe(false);
  expect(exists(`${readyPrefix}/master.flac`)).toBe(true);
  expect(exists(`songs/${ready.id}/p1111111111111111/index.m3u8`)).toBe(true);
  expect(exists(`songs/${ready.id}/m2222222222222222/download.mp3`)).toBe(true);
  expect(exists(`songs/${ready.id}/p3333333333333333`)).toBe(false);
  expect(exists(`songs/${ready.id}/p4444444444444444/index.m3u8`)).toBe(true);
  expect(exists(`uploads/${ready.id}`)).toBe(false);
  expect(exists(`uploads/${busy.id}/orig`)).toBe(true);
  expect(exists(`songs/${busy.id}/${hlsVersionName(busyJob, 1)}/seg_0000.ts`)).toBe(true);
  expect(exists(`uploads/${stuck.id}/orig`)).toBe(true);
  expect(exists(`songs/${gone}`)).toBe(false);
  expect(exists(`uploads/${abandoned}`)).toBe(false);
  expect(exists(`uploads/${inFlight}/orig`)).toBe(true);
  expect(exists('images/song/aaaaaaaaaaaaaaaa/cover-640.webp')).toBe(true);
  expect(exists('images/album/bbbbbbbbbbbbbbbb/cover-640.webp')).toBe(true);
  expect(exists('images/song/cccccccccccccccc')).toBe(false);
  expect(exists('images/artist/dddddddddddddddd/cover-640.webp')).toBe(true);
  expect(existsSync(path.join(tmp, 'upload-dead'))).toBe(false);
  expect(existsSync(path.join(tmp, 'upload-alive'))).toBe(true);

  // The stuck song tells its artist what happened; the busy one is still processing.
  const status = async (id: string) =>
    (await ctx.app.inject({ method: 'GET', url: `/api/songs/${id}/status`, headers: owner.headers })).json();
  expect(await status(stuck.id)).toEqual({
    status: 'failed',
    failureReason: 'Processing was interrupted; upload the file again',
  });
  expect(await status(busy.id)).toEqual({ status: 'processing', failureReason: null });
});

it('names HLS versions after their job and attempt, in the characters the shipped nginx site serves', () => {
  const jobId = randomUUID();
  const name = hlsVersionName(jobId, 3);
  expect(name).toMatch(/^[0-9A-Za-z]{1,64}$/); // deploy/nginx/backbeat.conf: songs/<uuid>/[0-9A-Za-z]{1,64}/seg_*
  expect(parseHlsVersion(name)).toEqual({ jobId, attempt: 3 });
  expect(parseHlsVersion('0123456789abcdef')).toBeNull(); // an older, random version name
});
