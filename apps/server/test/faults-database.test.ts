import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app';
import { openDatabase, type Database } from '../src/db/client';
import { playlists } from '../src/db/schema';
import { catalogFixtures } from './catalog-fixtures';
import { startThrowawayCluster, type ThrowawayCluster } from './postgres-cluster';
import { testConfig } from './test-app';

/**
 * PostgreSQL stopped under the running server (its sessions terminated, then connections refused): requests
 * fail fast with 503 and a message instead of 500 or a hang, nothing is half-written, and the server recovers by
 * itself when the database is back. Runs on its own throwaway cluster in both tiers (it stops that cluster).
 */
let cluster: ThrowawayCluster;
let database: Database;
let app: FastifyInstance;
let dataDir: string;
let headers: Record<string, string>;

beforeAll(async () => {
  cluster = await startThrowawayCluster();
  database = await openDatabase({ kind: 'postgres', url: cluster.url, max: 4 });
  await database.migrate();
  dataDir = mkdtempSync(path.join(tmpdir(), 'backbeat-faults-'));
  app = await buildApp({ config: testConfig(dataDir), database, logger: pino({ level: 'error' }) });
  await app.ready();
  headers = (await catalogFixtures(database).user()).headers;
}, 120_000);

afterAll(async () => {
  await app?.close();
  await app?.services.jobs.stop();
  await database?.close().catch(() => undefined);
  cluster?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const createPlaylist = (name: string) =>
  app.inject({ method: 'POST', url: '/api/playlists', headers, payload: { name } });

describe('PostgreSQL stopped under the running server', () => {
  it('documents the 503 on every route that documents its answers', async () => {
    const document = (await app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
    }>();
    const operations = Object.entries(document.paths).flatMap(([route, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ route, method, operation })),
    );
    expect(operations.length).toBeGreaterThan(50);
    const missing = operations.filter(({ operation }) => operation.responses && !operation.responses['503']);
    expect(missing.map(({ method, route }) => `${method} ${route}`)).toEqual([]);
  });

  it('answers 503 with a message while it is down, writes nothing, and recovers by itself', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    const before = await createPlaylist('Before the outage');
    expect(before.statusCode, before.body).toBe(201);

    cluster.pause();
    const started = Date.now();
    const health = await app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(503);
    expect(health.json()).toEqual({
      message: 'Backbeat cannot reach its database right now. Please try again in a moment.',
      code: 'DATABASE_UNAVAILABLE',
    });
    const write = await createPlaylist('During the outage');
    expect(write.statusCode).toBe(503);
    expect(write.json()).toEqual(health.json());
    expect(write.headers['retry-after']).toBe('5');
    const read = await app.inject({ method: 'GET', url: '/api/playlists', headers });
    expect(read.statusCode).toBe(503);
    // Failing fast: no request waited for the connect timeout.
    expect(Date.now() - started).toBeLessThan(5000);

    cluster.resume();
    await expect
      .poll(async () => (await app.inject({ method: 'GET', url: '/api/health' })).statusCode, {
        timeout: 15_000,
        interval: 250,
      })
      .toBe(200);
    const after = await createPlaylist('After the outage');
    expect(after.statusCode, after.body).toBe(201);
    const names = (await database.db.select({ name: playlists.name }).from(playlists)).map((row) => row.name);
    expect(names.sort()).toEqual(['After the outage', 'Before the outage']);
  });
});
