/**
 * Catalogue read benchmark: p50/p95 latency of the public song list, search and genre list at 1k, 10k and 100k
 * songs (10k artists and 20k albums at the top size), on embedded PGlite and on a throwaway real PostgreSQL,
 * plus throughput of the public lists over HTTP at the top size (guest and signed-in listener).
 *
 *   npm run bench:catalog -w @backbeat/bench                     # 1k, 10k, 100k on PGlite, then PostgreSQL
 *   BENCH_DB=pglite BENCH_SIZES=100000 npm run bench:catalog ...  # one database, one size
 *   BENCH_DB=postgres BENCH_SIZES=1000 BENCH_HTTP_ONLY=1 ...      # quick: only the HTTP throughput rows
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { openDatabase, type Database, type DatabaseOptions } from '../apps/server/src/db/client';
import { startThrowawayCluster, type ThrowawayCluster } from '../apps/server/test/postgres-cluster';
import { SIZES, seedCatalogue, seedListener } from './catalog-bench.seed';
import { autocannon, hasCommand, wrk, type LoadResult } from './http-load';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const WARMUP = 20;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
/** Skips the sequential app.inject rows (e.g. for a CPU profile of the server under HTTP load). */
const HTTP_ONLY = process.env.BENCH_HTTP_ONLY === '1';

interface Row {
  database: string;
  songs: number;
  what: string;
  p50: number;
  p95: number;
  reqPerSec?: number;
}

/**
 * Requests measured one after another through app.inject: server time without network or client effects.
 * `cold` rows clear the catalogue answer cache before every request (the database path: what a first visitor
 * after a catalogue change waits for); the others are answered from it after the first request.
 */
const ENDPOINTS: Array<{ what: string; url: string; cold?: boolean }> = [
  // Reference for this machine: one trivial query ("select 1") through the same stack.
  { what: 'GET /api/health (reference)', url: '/api/health' },
  { what: 'GET /api/songs (page 1, cold)', url: '/api/songs', cold: true },
  { what: 'GET /api/songs (page 50, cold)', url: '/api/songs?page=50', cold: true },
  { what: 'GET /api/songs/genre/jazz (cold)', url: '/api/songs/genre/jazz', cold: true },
  { what: 'GET /api/artists (cold)', url: '/api/artists', cold: true },
  { what: 'GET /api/albums (cold)', url: '/api/albums', cold: true },
  { what: 'GET /api/songs (page 1, cached)', url: '/api/songs' },
  { what: 'GET /api/search?q=midnight (word)', url: '/api/search?q=midnight' },
  { what: 'GET /api/search?q=lighthuose (typo)', url: '/api/search?q=lighthuose' },
  { what: 'GET /api/search?q=kalo reyes (artist)', url: '/api/search?q=kalo%20reyes' },
];

/**
 * Public lists over HTTP at the top size: guests, and one signed-in listener (per-account cache entries). Load
 * comes from wrk -t2 -c50 (how the ARCHITECTURE section 8 references were measured; autocannon, a Node process,
 * spends about as much CPU per request as the server does and would mostly measure itself), else autocannon.
 */
const THROUGHPUT: Array<{ what: string; path: string; signedIn?: boolean }> = [
  { what: 'GET /api/songs', path: '/api/songs' },
  { what: 'GET /api/artists', path: '/api/artists' },
  { what: 'GET /api/albums', path: '/api/albums' },
  { what: 'GET /api/songs/genre/jazz', path: '/api/songs/genre/jazz' },
  { what: 'GET /api/songs (signed-in listener)', path: '/api/songs', signedIn: true },
];
const LISTENER_TOKEN = 'catalog-bench-listener-session-token-0123456789';
const useWrk = hasCommand('wrk');
const LOAD_TOOL = useWrk ? 'wrk -t2 -c50' : 'autocannon -c10';

function load(url: string, headers: Record<string, string>): Promise<LoadResult> {
  return useWrk
    ? wrk(url, { seconds: SECONDS, headers })
    : autocannon(url, { connections: 10, seconds: SECONDS, headers });
}

/**
 * The same-run reference: a bare Fastify route answering the guest song list's cached body from a string (the
 * ARCHITECTURE section 8 reference, 60k req/s on an idle machine), so figures from a busy machine compare.
 */
async function referenceThroughput(body: string): Promise<LoadResult> {
  const bare = Fastify();
  bare.get('/api/songs', (_request, reply) =>
    reply.header('content-type', 'application/json; charset=utf-8').send(body),
  );
  await bare.listen({ port: 0, host: '127.0.0.1' });
  try {
    const { port } = bare.server.address() as AddressInfo;
    return await load(`http://127.0.0.1:${port}/api/songs`, {});
  } finally {
    await bare.close();
  }
}

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function measure(app: Awaited<ReturnType<typeof buildApp>>, url: string, cold = false) {
  const times: number[] = [];
  for (let i = 0; i < WARMUP + REQUESTS; i++) {
    if (cold) app.services.catalogCache.invalidate();
    const started = performance.now();
    const res = await app.inject({ method: 'GET', url });
    const elapsed = performance.now() - started;
    if (res.statusCode !== 200)
      throw new Error(`${url} answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
    if (i >= WARMUP) times.push(elapsed);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

async function withApp<T>(
  database: Database,
  work: (app: Awaited<ReturnType<typeof buildApp>>) => Promise<T>,
) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'backbeat-catalog-bench-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
    SECRET_KEY: 'x'.repeat(40),
  });
  const app = await buildApp({ config, database });
  await app.ready();
  try {
    return await work(app);
  } finally {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function runOne(
  label: string,
  options: DatabaseOptions,
  songs: number,
  rows: Row[],
  throughput: boolean,
) {
  const database = await openDatabase(options);
  try {
    await database.migrate();
    const seeding = performance.now();
    await seedCatalogue(database, songs);
    await seedListener(database, LISTENER_TOKEN);
    console.error(
      `[bench] ${label} ${songs} songs seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
    );
    await withApp(database, async (app) => {
      for (const endpoint of HTTP_ONLY ? [] : ENDPOINTS) {
        const { p50, p95 } = await measure(app, endpoint.url, endpoint.cold);
        rows.push({ database: label, songs, what: endpoint.what, p50, p95 });
      }
      if (throughput) {
        await app.listen({ port: 0, host: '127.0.0.1' });
        const { port } = app.server.address() as AddressInfo;
        const reference = await referenceThroughput((await app.inject({ url: '/api/songs' })).body);
        rows.push({
          database: label,
          songs,
          what: `bare Fastify, same cached body (reference) over HTTP (${LOAD_TOOL})`,
          p50: reference.p50Ms ?? NaN,
          p95: NaN,
          reqPerSec: reference.requestsPerSec,
        });
        for (const target of THROUGHPUT) {
          const result = await load(
            `http://127.0.0.1:${port}${target.path}`,
            target.signedIn ? { authorization: `Bearer ${LISTENER_TOKEN}` } : {},
          );
          if (result.errors > 0) throw new Error(`${target.what}: ${result.errors} failed requests`);
          rows.push({
            database: label,
            songs,
            what: `${target.what} over HTTP (${LOAD_TOOL})`,
            p50: result.p50Ms ?? NaN,
            p95: NaN,
            reqPerSec: result.requestsPerSec,
          });
        }
      }
    });
  } finally {
    await database.close();
  }
}

async function postgresDatabase(cluster: ThrowawayCluster, name: string): Promise<DatabaseOptions> {
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(cluster.url);
  url.pathname = `/${name}`;
  return { kind: 'postgres', url: url.toString() };
}

function printTable(rows: Row[]) {
  const cells = rows.map((row) => [
    row.database,
    String(row.songs),
    row.what,
    row.p50.toFixed(2),
    Number.isNaN(row.p95) ? '-' : row.p95.toFixed(2),
    row.reqPerSec ? row.reqPerSec.toFixed(0) : '-',
  ]);
  const header = ['database', 'songs', 'request', 'p50 ms', 'p95 ms', 'req/s'];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (values: string[]) => `| ${values.map((v, i) => v.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(
    `\nCatalogue benchmark: ${REQUESTS} sequential requests per row via app.inject (after ${WARMUP} warm-up), guest viewer\n`,
  );
  console.log(line(header));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const row of cells) console.log(line(row));
}

async function main() {
  const rows: Row[] = [];
  const only = process.env.BENCH_DB; // 'pglite' | 'postgres' to run one side
  const sizes = process.env.BENCH_SIZES ? process.env.BENCH_SIZES.split(',').map(Number) : SIZES;
  if (only !== 'postgres') {
    for (const songs of sizes) {
      await runOne('pglite', { kind: 'pglite' }, songs, rows, songs === Math.max(...sizes));
    }
  }
  if (only !== 'pglite') {
    const cluster = await startThrowawayCluster();
    try {
      for (const songs of sizes) {
        const options = await postgresDatabase(cluster, `bench_${songs}`);
        await runOne('postgres', options, songs, rows, songs === Math.max(...sizes));
      }
    } finally {
      cluster.stop();
    }
  }
  printTable(rows);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
