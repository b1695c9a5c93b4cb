/**
 * Streaming benchmark: the key endpoint (session + token + access policy) and segment delivery, measured next to
 * references from the same run: nginx with sendfile and a bare node:http + createReadStream server. Segments are
 * also measured through the production topology (deploy/nginx/backbeat.conf in front of the app, the app on
 * SEGMENT_BASE_URL=/media: the URL a rewritten playlist gives), whose budget is >= 0.9x raw nginx.
 * Besides req/s it prints CPU time per request (user + system of the serving process), which a busy shared
 * machine disturbs far less than throughput.
 *
 *   npm run bench:stream -w @backbeat/bench            # PGlite (the default `npm start` database)
 *   npm run bench:stream -w @backbeat/bench -- --pg    # a throwaway PostgreSQL cluster (needs its binaries)
 *   BENCH_SECONDS=10 BENCH_ROUNDS=5 ...                # longer runs, more alternating segment rounds
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { buildApp, loadConfig, StreamingRepository } from '@backbeat/server/app';
import type { Database } from '@backbeat/server/db';
import { freePort, startNginxSite } from '@backbeat/server/testing';
import { openBenchDatabase, seedStreamingListener } from './bench-fixtures';
import {
  autocannon,
  hasCommand,
  ownCpuMs,
  processCpuMs,
  startNginx,
  startNodeReference,
  wrk,
  type LoadResult,
} from './http-load';
import { printTable, type Row } from './stream-bench.report';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const usePostgres = process.argv.includes('--pg');

/** The key endpoint's database work when nothing is cached: one access query, run back to back. */
async function coldAccessQuery(database: Database, songId: string, userId: string): Promise<Row> {
  const repository = new StreamingRepository(database.db);
  const timings: number[] = [];
  const until = performance.now() + 2000;
  const cpuBefore = await ownCpuMs();
  while (performance.now() < until) {
    const started = performance.now();
    await repository.findSongAccess(songId, userId, new Date());
    timings.push(performance.now() - started);
  }
  const cpuUs = ((await ownCpuMs()) - cpuBefore) * 1000;
  timings.sort((a, b) => a - b);
  const pick = (q: number) => timings[Math.min(timings.length - 1, Math.floor(q * timings.length))]!;
  return {
    what: 'access query, uncached (one at a time)',
    tool: 'in-process loop',
    note: 'cold key path: song facts + entitlements',
    cpuUsPerRequest: cpuUs / timings.length,
    result: {
      requests: timings.length,
      requestsPerSec: timings.length / 2,
      p50Ms: pick(0.5),
      p99Ms: pick(0.99),
      mbPerSec: 0,
      errors: 0,
    },
  };
}

async function main() {
  const work = await mkdtemp(path.join(tmpdir(), 'backbeat-stream-bench-'));
  const { database, cluster } = await openBenchDatabase(work, usePostgres);
  const stops: Array<() => Promise<void>> = [];
  try {
    await database.migrate();
    const config = loadConfig({
      NODE_ENV: 'production',
      // Required in production; the bench sends no mail.
      SMTP_URL: 'smtp://127.0.0.1:25',
      DATA_DIR: work,
      SECRET_KEY: randomBytes(48).toString('base64url'),
      PUBLIC_URL: 'http://127.0.0.1',
      LOG_LEVEL: 'silent',
      SEED_DEMO: 'false',
      // Playlists point segments at the nginx site's media location (the documented topology).
      SEGMENT_BASE_URL: '/media',
    });
    const app = await buildApp({ config, database });
    stops.push(() => app.close());
    await app.listen({ port: 0, host: '127.0.0.1' });
    const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const { userId, songId, prefix, session } = await seedStreamingListener(
      database,
      app.services.mediaStore,
      work,
    );
    const bearer = { authorization: `Bearer ${session}` };

    const issued = await fetch(`${origin}/api/stream/song/${songId}`, { headers: bearer });
    if (!issued.ok) throw new Error(`GET /api/stream/song answered ${issued.status}: ${await issued.text()}`);
    const playlistUrl = `${origin}${((await issued.json()) as { url: string }).url}`;
    const token = new URL(playlistUrl).searchParams.get('token')!;
    const keyUrl = `${origin}/api/stream/hls/${songId}/key?token=${token}`;
    const playlistText = await (await fetch(playlistUrl)).text();
    const firstSegmentLine = playlistText.split('\n').find((line) => line && !line.startsWith('#'))!;
    const segmentPath = `${prefix}/seg_0000.ts`;
    const segmentUrl = `${origin}/api/stream/hls/${songId}/seg_0000.ts`;
    const segmentFile = path.join(config.mediaDir, segmentPath);
    const segment = `segment ${Math.round((await stat(segmentFile)).size / 1024)} KB`;
    for (const url of [keyUrl, segmentUrl]) {
      const res = await fetch(url, { headers: bearer });
      if (!res.ok) throw new Error(`${url} answered ${res.status}`);
      await res.arrayBuffer();
    }

    const rows: Row[] = [];
    const measure = async (
      what: string,
      tool: string,
      note: string,
      cpuMs: () => Promise<number>,
      load: () => Promise<LoadResult>,
    ): Promise<Row> => {
      process.stderr.write(`measuring ${what} (${tool}, ${SECONDS} s)...\n`);
      const before = await cpuMs();
      const result = await load();
      const cpuUsPerRequest = result.requests ? (((await cpuMs()) - before) * 1000) / result.requests : null;
      return { what, tool, note, result, cpuUsPerRequest };
    };
    const keyBudget = 'budget >= 10000 req/s';

    // Warm-up (JIT, caches), not reported.
    await autocannon(keyUrl, { seconds: 2, headers: bearer });
    await autocannon(playlistUrl, { seconds: 2 });
    rows.push(
      await measure('key: bearer session + token + policy', 'autocannon -c50', keyBudget, ownCpuMs, () =>
        autocannon(keyUrl, { seconds: SECONDS, headers: bearer }),
      ),
      await measure('key: token + policy (no session)', 'autocannon -c50', keyBudget, ownCpuMs, () =>
        autocannon(keyUrl, { seconds: SECONDS }),
      ),
      await measure('playlist (token, cached template)', 'autocannon -c50', '', ownCpuMs, () =>
        autocannon(playlistUrl, { seconds: SECONDS }),
      ),
      await coldAccessQuery(database, songId, userId),
    );
    if (!hasCommand('wrk')) {
      const note = 'install wrk for the references';
      rows.push(
        await measure(`${segment} via app`, 'autocannon -c50', note, ownCpuMs, () =>
          autocannon(segmentUrl, { seconds: SECONDS }),
        ),
      );
      return printTable(rows, { database: database.kind, seconds: SECONDS, rounds: 1 });
    }
    rows.push(
      await measure('key: bearer session + token + policy', 'wrk -t2 -c50', keyBudget, ownCpuMs, () =>
        wrk(keyUrl, { seconds: SECONDS, headers: bearer }),
      ),
    );

    // Segments: app, node:http and nginx alternate for ROUNDS rounds so that load from elsewhere hits all alike.
    const nodePort = await freePort();
    const nodeReference = await startNodeReference(segmentFile, nodePort);
    stops.push(() => nodeReference.stop());
    const targets = [
      { what: `${segment} via app`, url: segmentUrl, cpuMs: ownCpuMs, note: 'budget >= node:http' },
      {
        what: `${segment} via node:http`,
        url: `http://127.0.0.1:${nodePort}/`,
        cpuMs: nodeReference.cpuMs,
        note: 'reference',
      },
    ];
    if (hasCommand('nginx')) {
      const nginxPort = await freePort();
      const nginx = await startNginx(config.mediaDir, nginxPort, work);
      stops.push(() => nginx.stop());
      const url = `http://127.0.0.1:${nginxPort}/${segmentPath}`;
      targets.push({
        what: `${segment} via nginx`,
        url,
        cpuMs: nginx.cpuMs,
        note: 'reference (sendfile, 1 worker)',
      });
      // The topology: the shipped site in front of this app, the segment URL taken from the playlist it serves.
      const site = await startNginxSite({
        mediaRoot: config.mediaDir,
        upstreams: [new URL(origin).host],
      });
      stops.push(() => site.stop());
      const topologyUrl = `${site.url}${firstSegmentLine}`;
      const check = await fetch(topologyUrl);
      if (check.status !== 200 || check.headers.get('access-control-allow-origin') !== '*')
        throw new Error(`${topologyUrl} was not served by the site's segment location (${check.status})`);
      await check.arrayBuffer();
      targets.push({
        what: `${segment} via topology`,
        url: topologyUrl,
        cpuMs: async () => (await Promise.all(site.pids().map(processCpuMs))).reduce((a, b) => a + b, 0),
        note: 'budget >= 0.9x nginx (deploy/nginx site, 1 worker)',
      });
    }
    for (const target of targets) await wrk(target.url, { seconds: 2 });
    const rounds = new Map<string, Row[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const target of targets) {
        const row = await measure(target.what, 'wrk -t2 -c50', target.note, target.cpuMs, () =>
          wrk(target.url, { seconds: SECONDS }),
        );
        rounds.set(target.what, [...(rounds.get(target.what) ?? []), row]);
      }
    }
    for (const results of rounds.values()) {
      const sorted = [...results].sort((a, b) => a.result.requestsPerSec - b.result.requestsPerSec);
      const median = sorted[Math.floor(sorted.length / 2)]!;
      rows.push({ ...median, spread: sorted.map((r) => Math.round(r.result.requestsPerSec)) });
    }
    printTable(rows, { database: database.kind, seconds: SECONDS, rounds: ROUNDS });
  } finally {
    for (const stop of stops.reverse()) await stop();
    await database.close();
    cluster?.stop();
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
