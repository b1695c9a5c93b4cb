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
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import pg from 'pg';
import { buildApp, loadConfig } from '@backbeat/server/app';
import { type Database, type DatabaseOptions, openDatabase } from '@backbeat/server/db';
import { startThrowawayCluster, type ThrowawayCluster } from '@backbeat/server/testing';
import { GENRES, SIZES, WORDS, seedCatalogue, seedListener } from './catalog-bench.seed';
import { autocannon, hasCommand, wrk, type LoadResult } from './http-load';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const WARMUP = 20;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
/** Alternating rounds of the HTTP throughput rows; each row reports its median round. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Skips the sequential app.inject rows (e.g. for a CPU profile of the server under HTTP load). */
const HTTP_ONLY = process.env.BENCH_HTTP_ONLY === '1';

interface Row {
  database: string;
  songs: number;
  what: string;
  p50: number;
  p95: number;
  reqPerSec?: number;
  /** CPU microseconds per request of the serving process. */
  cpuUs?: number;
  /** req/s over the same run's reference, and the reference's CPU per request over this row's. */
  ratio?: number;
  cpuRatio?: number;
}

/**
 * Requests measured one after another through app.inject: server time without network or client effects.
 * `cold` rows clear the catalogue answer cache before every request (the database path: what a first visitor
 * after a catalogue change waits for); the others are answered from it after the first request. A row whose `url`
 * is a function asks something new every time (request `i`): searches with a different term each, so neither the
 * answer cache nor the search-matches cache (both also cleared) can answer.
 */
const ENDPOINTS: Array<{ what: string; url: string | ((i: number) => string); cold?: boolean }> = [
  // Reference for this machine: one trivial query ("select 1") through the same stack.
  { what: 'GET /api/health (reference)', url: '/api/health' },
  { what: 'GET /api/songs (page 1, cold)', url: '/api/songs', cold: true },
  { what: 'GET /api/songs (page 50, cold)', url: '/api/songs?page=50', cold: true },
  { what: 'GET /api/songs/genre/jazz (cold)', url: '/api/songs/genre/jazz', cold: true },
  { what: 'GET /api/artists (cold)', url: '/api/artists', cold: true },
  { what: 'GET /api/albums (cold)', url: '/api/albums', cold: true },
  { what: 'GET /api/songs (page 1, cached)', url: '/api/songs' },
  { what: 'GET /api/search?q=midnight (word, cached)', url: '/api/search?q=midnight' },
  { what: 'GET /api/search, a new word each time', url: (i) => search(uniqueWord(i)), cold: true },
  { what: 'GET /api/search, a new typo each time', url: (i) => search(typo(uniqueWord(i))), cold: true },
  {
    what: 'GET /api/search, two new words each time',
    url: (i) => search(`${uniqueWord(i)} ${uniqueWord(i + 7)}`),
    cold: true,
  },
  { what: 'GET /api/search, a genre name', url: (i) => search(GENRES[i % GENRES.length]!), cold: true },
  { what: 'GET /api/search?q=kalo reyes (artist, cold)', url: '/api/search?q=kalo%20reyes', cold: true },
];

const search = (q: string) => `/api/search?q=${encodeURIComponent(q)}`;
/** The catalogue's title words (catalog-bench.seed.ts), one per request, in a stable shuffled order. */
const titleWords = WORDS.filter((word) => word.length >= 4);
const uniqueWord = (i: number) => titleWords[(i * 37) % titleWords.length]!;
/** The word with two neighbouring letters swapped in the middle ("lighthouse" -> "lighthuose"). */
const typo = (word: string) => {
  const at = Math.floor(word.length / 2);
  return `${word.slice(0, at - 1)}${word[at]}${word[at - 1]}${word.slice(at + 1)}`;
};

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

function load(url: string, headers: Record<string, string>, seconds = SECONDS): Promise<LoadResult> {
  return useWrk ? wrk(url, { seconds, headers }) : autocannon(url, { connections: 10, seconds, headers });
}

/**
 * The same-run reference: a bare Fastify route answering the guest song list's cached body from a string (the
 * ARCHITECTURE section 8 reference, 60k req/s on an idle machine), so figures from a busy machine compare.
 */
async function startReference(body: string) {
  const bare = Fastify();
  bare.get('/api/songs', (_request, reply) =>
    reply.header('content-type', 'application/json; charset=utf-8').send(body),
  );
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const { port } = bare.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/api/songs`, close: () => bare.close() };
}

interface Throughput {
  what: string;
  url: string;
  headers: Record<string, string>;
}

/** This process's CPU time (user + system) in microseconds: the app and the reference both run in it. */
const cpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

/**
 * Each target is warmed up first (a short unmeasured run: V8 optimises the request path during the first
 * seconds, and a cold first row was the app's measured 0.54x), then all targets are measured in ROUNDS
 * alternating rounds so that load from elsewhere on the machine falls on each alike; a row is the median round.
 * CPU per request (of this process, which serves both) is far less disturbed by that load than req/s.
 */
async function throughputRows(targets: Throughput[]): Promise<Array<LoadResult & { cpuUs: number }>> {
  for (const target of targets) await load(target.url, target.headers, 2);
  const rounds = targets.map(() => [] as Array<LoadResult & { cpuUs: number }>);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, target] of targets.entries()) {
      const before = cpuMicros();
      const result = await load(target.url, target.headers);
      if (result.errors > 0) throw new Error(`${target.what}: ${result.errors} failed requests`);
      rounds[index]!.push({ ...result, cpuUs: (cpuMicros() - before) / Math.max(1, result.requests) });
    }
  }
  return rounds.map((results) => {
    const sorted = [...results].sort((a, b) => a.requestsPerSec - b.requestsPerSec);
    return sorted[Math.floor(sorted.length / 2)]!;
  });
}

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function measure(
  app: Awaited<ReturnType<typeof buildApp>>,
  url: string | ((i: number) => string),
  cold = false,
) {
  const times: number[] = [];
  for (let i = 0; i < WARMUP + REQUESTS; i++) {
    if (cold) app.services.catalogCache.invalidate();
    const target = typeof url === 'string' ? url : url(i);
    const started = performance.now();
    const res = await app.inject({ method: 'GET', url: target });
    const elapsed = performance.now() - started;
    if (res.statusCode !== 200)
      throw new Error(`${target} answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
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
        const reference = await startReference((await app.inject({ url: '/api/songs' })).body);
        try {
          const targets: Throughput[] = [
            { what: `bare Fastify, same cached body (reference)`, url: reference.url, headers: {} },
            ...THROUGHPUT.map((target) => ({
              what: target.what,
              url: `http://127.0.0.1:${port}${target.path}`,
              headers: target.signedIn
                ? { authorization: `Bearer ${LISTENER_TOKEN}` }
                : ({} as Record<string, string>),
            })),
          ];
          const results = await throughputRows(targets);
          const referenceRate = results[0]!.requestsPerSec;
          const referenceCpu = results[0]!.cpuUs;
          for (const [index, target] of targets.entries()) {
            const result = results[index]!;
            rows.push({
              database: label,
              songs,
              what: `${target.what} over HTTP (${LOAD_TOOL})`,
              p50: result.p50Ms ?? NaN,
              p95: NaN,
              reqPerSec: result.requestsPerSec,
              cpuUs: result.cpuUs,
              ...(index > 0
                ? { ratio: result.requestsPerSec / referenceRate, cpuRatio: referenceCpu / result.cpuUs }
                : {}),
            });
          }
        } finally {
          await reference.close();
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
    row.cpuUs ? row.cpuUs.toFixed(0) : '-',
    row.ratio ? `${row.ratio.toFixed(2)}x` : '-',
    row.cpuRatio ? `${row.cpuRatio.toFixed(2)}x` : '-',
  ]);
  const header = [
    'database',
    'songs',
    'request',
    'p50 ms',
    'p95 ms',
    'req/s',
    'CPU us/req',
    'vs ref',
    'CPU vs ref',
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (values: string[]) => `| ${values.map((v, i) => v.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(
    `\nCatalogue benchmark: ${REQUESTS} sequential requests per row via app.inject (after ${WARMUP} warm-up), guest viewer; ` +
      `HTTP rows: median of ${ROUNDS} alternating ${SECONDS} s rounds after a 2 s warm-up each; load average at the end ` +
      `${loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}\n`,
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
