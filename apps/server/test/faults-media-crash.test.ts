import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { jobs, songRenditions, songs } from '../src/db/schema';
import { renditionFolder } from '../src/modules/renditions/rendition.repository';
import { locateFfmpeg } from '../src/modules/media';
import { hlsVersionName, TRANSCODE_JOB } from '../src/modules/renditions/transcode.job';
import { catalogFixtures } from './catalog-fixtures';
import { freePort } from './postgres-cluster';
import {
  createServerDatabase,
  processRuns,
  startServerProcess,
  type ServerDatabase,
  type ServerProcess,
} from './server-process';

/**
 * The real server process, killed with SIGKILL while an upload streams in and while ffmpeg transcodes, then
 * started again on the same data (PGlite or PostgreSQL, as the run's tier): the killed upload leaves no song and
 * no file, the ffmpeg child dies with its parent, the interrupted transcode is taken back at the next start (not
 * after a timeout) and finishes once, with one set of segments, and nothing else is left in the media store.
 */
let dataDir: string;
let database: ServerDatabase;
let server: ServerProcess | null = null;
let port: number;
let wav: Buffer;
let artist: { headers: Record<string, string>; artistId: string };

const tmpDir = () => path.join(dataDir, 'tmp');
const scratch = (kind: string) =>
  existsSync(tmpDir()) ? readdirSync(tmpDir()).filter((name) => name.startsWith(`${kind}-`)) : [];
const start = async () => (server = await startServerProcess(port, { DATA_DIR: dataDir, ...database.env }));

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string, prefix = ''): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full, `${prefix}${name}/`) : [`${prefix}${name}`];
  });
}

/** ffmpeg processes working inside this data directory's scratch space. */
function ffmpegsInScratch(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return (
          readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'ffmpeg' &&
          readlinkSync(`/proc/${pid}/cwd`).startsWith(tmpDir() + path.sep)
        );
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Sends the head of a multipart upload and leaves it hanging, as a browser whose server dies mid-upload. */
function startUpload(sentBytes: number) {
  const boundary = '----backbeat-crash';
  const head = Buffer.from(
    [
      ['title', 'Never Arrives'],
      ['accessType', 'subscription'],
    ]
      .map(
        ([name, value]) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      )
      .join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="long.wav"\r\n` +
      'Content-Type: audio/wav\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const upload = request(`${server!.url}/api/songs`, {
    method: 'POST',
    headers: {
      ...artist.headers,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(head.length + wav.length + tail.length),
    },
  });
  upload.on('error', () => undefined); // the server dies under it
  upload.write(head);
  upload.write(wav.subarray(0, sentBytes));
  return upload;
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'backbeat-media-crash-'));
  port = await freePort();
  database = await createServerDatabase(dataDir);
  const db = await database.open();
  try {
    const f = catalogFixtures(db);
    const owner = await f.user('artist');
    artist = {
      headers: owner.headers,
      artistId: (await f.artist({ name: 'Kill Switch', ownerUserId: owner.id })).id,
    };
  } finally {
    await db.close();
  }
  // 90 s of tone and noise, mono at 22 kHz: 4 MB to upload, and seconds of work for the AAC encoder (which
  // encodes 44.1 kHz stereo whatever comes in), so the kill lands while ffmpeg runs.
  const tools = await locateFfmpeg();
  const file = path.join(dataDir, 'long.wav');
  execFileSync(tools.ffmpeg, [
    ...['-hide_banner', '-nostdin', '-v', 'error', '-y', '-f', 'lavfi'],
    ...['-i', 'sine=frequency=330:duration=90', '-f', 'lavfi', '-i', 'anoisesrc=duration=90:amplitude=0.2'],
    ...['-filter_complex', 'amix=inputs=2', '-ac', '1', '-ar', '22050', file],
  ]);
  wav = readFileSync(file);
  rmSync(file);
}, 120_000);

afterAll(async () => {
  await server?.kill('SIGKILL');
  await database?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

it('SIGKILL mid-upload and mid-transcode, restart: no half song, no orphan, the transcode finishes once', async () => {
  // 1. Killed while the upload streams to disk.
  await start();
  const upload = startUpload(1024 * 1024);
  await expect
    .poll(() => scratch('upload').flatMap((dir) => filesUnder(path.join(tmpDir(), dir))).length, {
      timeout: 15_000,
    })
    .toBeGreaterThan(1); // the owner file and the part being written
  await server!.kill('SIGKILL');
  upload.destroy();
  expect(scratch('upload')).toHaveLength(1); // what the killed process left

  // 2. Killed while ffmpeg transcodes the next upload.
  await start();
  expect(scratch('upload')).toEqual([]); // cleared at start, its owner being gone
  const form = new FormData();
  form.append('title', 'Power Cut');
  form.append('accessType', 'subscription');
  form.append('audio', new Blob([new Uint8Array(wav)], { type: 'audio/wav' }), 'long.wav');
  const created = await fetch(`${server!.url}/api/songs`, {
    method: 'POST',
    headers: artist.headers,
    body: form,
  });
  expect(created.status, await created.clone().text()).toBe(201);
  const songId = ((await created.json()) as { song: { _id: string } }).song._id;
  await expect.poll(() => ffmpegsInScratch().length, { timeout: 30_000, interval: 50 }).toBe(1);
  const [ffmpeg] = ffmpegsInScratch();
  await server!.kill('SIGKILL');
  // The kernel stops ffmpeg with its parent (no ffmpeg left encoding a dead job for minutes).
  await expect.poll(() => processRuns(ffmpeg!), { timeout: 2000, interval: 50 }).toBe(false);
  expect(scratch('transcode')).toHaveLength(1);

  // 3. Started again: the job is taken back at once (its worker is known dead), and finishes.
  await start();
  const status = async () =>
    (
      (await (
        await fetch(`${server!.url}/api/songs/${songId}/status`, { headers: artist.headers })
      ).json()) as { status: string }
    ).status;
  // Well inside the 30 s lease: the start-up recovery, not the lease running out, resumed it.
  await expect.poll(status, { timeout: 25_000, interval: 250 }).toBe('ready');
  await expect.poll(() => server!.output(), { timeout: 5000 }).toContain('job interrupted; retrying');
  expect(scratch('upload')).toEqual([]);
  // The retry's own scratch folder goes right after the song turns ready; the killed one's went at start.
  await expect.poll(() => scratch('transcode'), { timeout: 5000 }).toEqual([]);

  // Through HTTP: the killed upload made no song; the finished one plays (playlist, key, a segment).
  const listed = (await (
    await fetch(`${server!.url}/api/songs/artist/${artist.artistId}`, { headers: artist.headers })
  ).json()) as { songs: Array<{ _id: string; title: string }> };
  expect(listed.songs.map((song) => song.title)).toEqual(['Power Cut']);
  const { url } = (await (
    await fetch(`${server!.url}/api/stream/song/${songId}`, { headers: artist.headers })
  ).json()) as { url: string };
  const playlist = await (await fetch(new URL(url, server!.url))).text();
  const keyUri = /URI="([^"]+)"/.exec(playlist)![1]!;
  expect((await fetch(new URL(keyUri, new URL(url, server!.url)))).status).toBe(200);
  const firstSegment = playlist.split('\n').find((line) => line && !line.startsWith('#'))!;
  expect((await fetch(new URL(firstSegment, new URL(url, server!.url)))).status).toBe(200);
  await server!.kill('SIGTERM');
  server = null;

  // Exactly once: one job, two attempts, one ready song, and the media store holds its one version only.
  const db = await database.open();
  try {
    const transcodes = await db.db.select().from(jobs).where(eq(jobs.type, TRANSCODE_JOB));
    expect(transcodes).toMatchObject([{ status: 'done', attempts: 2 }]);
    const rows = await db.db.select().from(songs);
    expect(rows).toMatchObject([{ id: songId, status: 'ready', sourceKey: null }]);
    expect(rows[0]!.hlsPrefix).toBe(`songs/${songId}/${hlsVersionName(transcodes[0]!.id, 2)}`);
    // Beside it, only the folders of the preview and MP3 made from it (rendition rows point at each).
    const renditions = await db.db.select().from(songRenditions);
    expect(renditions.every((rendition) => rendition.hlsPrefix === rows[0]!.hlsPrefix)).toBe(true);
    const kept = [
      rows[0]!.hlsPrefix!,
      ...renditions.map(renditionFolder).filter((folder): folder is string => folder !== null),
    ];
    const media = filesUnder(path.join(dataDir, 'media'));
    expect(media.filter((file) => !kept.some((folder) => file.startsWith(`${folder}/`)))).toEqual([]);
    expect(
      media.filter((file) => file.startsWith(`${rows[0]!.hlsPrefix}/`) && file.endsWith('index.m3u8')),
    ).toHaveLength(1);
  } finally {
    await db.close();
  }
}, 240_000);
