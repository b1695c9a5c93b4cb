import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app';
import type { Database } from '../src/db/client';
import type { DemoArtist } from '../src/demo/demo-data';
import { seedDemoOnStartup } from '../src/demo/demo-seed';
import { JobRunner, type JobHandler, type JobTypeOptions } from '../src/jobs/job-runner';
import { TRANSCODE_JOB } from '../src/modules/renditions/transcode.job';
import { listenEarly } from '../src/modules/system/early-listener';
import { CataloguePreparation } from '../src/platform/catalogue-preparation';
import { freePort } from './postgres-cluster';
import { openTestDatabase, testConfig } from './test-app';

/**
 * A job queue whose transcodes wait for the test's go: the seed runs for real (synthesis, the transcode jobs, the
 * sales history), and the test looks at the server between two transcodes instead of sleeping.
 */
class SteppedJobRunner extends JobRunner {
  private permits = 0;
  private readonly waiting: Array<() => void> = [];
  /** Transcodes claimed and waiting for a permit. */
  held = 0;

  override register(type: string, handler: JobHandler, options?: JobTypeOptions) {
    const held: JobHandler = async (payload, job) => {
      this.held++;
      if (this.permits > 0) this.permits--;
      else await new Promise<void>((resolve) => this.waiting.push(resolve));
      this.held--;
      return handler(payload, job);
    };
    super.register(type, type === TRANSCODE_JOB ? held : handler, options);
  }

  /** Lets `count` more transcodes run. */
  release(count = 1) {
    for (let i = 0; i < count; i++) {
      const next = this.waiting.shift();
      if (next) next();
      else this.permits++;
    }
  }
}

/** Two songs on one album: the real seed in seconds. */
const smallCatalogue: DemoArtist[] = [
  {
    name: 'Nova Reyes',
    bio: 'Test artist.',
    genre: 'Electronic',
    subscriptionPrice: 499,
    ownedByDemoArtist: true,
    albums: [
      {
        title: 'Neon Tides',
        description: 'Two songs.',
        genre: 'Electronic',
        price: 799,
        isPremium: false,
        songs: [
          { title: 'Harbour Lights', accessType: 'subscription', price: 99 },
          { title: 'Low Orbit', accessType: 'purchase-only', price: 129 },
        ],
      },
    ],
  },
];

const silentLog = { info: () => undefined, warn: () => undefined };

describe('a first start while the demo seed runs', () => {
  let app: FastifyInstance;
  let database: Database;
  let drop: () => Promise<void>;
  let jobs: SteppedJobRunner;
  let dataDir: string;
  const preparation = CataloguePreparation.preparing();
  let seed: Promise<void>;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'backbeat-first-start-'));
    const webDist = path.join(dataDir, 'web');
    mkdirSync(path.join(webDist, 'assets'), { recursive: true });
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Backbeat app</title>');
    writeFileSync(path.join(webDist, 'assets', 'app.js'), 'console.log("app")');
    ({ database, drop } = await openTestDatabase());
    jobs = new SteppedJobRunner(database.db);
    const config = testConfig(path.join(dataDir, 'data'), { SEED_DEMO: 'true' });
    app = await buildApp({ config, database, webDistDir: webDist, services: { jobs, preparation } });
    await app.ready();
    seed = seedDemoOnStartup({
      config,
      database,
      services: app.services,
      log: silentLog,
      artists: smallCatalogue,
    });
  });

  afterAll(async () => {
    jobs.release(10);
    await seed.catch(() => undefined);
    await app.close();
    await jobs.stop();
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const health = async () => (await app.inject({ url: '/api/health' })).json();

  it('says on /api/health, on every page and in every API answer that the catalogue is being prepared', async () => {
    // Both songs synthesised, inserted and claimed by the seed's two transcode loops, which wait for a permit.
    await vi.waitFor(() => expect(jobs.held).toBe(2), { timeout: 60_000 });

    const res = await app.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ok',
      database: database.kind,
      uptimeSec: expect.any(Number),
      catalogue: { state: 'preparing', step: 'transcoding', songsReady: 0, songsTotal: 2 },
    });

    for (const url of ['/', '/home', '/album/00000000-0000-4000-8000-000000000001?x=1']) {
      const page = await app.inject({ url });
      expect(page.statusCode).toBe(503);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['retry-after']).toBe('3');
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(page.body).toContain('Preparing the demo catalogue: 0 of 2 songs');
      expect(page.body).toContain('Now: transcoding to encrypted HLS');
      expect(page.body).toContain('<meta http-equiv="refresh" content="3">');
      expect(page.body).not.toContain('<script');
    }

    for (const [method, url] of [
      ['GET', '/api/songs'],
      ['GET', '/api/users/me'],
      ['POST', '/api/users/login'],
    ] as const) {
      const answer = await app.inject({ method, url, payload: method === 'POST' ? {} : undefined });
      expect(answer.statusCode).toBe(503);
      expect(answer.headers['retry-after']).toBe('3');
      expect(answer.json()).toEqual({
        message:
          'Preparing the demo catalogue: 0 of 2 songs. Backbeat answers as soon as it is ready; try again in a moment.',
        code: 'CATALOGUE_PREPARING',
      });
    }

    // The built app's files and the API description are served as usual.
    expect((await app.inject({ url: '/assets/app.js' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/openapi.json' })).statusCode).toBe(200);
  });

  it('counts the songs as their transcodes finish', async () => {
    jobs.release(1);
    await vi.waitFor(() => expect(preparation.snapshot().songsReady).toBe(1), { timeout: 60_000 });
    expect((await health()).catalogue).toEqual({
      state: 'preparing',
      step: 'transcoding',
      songsReady: 1,
      songsTotal: 2,
    });
    const page = await app.inject({ url: '/home' });
    expect(page.body).toContain('Preparing the demo catalogue: 1 of 2 songs');
    expect(page.body).toContain('<progress max="2" value="1">');
  });

  it('serves the app and the API once the seed is done', async () => {
    jobs.release(1);
    await seed;
    expect((await health()).catalogue).toEqual({
      state: 'ready',
      step: null,
      songsReady: 2,
      songsTotal: 2,
    });
    const page = await app.inject({ url: '/album/00000000-0000-4000-8000-000000000001' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Backbeat app');
    const songs = await app.inject({ url: '/api/songs' });
    expect(songs.statusCode).toBe(200);
    expect(songs.json().total).toBe(2);
    const login = await app.inject({
      method: 'POST',
      url: '/api/users/login',
      payload: { email: 'listener@backbeat.local', password: 'backbeat-listener' },
    });
    expect(login.statusCode).toBe(200);
  });
});

describe('the port, while the database opens', () => {
  it('answers at once with a starting page and 503s, then hands the same socket to the app', async () => {
    const port = await freePort();
    const state = { step: 'opening the database' };
    const early = await listenEarly({ port, host: '127.0.0.1', state });
    const base = `http://127.0.0.1:${port}`;
    const dataDir = mkdtempSync(path.join(tmpdir(), 'backbeat-early-'));
    const { database, drop } = await openTestDatabase();
    try {
      const page = await fetch(`${base}/album/1`);
      expect(page.status).toBe(503);
      expect(page.headers.get('retry-after')).toBe('2');
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await page.text();
      expect(html).toContain('<h1>Starting Backbeat</h1>');
      expect(html).toContain('Now: opening the database');
      expect(html).toContain('<meta http-equiv="refresh" content="2">');

      state.step = 'migrating the database';
      const api = await fetch(`${base}/api/health`);
      expect(api.status).toBe(503);
      expect(await api.json()).toEqual({
        message: 'Backbeat is starting (migrating the database); try again in a moment.',
        code: 'STARTING',
      });

      // The app is built on the listening server; until handOver() the starting answers go on.
      const app = await buildApp({
        config: testConfig(dataDir),
        database,
        serverFactory: early.serverFactory,
      });
      await app.ready();
      expect((await fetch(`${base}/api/health`)).status).toBe(503);
      early.handOver();
      const health = await fetch(`${base}/api/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'ok', catalogue: { state: 'ready' } });
      await app.close();
    } finally {
      await early.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('shuts down after its grace even when a connection never finishes its request', async () => {
    const port = await freePort();
    const early = await listenEarly({ port, host: '127.0.0.1', state: { step: 'opening the database' } });
    const socket = net.connect(port, '127.0.0.1');
    await once(socket, 'connect');
    // Headers that never end: before the grace, this held the close for the server's 60 s headers timeout.
    socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const ended = once(socket, 'close');
    await early.close(200);
    await ended;
    expect(socket.destroyed).toBe(true);
    expect(
      (await fetch(`http://127.0.0.1:${port}/api/health`).catch((error: Error) => error)) instanceof Error,
    ).toBe(true);
  });
});
