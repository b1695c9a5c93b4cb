/**
 * Media on S3-compatible object storage (issue 23): what the bucket endpoint serves next to what the API serves,
 * what a large upload costs the server's memory, and what the object store costs a transcode.
 *   1. Throughput of an encrypted segment read anonymously from the bucket endpoint (the URL a playlist gives when
 *      SEGMENT_BASE_URL points at the bucket's public prefix), of the API's key endpoint (signed-in listener), and of
 *      the API serving the same segment itself from the S3 store (hot cache).
 *   2. A ~200 MB WAV uploaded through POST /api/songs to the real server as a child process (MEDIA_STORE=s3,
 *      JOBS=off), its VmRSS sampled every 100 ms: before, peak, after; a 3-minute upload first for comparison.
 *   3. One song's transcode job (encrypted HLS + FLAC master) on the S3 store and on local disk, alternating.
 * The S3 server is the tests' local one (s3rver behind a SigV4-checking front, a Node process): its figures are a
 * floor, not what a CDN or Amazon S3 gives.
 *
 *   npm run bench:object-store -w @backbeat/bench
 *   BENCH_SECONDS=10 BENCH_ROUNDS=5 BENCH_UPLOAD_SECONDS=1130 ...   # longer load runs, more transcodes
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { buildApp, loadConfig } from '@backbeat/server/app';
import { artists, hashToken, sessions, songs, users } from '@backbeat/server/db';
import { locateFfmpeg } from '@backbeat/server/media';
import { startLocalS3 } from '@backbeat/server/testing';
import { openBenchDatabase, seedStreamingListener } from './bench-fixtures';
import { autocannon, hasCommand, ownCpuMs, wrk, type LoadResult } from './http-load';
import { startUploadServer, type UploadFigures } from './object-store-bench.upload';

const run = promisify(execFile);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** 1130 s of stereo 44.1 kHz 16-bit PCM is 199.3 MB: under UPLOAD_MAX_AUDIO_MB (200 MiB) and 30 minutes. */
const UPLOAD_SECONDS = Number(process.env.BENCH_UPLOAD_SECONDS ?? 1130);
const SONG_SECONDS = Number(process.env.BENCH_SONG_SECONDS ?? 180);
const TRANSCODE_JOB = 'transcode-song';

const fmt = (value: number | null, digits = 1) => (value === null ? '-' : value.toFixed(digits));
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

/** A music-like lossless source (tones and noise, stereo, 44.1 kHz 16-bit) of `seconds`. */
async function makeWav(ffmpeg: string, file: string, seconds: number) {
  await run(ffmpeg, [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i'],
    `aevalsrc=0.3*sin(2*PI*220*t)+0.2*sin(2*PI*331*t)+0.05*random(0):s=44100:d=${seconds}`,
    ...['-ac', '2', '-c:a', 'pcm_s16le', file],
  ]);
}

function printTable(rows: Array<Record<string, string>>) {
  const columns = Object.keys(rows[0] ?? {});
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => r[c]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(columns));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const row of rows) console.log(line(columns.map((c) => row[c]!)));
}

async function main() {
  const work = await mkdtemp(path.join(tmpdir(), 'backbeat-object-store-bench-'));
  const s3 = await startLocalS3({ publicPrefixes: ['public/'] });
  const { database } = await openBenchDatabase(work, false);
  const tools = await locateFfmpeg();
  const stops: Array<() => Promise<void>> = [];
  console.log(`load average at start: ${load()} (2 cores, a machine shared with other work)`);
  try {
    await database.migrate();
    // The in-process S3 app finds its credentials where the SDK's default chain looks first: the environment.
    process.env.AWS_ACCESS_KEY_ID = s3.credentials.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = s3.credentials.secretAccessKey;
    const baseEnv = {
      NODE_ENV: 'production',
      SMTP_URL: 'smtp://127.0.0.1:25',
      SECRET_KEY: randomBytes(48).toString('base64url'),
      PUBLIC_URL: 'http://127.0.0.1',
      LOG_LEVEL: 'silent',
      SEED_DEMO: 'false',
    };
    const bucketBase = `${s3.endpoint}/${s3.bucket}/public`;
    const start = async (env: Record<string, string>) => {
      const app = await buildApp({ config: loadConfig({ ...baseEnv, ...env }), database });
      stops.push(() => app.close());
      await app.listen({ port: 0, host: '127.0.0.1' });
      return { app, origin: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
    };
    const onS3 = await start({
      DATA_DIR: path.join(work, 's3-app'),
      MEDIA_STORE: 's3',
      S3_BUCKET: s3.bucket,
      S3_REGION: s3.region,
      S3_ENDPOINT: s3.endpoint,
      SEGMENT_BASE_URL: bucketBase,
    });
    const onDisk = await start({ DATA_DIR: path.join(work, 'local-app') });

    // 1. Segments from the bucket endpoint, keys and segments from the API.
    const { songId, session } = await seedStreamingListener(database, onS3.app.services.mediaStore, work);
    const bearer = { authorization: `Bearer ${session}` };
    const issued = await fetch(`${onS3.origin}/api/stream/song/${songId}`, { headers: bearer });
    if (!issued.ok) throw new Error(`GET /api/stream/song answered ${issued.status}: ${await issued.text()}`);
    const playlistUrl = `${onS3.origin}${((await issued.json()) as { url: string }).url}`;
    const token = new URL(playlistUrl).searchParams.get('token')!;
    const playlist = await (await fetch(playlistUrl)).text();
    const bucketSegmentUrl = playlist.split('\n').find((line) => line && !line.startsWith('#'))!;
    if (!bucketSegmentUrl.startsWith(`${bucketBase}/`))
      throw new Error(`the playlist does not point at the bucket: ${bucketSegmentUrl}`);
    const keyUrl = `${onS3.origin}/api/stream/hls/${songId}/key?token=${token}`;
    const apiSegmentUrl = `${onS3.origin}/api/stream/hls/${songId}/${path.posix.basename(bucketSegmentUrl)}`;
    const anonymous = await fetch(bucketSegmentUrl);
    if (!anonymous.ok)
      throw new Error(`${bucketSegmentUrl} answered ${anonymous.status} to an anonymous GET`);
    const segmentKb = (await anonymous.arrayBuffer()).byteLength / 1024;
    const useWrk = hasCommand('wrk');
    const tool = useWrk ? 'wrk -t2 -c50' : 'autocannon -c50';
    const loadOf = (url: string, seconds: number, headers?: Record<string, string>) =>
      useWrk ? wrk(url, { seconds, headers }) : autocannon(url, { seconds, headers });
    const targets = [
      {
        what: `segment ${fmt(segmentKb, 0)} KB, bucket endpoint (anonymous)`,
        url: bucketSegmentUrl,
        note: 's3rver + SigV4 front (Node): a floor',
      },
      { what: 'key, API (bearer session + token + policy)', url: keyUrl, headers: bearer, note: '' },
      { what: `segment ${fmt(segmentKb, 0)} KB, API from S3 store`, url: apiSegmentUrl, note: 'hot cache' },
    ];
    for (const target of targets) await loadOf(target.url, 2, target.headers); // warm-up, not reported
    const throughput: Array<Record<string, string>> = [];
    for (const target of targets) {
      process.stderr.write(`measuring ${target.what} (${tool}, ${SECONDS} s)...\n`);
      const cpuBefore = await ownCpuMs();
      const result: LoadResult = await loadOf(target.url, SECONDS, target.headers);
      const cpuUs = result.requests ? (((await ownCpuMs()) - cpuBefore) * 1000) / result.requests : null;
      throughput.push({
        what: target.what,
        'req/s': fmt(result.requestsPerSec, 0),
        'MB/s': fmt(result.mbPerSec),
        'p50 ms': fmt(result.p50Ms, 2),
        'p99 ms': fmt(result.p99Ms, 2),
        errors: String(result.errors),
        'CPU us/req': fmt(cpuUs, 0),
        note: target.note,
      });
    }

    // 3. Transcodes, alternating stores so that load from elsewhere hits both alike.
    const wav = path.join(work, 'song.wav');
    await makeWav(tools.ffmpeg, wav, SONG_SECONDS);
    const [artistUser] = await database.db
      .insert(users)
      .values({
        name: 'Bench Artist',
        email: `artist-${randomBytes(4).toString('hex')}@bench.local`,
        role: 'artist',
      })
      .returning();
    await database.db.insert(artists).values({ name: 'Bench Artist', ownerUserId: artistUser!.id });
    const artistToken = randomBytes(32).toString('base64url');
    await database.db.insert(sessions).values({
      userId: artistUser!.id,
      tokenHash: hashToken(artistToken),
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    const transcodes = new Map<string, Array<{ upload: number; job: number }>>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const [store, { app, origin }] of [
        ['S3', onS3],
        ['local disk', onDisk],
      ] as const) {
        process.stderr.write(`transcode ${round + 1}/${ROUNDS} on ${store}...\n`);
        const form = new FormData();
        form.append('title', `Round ${round + 1}`);
        form.append('audio', await openAsBlob(wav, { type: 'audio/wav' }), 'song.wav');
        const uploadStarted = performance.now();
        const res = await fetch(`${origin}/api/songs`, {
          method: 'POST',
          headers: { authorization: `Bearer ${artistToken}` },
          body: form,
        });
        if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
        const id = ((await res.json()) as { song: { _id: string } }).song._id;
        const accepted = performance.now();
        // Only the transcode (HLS + master): the preview and MP3 jobs it queues are left waiting.
        await app.services.jobs.drain([TRANSCODE_JOB]);
        const ready = performance.now();
        const [row] = await database.db.select({ status: songs.status }).from(songs).where(eq(songs.id, id));
        if (row?.status !== 'ready') throw new Error(`song on ${store} is ${row?.status}, not ready`);
        transcodes.set(store, [
          ...(transcodes.get(store) ?? []),
          { upload: (accepted - uploadStarted) / 1000, job: (ready - accepted) / 1000 },
        ]);
      }
    }

    // 2. The 200 MB upload to the server as its own process.
    const bigWav = path.join(work, 'long-take.wav');
    await makeWav(tools.ffmpeg, bigWav, UPLOAD_SECONDS);
    process.stderr.write('uploading to the server process on S3...\n');
    const server = await startUploadServer(s3, path.join(work, 'upload-server'));
    stops.push(() => server.stop());
    const uploads: UploadFigures[] = [];
    uploads.push(await server.upload(wav, 'Three minutes'));
    uploads.push(await server.upload(bigWav, 'Nineteen minutes'));

    console.log(
      `\n1. Throughput, ${tool}, ${SECONDS} s each, loopback. The bucket endpoint is s3rver (a Node test server) ` +
        'behind the tests’ SigV4 front, in this process: its figure is a floor, not what a CDN or S3 gives. ' +
        'CPU us/req is this whole process (app and S3 server).\n',
    );
    printTable(throughput);

    console.log(
      `\n2. Upload through POST /api/songs to the server as a child process (MEDIA_STORE=s3, JOBS=off; pid ` +
        `${server.pid}), body streamed from disk; server VmRSS sampled every 100 ms\n`,
    );
    printTable(
      uploads.map((u) => ({
        file: u.file,
        size: `${fmt(u.megabytes)} MB`,
        seconds: fmt(u.seconds, 2),
        'MB/s': fmt(u.megabytes / u.seconds),
        'RSS before': `${fmt(u.rssBeforeMb)} MB`,
        'RSS peak': `${fmt(u.rssPeakMb)} MB`,
        'RSS after': `${fmt(u.rssAfterMb)} MB`,
        'peak - before': `${fmt(u.rssPeakMb - u.rssBeforeMb)} MB`,
        'bench process peak *': `${fmt(u.benchRssPeakMb)} MB`,
      })),
    );

    console.log(
      '* the bench process sends the file from disk but also hosts the local S3 server (its SigV4 front holds each ' +
        '5 MiB part to check its hash), the in-process apps and PGlite: not a figure of the server under test',
    );

    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    console.log(
      `\n3. Transcode job of one ${SONG_SECONDS} s WAV (upload accepted -> song ready: encrypted HLS + FLAC ` +
        `master, read from and written to the store), ${ROUNDS} rounds alternating, in-process apps\n`,
    );
    const rows = [...transcodes].map(([store, runs]) => ({
      store,
      'upload s (median)': fmt(median(runs.map((r) => r.upload)), 2),
      'transcode s (median)': fmt(median(runs.map((r) => r.job)), 2),
      'transcode s (each)': runs.map((r) => fmt(r.job, 2)).join(' / '),
    }));
    printTable(rows);
    const s3Job = median(transcodes.get('S3')!.map((r) => r.job));
    const localJob = median(transcodes.get('local disk')!.map((r) => r.job));
    console.log(`transcode ratio S3 / local disk (medians): ${fmt(s3Job / localJob, 2)}`);
    console.log(`\nload average at end: ${load()}`);
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    await database.close();
    await s3.stop();
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
