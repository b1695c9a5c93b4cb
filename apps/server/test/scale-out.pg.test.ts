import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/client';
import { jobs, songs } from '../src/db/schema';
import { locateFfmpeg, type FfmpegTools } from '../src/modules/media';
import { catalogFixtures } from './catalog-fixtures';
import { startApi, startWorker, type ApiProcess, type ServerProcess } from './server-processes';

/**
 * The scale-out shape, as real processes: two API instances (`JOBS=off`) and one `npm run worker`, sharing only
 * one PostgreSQL database and one media root. Nothing waits for a cache to expire: what one instance writes, the
 * other acts on in its very next request (the change bus). Runs in the real-PostgreSQL tier only (its file name).
 */
const run = promisify(execFile);
let adminUrl: string;
let dbName: string;
let dbUrl: string;
let dataDir: string;
let work: string;
let tools: FfmpegTools;
let database: Database;
let a: ApiProcess;
let b: ApiProcess;
let worker: ServerProcess;

beforeAll(async () => {
  const testDb = inject('testDb');
  if (testDb.kind !== 'postgres') throw new Error('scale-out.pg.test.ts runs in the PostgreSQL tier only');
  adminUrl = testDb.adminUrl;
  // An empty database: the three processes start together and migrate it under the advisory lock.
  dbName = `scale_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  dbUrl = url.toString();
  dataDir = mkdtempSync(path.join(tmpdir(), 'backbeat-scale-'));
  work = mkdtempSync(path.join(tmpdir(), 'backbeat-scale-work-'));
  tools = await locateFfmpeg();
  const shared = { DATABASE_URL: dbUrl, DATA_DIR: dataDir, AUTH_REGISTER_RATE_LIMIT: '3' };
  [a, b, worker] = await Promise.all([
    startApi({ ...shared, JOBS: 'off' }),
    startApi({ ...shared, JOBS: 'off' }),
    // Debug level: the worker says 'job done' for each job it ran (routine outcomes are not logged at info).
    startWorker({ ...shared, LOG_LEVEL: 'debug' }),
  ]);
  database = await openDatabase({ kind: 'postgres', url: dbUrl, max: 2 });
}, 180_000);

afterAll(async () => {
  const stopped = await Promise.allSettled([a?.stop(), b?.stop(), worker?.stop()]);
  await database?.close();
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.end();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
  // Graceful SIGTERM: every process exits 0.
  expect(stopped.map((result) => (result.status === 'fulfilled' ? result.value : result.reason))).toEqual([
    0, 0, 0,
  ]);
}, 60_000);

type Headers = Record<string, string>;
const call = async (base: ApiProcess, method: string, url: string, headers: Headers = {}, body?: unknown) => {
  const res = await fetch(`${base.baseUrl}${url}`, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: <T>() => JSON.parse(text) as T, text };
};

async function register(on: ApiProcess, name: string) {
  const person = {
    name,
    email: `${name}.${randomBytes(4).toString('hex')}@example.test`,
    password: 'a-long-password',
  };
  return { person, res: await call(on, 'POST', '/api/users/register', {}, person) };
}

describe('two API instances and a worker on one PostgreSQL', () => {
  let admin: Awaited<ReturnType<ReturnType<typeof catalogFixtures>['user']>>;
  let songId: string;
  let listener: Headers;

  it('an upload through A is transcoded once, by the worker, and B lists and streams it at once', async () => {
    const f = catalogFixtures(database);
    admin = await f.user('admin');
    const artist = await f.artist({ name: 'Two Rooms' });
    // B's cached guest list, from before the song exists.
    expect((await call(b, 'GET', '/api/songs')).json<{ total: number }>().total).toBe(0);

    const wav = path.join(work, 'tone.wav');
    await run(tools.ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=330:duration=6', wav]);
    const form = new FormData();
    form.append('title', 'Shared Nothing');
    form.append('artist', artist.id);
    form.append('accessType', 'purchase-only');
    form.append('price', '0.99');
    form.append('audio', new Blob([new Uint8Array(readFileSync(wav))]), 'tone.wav');
    const uploaded = await fetch(`${a.baseUrl}/api/songs`, {
      method: 'POST',
      headers: admin.headers,
      body: form,
    });
    expect(uploaded.status).toBe(201);
    songId = ((await uploaded.json()) as { song: { _id: string } }).song._id;

    const deadline = Date.now() + 60_000;
    for (;;) {
      const status = await call(b, 'GET', `/api/songs/${songId}/status`, admin.headers);
      if (status.json<{ status: string }>().status === 'ready') break;
      expect(status.json<{ status: string }>().status).toBe('processing');
      if (Date.now() > deadline) throw new Error(`not transcoded in time\n${worker.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // The worker's catalogue notice emptied B's cached list: no wait for its TTL.
    const listed = (await call(b, 'GET', '/api/songs')).json<{
      total: number;
      songs: Array<{ _id: string }>;
    }>();
    expect(listed.songs.map((song) => song._id)).toEqual([songId]);

    // Exactly once: one transcode, then its preview and MP3 (a lossless upload), each one attempt, all run by the
    // worker (the API instances run none); one HLS version, one preview and one MP3 folder. The song turns ready a
    // moment before the worker records its jobs done (it cleans up in between): poll for them.
    const jobsOfSong = () =>
      database.db
        .select()
        .from(jobs)
        .where(sql`${jobs.payload}->>'songId' = ${songId}`);
    await expect
      .poll(
        async () =>
          (await jobsOfSong())
            .map((job) => ({ type: job.type, status: job.status, attempts: job.attempts }))
            .sort((x, y) => x.type.localeCompare(y.type)),
        { timeout: 30_000 },
      )
      .toEqual([
        { type: 'song-mp3', status: 'done', attempts: 1 },
        { type: 'song-preview', status: 'done', attempts: 1 },
        { type: 'transcode-song', status: 'done', attempts: 1 },
      ]);
    expect(worker.output()).toContain('job done');
    expect(readdirSync(path.join(dataDir, 'media/songs', songId)).sort()).toEqual([
      expect.stringMatching(/^[0-9a-f]{32}v1$/),
      expect.stringMatching(/^m[0-9a-f]{16}$/),
      expect.stringMatching(/^p[0-9a-f]{16}$/),
    ]);
    const [row] = await database.db.select().from(songs).where(eq(songs.id, songId));
    expect(row!.hlsPrefix).toMatch(new RegExp(`^songs/${songId}/[0-9a-f]{32}v1$`)); // <job id, hex>v<attempt>

    // Streams through B: the admin's playlist and key from B, decoded by ffmpeg over HTTP to the end.
    const stream = await call(b, 'GET', `/api/stream/song/${songId}`, admin.headers);
    expect(stream.status).toBe(200);
    const { stderr } = await run(
      tools.ffmpeg,
      [
        '-hide_banner',
        '-nostdin',
        '-i',
        `${b.baseUrl}${stream.json<{ url: string }>().url}`,
        '-f',
        'null',
        '-',
      ],
      { timeout: 60_000 },
    );
    expect(stderr).not.toMatch(/error|Unable to open key/i);
    const times = [...stderr.matchAll(/time=(\d+):(\d+):([\d.]+)/g)].map(
      ([, h, m, s]) => Number(h) * 3600 + Number(m) * 60 + Number(s),
    );
    expect(times.at(-1)).toBeGreaterThan(5.5);
  }, 120_000);

  it('a purchase settled through A plays through B at once, and B lists it as playable', async () => {
    const { res } = await register(a, 'buyer');
    expect(res.status).toBe(201);
    listener = { authorization: `Bearer ${res.json<{ token: string }>().token}` };
    const canPlayOnB = async () =>
      (await call(b, 'GET', '/api/songs', listener)).json<{ songs: Array<{ canPlay: boolean }> }>().songs[0]!
        .canPlay;
    // B caches the listener's list and refuses the stream before the purchase.
    expect(await canPlayOnB()).toBe(false);
    expect((await call(b, 'GET', `/api/stream/song/${songId}`, listener)).status).toBe(403);

    const order = await call(a, 'POST', '/api/payments/sandbox/create-order', listener, {
      itemType: 'song',
      itemId: songId,
      amount: 99,
      currency: 'USD',
    });
    expect(order.status).toBe(201);
    const orderId = order.json<{ order: { _id: string } }>().order._id;
    const paid = await call(a, 'POST', `/api/payments/sandbox/orders/${orderId}/confirm`, listener, {
      outcome: 'pay',
    });
    expect(paid.status).toBe(200);

    expect(await canPlayOnB()).toBe(true);
    const stream = await call(b, 'GET', `/api/stream/song/${songId}`, listener);
    expect(stream.status).toBe(200);
    const playlist = await call(b, 'GET', stream.json<{ url: string }>().url);
    const keyUri = /URI="([^"]+)"/.exec(playlist.text)![1]!;
    const key = await fetch(`${b.baseUrl}${keyUri}`);
    expect(key.status).toBe(200);
    expect((await key.arrayBuffer()).byteLength).toBe(16);
  });

  it('a logout through A is refused by B on its very next request, stream links included', async () => {
    // B confirms the buyer's session and stream link (and caches both); both instances accept the session.
    const stream = await call(b, 'GET', `/api/stream/song/${songId}`, listener);
    const playlistUrl = stream.json<{ url: string }>().url;
    expect((await call(b, 'GET', playlistUrl)).status).toBe(200);
    expect((await call(b, 'GET', '/api/users/me', listener)).status).toBe(200);
    expect((await call(a, 'GET', '/api/users/me', listener)).status).toBe(200);

    expect((await call(a, 'POST', '/api/users/logout', listener)).status).toBe(200);
    expect((await call(b, 'GET', '/api/users/me', listener)).status).toBe(401);
    const link = await call(b, 'GET', playlistUrl);
    expect(link.status).toBe(403);
    expect(link.json<{ code: string }>().code).toBe('INVALID_STREAM_TOKEN');
  });

  it('a rate limit counts requests through both instances together', async () => {
    // AUTH_REGISTER_RATE_LIMIT=3 per address per hour; the buyer's registration (A) was the first.
    expect((await register(b, 'second')).res.status).toBe(201);
    expect((await register(a, 'third')).res.status).toBe(201);
    const refused = (await register(b, 'fourth')).res;
    expect(refused.status).toBe(429);
    expect(refused.json<{ code: string }>().code).toBe('RATE_LIMITED');
    expect((await register(a, 'fifth')).res.status).toBe(429);
  });

  it('every listening connection killed: each process reconnects by itself and hears the next change at once', async () => {
    const listening = async () =>
      (
        await database.query<{ pid: number }>(
          sql`select pid from pg_stat_activity where datname = ${dbName} and application_name = 'backbeat-changes'`,
        )
      ).map((row) => row.pid);
    const before = await listening();
    expect(before).toHaveLength(3); // A, B and the worker: one connection each.
    await database.query(
      sql`select pg_terminate_backend(pid) from pg_stat_activity
          where datname = ${dbName} and application_name = 'backbeat-changes'`,
    );
    // Three new connections, none of the killed ones, each done with its LISTEN (a connection that is there but
    // has not run it yet would miss the logout below: waiting for the connection alone failed 1 run in 4).
    const listeningAgain = async () =>
      (
        await database.query<{ pid: number }>(
          sql`select pid from pg_stat_activity
              where datname = ${dbName} and application_name = 'backbeat-changes'
                and state = 'idle' and query ilike 'LISTEN %'`,
        )
      ).map((row) => row.pid);
    await expect
      .poll(async () => (await listeningAgain()).filter((pid) => !before.includes(pid)).length, {
        timeout: 10_000,
        interval: 100,
      })
      .toBe(3);
    expect((await listening()).length).toBe(3);
    // And each process has taken its new connection in (the database shows LISTEN done a moment before the process
    // reads the answer; until then a publisher does not wait for its echo, and B could answer before hearing it).
    const reconnected = (process: ServerProcess) => {
      const output = process.output();
      return (
        output.lastIndexOf('change bus reconnected') > output.lastIndexOf('change bus lost its connection')
      );
    };
    await expect.poll(() => [a, b, worker].every(reconnected), { timeout: 10_000, interval: 50 }).toBe(true);

    // B confirms and caches the admin's session; a logout through A is refused by B at once.
    expect((await call(b, 'GET', '/api/users/me', admin.headers)).status).toBe(200);
    expect((await call(a, 'POST', '/api/users/logout', admin.headers)).status).toBe(200);
    expect((await call(b, 'GET', '/api/users/me', admin.headers)).status).toBe(401);
  });
});
