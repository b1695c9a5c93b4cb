/**
 * Previews and downloads: what the media jobs cost per song, how fast tagged files and album ZIPs stream, how much
 * memory a server holds while several ZIPs stream at once (they are streamed as built, never buffered whole), and
 * the preview key endpoint's throughput next to the song key's, measured in the same run.
 *
 *   npm run bench:downloads -w @backbeat/bench
 *   BENCH_TRACKS=10 BENCH_TRACK_SECONDS=240 BENCH_PARALLEL=8 ...   # a bigger album, more parallel downloads
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { buildApp, loadConfig } from '@backbeat/server/app';
import { albums, artists, hashToken, purchases, sessions, users } from '@backbeat/server/db';
import {
  cutPreviewClip,
  encodeFlacMaster,
  encodeMp3,
  locateFfmpeg,
  transcodeToEncryptedHls,
} from '@backbeat/server/media';
import { openBenchDatabase } from './bench-fixtures';
import { autocannon, ownCpuMs } from './http-load';

const run = promisify(execFile);
const TRACKS = Number(process.env.BENCH_TRACKS ?? 6);
const TRACK_SECONDS = Number(process.env.BENCH_TRACK_SECONDS ?? 180);
const PARALLEL = Number(process.env.BENCH_PARALLEL ?? 4);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

const fmt = (value: number, digits = 1) => value.toFixed(digits);

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

/** Fetches `url` to the end; time to the first body byte and in total, bytes, and the Content-Length it promised. */
async function download(url: string, headers: Record<string, string>) {
  const started = performance.now();
  const res = await fetch(url, { headers });
  if (!res.ok || !res.body) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
  let firstByteMs = 0;
  let bytes = 0;
  for await (const chunk of res.body) {
    if (bytes === 0) firstByteMs = performance.now() - started;
    bytes += (chunk as Uint8Array).length;
  }
  const totalMs = performance.now() - started;
  return { firstByteMs, totalMs, bytes, contentLength: res.headers.get('content-length') };
}

async function main() {
  const work = await mkdtemp(path.join(tmpdir(), 'backbeat-downloads-bench-'));
  const { database } = await openBenchDatabase(work, false);
  const tools = await locateFfmpeg();
  const stops: Array<() => Promise<void>> = [];
  console.log(
    `load average at start: ${loadavg()
      .map((n) => fmt(n, 2))
      .join(' ')}`,
  );
  try {
    await database.migrate();
    const config = loadConfig({
      NODE_ENV: 'production',
      SMTP_URL: 'smtp://127.0.0.1:25',
      DATA_DIR: work,
      SECRET_KEY: randomBytes(48).toString('base64url'),
      PUBLIC_URL: 'http://127.0.0.1',
      LOG_LEVEL: 'silent',
      SEED_DEMO: 'false',
    });
    const app = await buildApp({ config, database });
    stops.push(() => app.close());
    await app.listen({ port: 0, host: '127.0.0.1' });
    const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

    // One lossless source, as an upload would arrive (music-like: several tones and noise, stereo).
    const wav = path.join(work, 'source.wav');
    await run(tools.ffmpeg, [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i'],
      `aevalsrc=0.3*sin(2*PI*220*t)+0.2*sin(2*PI*331*t)+0.05*random(0):s=44100:d=${TRACK_SECONDS}`,
      ...['-ac', '2', wav],
    ]);

    // What the jobs cost for one song of TRACK_SECONDS, each step alone (one core).
    console.log(`\nmedia jobs for one ${TRACK_SECONDS} s lossless song (ffmpeg, one process at a time)`);
    const hls = await timed(() =>
      transcodeToEncryptedHls(tools, { input: wav, outDir: path.join(work, 'hls'), encoder: 'quality' }),
    );
    const flac = await timed(() =>
      encodeFlacMaster(tools, { input: wav, outFile: path.join(work, 'master.flac') }),
    );
    const mp3 = await timed(() =>
      encodeMp3(tools, { input: path.join(work, 'master.flac'), outFile: path.join(work, 'song.mp3') }),
    );
    const clip = await timed(async () => {
      await cutPreviewClip(tools, {
        input: path.join(work, 'master.flac'),
        outFile: path.join(work, 'clip.flac'),
        startSec: 30,
        durationSec: 30,
      });
      await transcodeToEncryptedHls(tools, {
        input: path.join(work, 'clip.flac'),
        outDir: path.join(work, 'preview'),
        encoder: 'quality',
      });
    });
    const clipFast = await timed(() =>
      transcodeToEncryptedHls(tools, {
        input: path.join(work, 'clip.flac'),
        outDir: path.join(work, 'preview-fast'),
        encoder: 'fast',
      }),
    );
    const rt = (ms: number, seconds = TRACK_SECONDS) =>
      `${fmt(ms / 1000, 2)} s (${fmt(seconds / (ms / 1000), 0)}x real time)`;
    console.table([
      { step: 'stream transcode (existing, AAC quality)', time: rt(hls.ms) },
      { step: 'FLAC master (lossless uploads, in the transcode job)', time: rt(flac.ms) },
      { step: 'MP3 320 kbit/s (MP3 job, from the master)', time: rt(mp3.ms) },
      { step: 'preview job: 30 s clip + encrypted HLS (quality)', time: rt(clip.ms, 30) },
      { step: 'preview HLS only, fast coder (demo seed)', time: rt(clipFast.ms, 30) },
    ]);

    // A bought album of TRACKS songs, uploaded through the API and made ready by the job queue.
    const db = database.db;
    const [artistUser] = await db
      .insert(users)
      .values({
        name: 'Bench Artist',
        email: `artist-${randomBytes(4).toString('hex')}@bench.local`,
        role: 'artist',
      })
      .returning();
    const [buyer] = await db
      .insert(users)
      .values({ name: 'Bench Buyer', email: `buyer-${randomBytes(4).toString('hex')}@bench.local` })
      .returning();
    const bearer = async (userId: string) => {
      const token = randomBytes(32).toString('base64url');
      await db
        .insert(sessions)
        .values({ userId, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + 86_400_000) });
      return { authorization: `Bearer ${token}` };
    };
    const artistHeaders = await bearer(artistUser!.id);
    const buyerHeaders = await bearer(buyer!.id);
    const [artist] = await db
      .insert(artists)
      .values({ name: 'Bench Artist', ownerUserId: artistUser!.id })
      .returning();
    const [album] = await db
      .insert(albums)
      .values({ artistId: artist!.id, title: 'Bench Album', price: 999, isPremium: true })
      .returning();
    const audio = await readFile(wav);
    for (let track = 1; track <= TRACKS; track += 1) {
      const form = new FormData();
      form.append('title', `Track ${track}`);
      form.append('accessType', 'purchase-only');
      form.append('album', album!.id);
      form.append('audio', new Blob([new Uint8Array(audio)]), 'track.wav');
      const res = await fetch(`${origin}/api/songs`, { method: 'POST', headers: artistHeaders, body: form });
      if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
    }
    const jobs = await timed(() => app.services.jobs.drain());
    console.log(
      `\n${TRACKS} uploads of ${TRACK_SECONDS} s processed by the job queue (transcode + FLAC master, ` +
        `preview, MP3; one at a time): ${fmt(jobs.ms / 1000)} s`,
    );
    await db.insert(purchases).values({ userId: buyer!.id, albumId: album!.id });

    const link = async (itemType: string, id: string, format: string) => {
      const res = await fetch(`${origin}/api/downloads/${itemType}/${id}`, {
        method: 'POST',
        headers: { ...buyerHeaders, 'content-type': 'application/json' },
        body: JSON.stringify({ format }),
      });
      if (res.status !== 201) throw new Error(`link answered ${res.status}: ${await res.text()}`);
      return `${origin}${((await res.json()) as { url: string }).url}`;
    };
    const songs = (await (await fetch(`${origin}/api/songs/album/${album!.id}`)).json()) as Array<{
      _id: string;
    }>;

    const rows: Array<Record<string, string>> = [];
    for (const [what, itemType, id, format] of [
      ['one song, MP3 (ID3 tag + stored file)', 'song', songs[0]!._id, 'mp3'],
      ['one song, FLAC (ffmpeg re-mux to a pipe)', 'song', songs[0]!._id, 'flac'],
      [`album ZIP, ${TRACKS} MP3s`, 'album', album!.id, 'mp3'],
      [`album ZIP, ${TRACKS} FLACs`, 'album', album!.id, 'flac'],
    ] as const) {
      const result = await download(await link(itemType, id, format), buyerHeaders);
      rows.push({
        download: what,
        size: `${fmt(result.bytes / 1e6)} MB`,
        'first byte': `${fmt(result.firstByteMs, 0)} ms`,
        total: `${fmt(result.totalMs, 0)} ms`,
        throughput: `${fmt(result.bytes / 1e6 / (result.totalMs / 1000))} MB/s`,
        'Content-Length': result.contentLength === null ? 'none (streamed)' : 'exact',
      });
    }
    console.log('\ndownloads over HTTP on loopback, one at a time');
    console.table(rows);

    // Several album ZIPs at once: the server's memory grows by buffers, not by the archives' size.
    for (const format of ['mp3', 'flac'] as const) {
      const urls = await Promise.all(
        Array.from({ length: PARALLEL }, () => link('album', album!.id, format)),
      );
      global.gc?.();
      const rssBefore = process.memoryUsage().rss;
      let rssPeak = rssBefore;
      const sampler = setInterval(() => {
        rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
      }, 20);
      const cpuBefore = await ownCpuMs();
      const all = await timed(() => Promise.all(urls.map((url) => download(url, buyerHeaders))));
      clearInterval(sampler);
      const bytes = all.value.reduce((sum, result) => sum + result.bytes, 0);
      console.log(
        `${PARALLEL} album ZIPs (${format}) at once: ${fmt(bytes / 1e6)} MB in ${fmt(all.ms / 1000, 2)} s = ` +
          `${fmt(bytes / 1e6 / (all.ms / 1000))} MB/s; process RSS (server and client) +${fmt((rssPeak - rssBefore) / 1e6)} MB at peak ` +
          `(the archives total ${fmt(bytes / 1e6)} MB); process CPU ${fmt((await ownCpuMs()) - cpuBefore, 0)} ms`,
      );
    }

    // Preview key (preview token; no purchase) next to the song key (stream token + access policy).
    const listener = await bearer(buyer!.id);
    const preview = (await (
      await fetch(`${origin}/api/stream/song/${songs[1]!._id}/preview`, { headers: listener })
    ).json()) as {
      url: string;
    };
    const previewToken = new URL(preview.url, origin).searchParams.get('token')!;
    const previewKey = `${origin}/api/stream/preview/${songs[1]!._id}/key?token=${encodeURIComponent(previewToken)}`;
    const stream = (await (
      await fetch(`${origin}/api/stream/song/${songs[1]!._id}`, { headers: listener })
    ).json()) as {
      url: string;
    };
    const streamToken = new URL(stream.url, origin).searchParams.get('token')!;
    const songKey = `${origin}/api/stream/hls/${songs[1]!._id}/key?token=${encodeURIComponent(streamToken)}`;
    await autocannon(previewKey, { seconds: 2, headers: listener });
    await autocannon(songKey, { seconds: 2, headers: listener });
    const keys = [];
    for (const [what, url] of [
      ['preview key (preview token + session)', previewKey],
      ['song key (stream token + session + policy)', songKey],
    ] as const) {
      const result = await autocannon(url, { seconds: SECONDS, headers: listener });
      keys.push({
        endpoint: what,
        'req/s': fmt(result.requestsPerSec, 0),
        p50: `${result.p50Ms} ms`,
        p99: `${result.p99Ms} ms`,
        errors: String(result.errors),
      });
    }
    console.log(`\nkey endpoints, autocannon -c50 -d${SECONDS} (${database.kind})`);
    console.table(keys);
    console.log(
      `load average at end: ${loadavg()
        .map((n) => fmt(n, 2))
        .join(' ')}`,
    );
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    await database.close();
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
