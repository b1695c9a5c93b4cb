/**
 * Dashboard benchmark: p50/p95/p99 of every dashboard call at 1M orders on a throwaway real PostgreSQL (budget:
 * p95 <= 50 ms each), measured through app.inject one request after another (server time, no network), with the
 * parameters varied per request (ranges ending today, artists picked among the busiest). Also the CSV export: time
 * to the first byte and rows per second.
 *
 *   npm run bench:dashboard -w @backbeat/bench
 *   BENCH_ORDERS=100000 BENCH_PLAYS=300000 BENCH_REQUESTS=50 npm run bench:dashboard -w @backbeat/bench  # quick
 *   BENCH_KEEP_DATABASE=1 ...  # leave the seeded cluster running at the end and print its URL and how to stop it
 *   BENCH_DATABASE_URL=postgres://.../dashboard_bench ...  # measure again a database this bench seeded before
 *
 * Seeding 1M orders and 3M plays and rebuilding the rollups takes about 20 minutes on a loaded 2-core machine.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp, loadConfig } from '@backbeat/server/app';
import { hashToken, openDatabase } from '@backbeat/server/db';
import { startThrowawayCluster } from '@backbeat/server/testing';
import { BENCH_ADMIN_TOKEN, BENCH_ARTIST_TOKEN, SCALE, seedLedger } from './dashboard-bench.seed';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 100);
/** Keep the seeded cluster for BENCH_DATABASE_URL runs (seeding takes the better part of the bench's time). */
const KEEP = process.env.BENCH_KEEP_DATABASE === '1';
const WARMUP = 10;
const BUDGET_MS = 50;
const DAY_MS = 86_400_000;

const day = (offset: number) => new Date(Date.now() - offset * DAY_MS).toISOString().slice(0, 10);
/** A range of `days` days ending today or up to a month earlier (so caches of one exact query do not flatter it). */
const range = (days: number, i: number) => {
  const end = i % 30;
  return `from=${day(end + days - 1)}&to=${day(end)}`;
};
const artistOf = (i: number) => {
  // The busiest artists (the popularity skew puts most orders on the first ones).
  const n = 1 + ((i * 7) % 50);
  return uuidOf(`artist${n}`);
};
/** bench_id(text), as the seed writes ids: md5 shaped as a version-4 UUID. */
function uuidOf(text: string) {
  const md5 = createHash('md5').update(text).digest('hex');
  const hex = `${md5.slice(0, 12)}4${md5.slice(13, 16)}8${md5.slice(17)}`;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

type Who = 'admin' | 'artist';
const CALLS: Array<{ what: string; who?: Who; url: (i: number) => string }> = [
  { what: 'GET /api/health (reference)', url: () => '/api/health' },
  // Platform (admin)
  { what: 'overview, platform, 30 days', url: (i) => `/api/admin/dashboard/overview?${range(30, i)}` },
  { what: 'overview, platform, 365 days', url: (i) => `/api/admin/dashboard/overview?${range(365, i)}` },
  { what: 'revenue, platform, 30 days by day', url: (i) => `/api/admin/dashboard/revenue?${range(30, i)}` },
  {
    what: 'revenue, platform, 365 days by week',
    url: (i) => `/api/admin/dashboard/revenue?${range(365, i)}&bucket=week`,
  },
  {
    what: 'revenue, platform, 730 days by month',
    url: (i) => `/api/admin/dashboard/revenue?${range(730, i)}&bucket=month`,
  },
  {
    what: 'subscribers, platform, 365 days by week',
    url: (i) => `/api/admin/dashboard/subscribers?${range(365, i)}&bucket=week`,
  },
  { what: 'plays, platform, 90 days by day', url: (i) => `/api/admin/dashboard/plays?${range(90, i)}` },
  { what: 'top songs by revenue, 30 days', url: (i) => `/api/admin/dashboard/top?type=song&${range(30, i)}` },
  {
    what: 'top songs by revenue, 365 days',
    url: (i) => `/api/admin/dashboard/top?type=song&${range(365, i)}`,
  },
  {
    what: 'top songs by plays, 30 days',
    url: (i) => `/api/admin/dashboard/top?type=song&by=plays&${range(30, i)}`,
  },
  {
    what: 'top songs by plays, 365 days',
    url: (i) => `/api/admin/dashboard/top?type=song&by=plays&${range(365, i)}`,
  },
  {
    what: 'top albums by revenue, 90 days',
    url: (i) => `/api/admin/dashboard/top?type=album&${range(90, i)}`,
  },
  {
    what: 'top artists by revenue, 365 days',
    url: (i) => `/api/admin/dashboard/top?type=artist&${range(365, i)}`,
  },
  // One artist (admin's per-artist page)
  {
    what: 'overview, one artist, 90 days',
    url: (i) => `/api/admin/dashboard/overview?artistId=${artistOf(i)}&${range(90, i)}`,
  },
  {
    what: 'revenue, one artist, 365 days by week',
    url: (i) => `/api/admin/dashboard/revenue?artistId=${artistOf(i)}&${range(365, i)}&bucket=week`,
  },
  {
    what: 'top songs, one artist, 365 days',
    url: (i) => `/api/admin/dashboard/top?type=song&artistId=${artistOf(i)}&${range(365, i)}`,
  },
  { what: 'revenue-summary (SPEC)', url: (i) => `/api/admin/dashboard/revenue-summary/${artistOf(i)}` },
  { what: 'subscriber-count (SPEC)', url: (i) => `/api/admin/dashboard/subscriber-count/${artistOf(i)}` },
  { what: 'purchased-songs (SPEC)', url: (i) => `/api/admin/dashboard/purchased-songs/${artistOf(i)}` },
  { what: 'purchased-albums (SPEC)', url: (i) => `/api/admin/dashboard/purchased-albums/${artistOf(i)}` },
  {
    what: 'subscribers list, one artist',
    url: (i) => `/api/admin/dashboard/subscribers/${artistOf(i)}`,
  },
  // The artist account's own dashboard
  {
    what: 'overview, own artist, 30 days',
    who: 'artist',
    url: (i) => `/api/admin/dashboard/overview?${range(30, i)}`,
  },
  // Transactions
  { what: 'transactions, page 1', url: () => '/api/admin/dashboard/transactions' },
  { what: 'transactions, page 400', url: () => '/api/admin/dashboard/transactions?page=400' },
  {
    what: 'transactions, one artist',
    url: (i) => `/api/admin/dashboard/transactions?artistId=${artistOf(i)}`,
  },
  {
    what: 'transactions, 30 days, albums, paypal',
    url: (i) => `/api/admin/dashboard/transactions?${range(30, i)}&itemType=album&gateway=paypal`,
  },
  { what: 'transactions, disputed', url: () => '/api/admin/dashboard/transactions?status=disputed' },
  { what: 'transactions, by amount', url: () => '/api/admin/dashboard/transactions?sort=-amount' },
  {
    what: 'transactions, one artist by amount',
    url: (i) => `/api/admin/dashboard/transactions?artistId=${artistOf(i)}&sort=-amount`,
  },
];

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function main() {
  console.log(
    `dashboard bench: ${SCALE.orders.toLocaleString('en-US')} orders, ${SCALE.plays.toLocaleString('en-US')} plays, ` +
      `${SCALE.songs.toLocaleString('en-US')} songs; load average ${loadavg()
        .map((v) => v.toFixed(2))
        .join(' ')}`,
  );
  const existing = process.env.BENCH_DATABASE_URL;
  const cluster = existing ? null : await startThrowawayCluster();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'backbeat-dashboard-bench-'));
  try {
    let databaseUrl = existing;
    if (!databaseUrl) {
      const admin = new pg.Client({ connectionString: cluster!.url });
      await admin.connect();
      await admin.query('CREATE DATABASE dashboard_bench');
      await admin.end();
      const url = new URL(cluster!.url);
      url.pathname = '/dashboard_bench';
      databaseUrl = url.toString();
    }
    const database = await openDatabase({ kind: 'postgres', url: databaseUrl, max: 5 });
    if (!existing) {
      await database.migrate();
      console.log('seeding:');
      const client = new pg.Client({ connectionString: databaseUrl });
      client.on('error', (error) => console.error('seeding connection:', error.message));
      await client.connect();
      await seedLedger(client, hashToken);
      await client.end();
    }

    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      SECRET_KEY: 'dashboard-bench-secret-key-long-enough-0123456789',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'silent',
    });
    const app = await buildApp({ config, database });
    await app.ready();
    const headers = {
      admin: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}` },
      artist: { authorization: `Bearer ${BENCH_ARTIST_TOKEN}` },
    };
    const rows: Array<Record<string, string | number>> = [];
    for (const call of CALLS) {
      const times: number[] = [];
      for (let i = 0; i < WARMUP + REQUESTS; i += 1) {
        const started = process.hrtime.bigint();
        const res = await app.inject({
          method: 'GET',
          url: call.url(i),
          headers: headers[call.who ?? 'admin'],
        });
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        if (res.statusCode !== 200)
          throw new Error(`${call.what}: ${res.statusCode} ${res.body.slice(0, 300)}`);
        if (i >= WARMUP) times.push(ms);
      }
      times.sort((a, b) => a - b);
      const p95 = percentile(times, 95);
      rows.push({
        call: call.what,
        p50: Number(percentile(times, 50).toFixed(1)),
        p95: Number(p95.toFixed(1)),
        p99: Number(percentile(times, 99).toFixed(1)),
        budget: call.what.includes('reference')
          ? ''
          : p95 <= BUDGET_MS
            ? `<= ${BUDGET_MS} ok`
            : `> ${BUDGET_MS} OVER`,
      });
      console.log(`  ${call.what.padEnd(42)} p95 ${p95.toFixed(1)} ms`);
    }
    console.log(
      `\nDashboard calls, ms (${REQUESTS} requests each after ${WARMUP} warm-up; real PostgreSQL):`,
    );
    console.table(rows);

    // The CSV export of the busiest artist: first byte and throughput, streamed over a real socket.
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address() as { port: number };
    const started = Date.now();
    const res = await fetch(
      `http://127.0.0.1:${address.port}/api/admin/dashboard/transactions.csv?artistId=${uuidOf('artist1')}`,
      { headers: headers.admin },
    );
    const reader = res.body!.getReader();
    let firstByte = 0;
    let bytes = 0;
    let lines = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!firstByte) firstByte = Date.now() - started;
      bytes += value.length;
      for (const byte of value) if (byte === 10) lines += 1;
    }
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `CSV export (one artist): ${(lines - 1).toLocaleString('en-US')} rows, ${(bytes / 1e6).toFixed(1)} MB, ` +
        `first byte ${firstByte} ms, ${Math.round((lines - 1) / seconds).toLocaleString('en-US')} rows/s, ` +
        `server memory rss ${Math.round(process.memoryUsage().rss / 1e6)} MB`,
    );
    console.log(
      `load average at the end: ${loadavg()
        .map((v) => v.toFixed(2))
        .join(' ')}`,
    );
    await app.close();
    await app.services.jobs.stop();
    await database.close();
  } finally {
    if (cluster && KEEP) {
      const url = new URL(cluster.url);
      url.pathname = '/dashboard_bench';
      console.log(`kept: BENCH_DATABASE_URL=${url.toString()}`);
      console.log(
        `stop it with: pg_ctl -D ${cluster.dataDir} -m fast stop (as postgres when root), then rm -r its dir`,
      );
    } else cluster?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
