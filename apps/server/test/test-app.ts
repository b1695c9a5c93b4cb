import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp, type AppDeps } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import { openDatabase, type Database } from '../src/db/client';
import type { ResponseCache } from '../src/platform/response-cache';
import { LocalMediaStore, type MediaStore } from '../src/storage';

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  config: Config;
  dataDir: string;
  close(): Promise<void>;
}

/** A fresh, migrated database for one test file: a PGlite restored from the snapshot, or a cloned PG database. */
export async function openTestDatabase(): Promise<{ database: Database; drop(): Promise<void> }> {
  const testDb = inject('testDb');
  if (testDb.kind === 'pglite') {
    const blob = new Blob([readFileSync(testDb.snapshotFile)]);
    const database = await openDatabase({ kind: 'pglite', loadDataDir: blob });
    return { database, drop: () => database.close() };
  }
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: testDb.adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${testDb.template}`);
  await admin.end();
  const url = new URL(testDb.adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), max: 5 });
  return {
    database,
    async drop() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: testDb.adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

export function testConfig(dataDir: string, env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789',
    SEED_DEMO: 'false',
    PUBLIC_URL: 'http://localhost:3000',
    LOG_LEVEL: 'silent',
    ...env,
  });
}

/**
 * The catalogue answer cache of the app built on a database. Fixtures write straight to the database, behind the
 * app's back, so they invalidate it the way the app's own write paths do.
 */
export const catalogCaches = new WeakMap<Database, ResponseCache>();

/** Builds the app on a fresh database; call close() in afterAll. */
export async function createTestApp(
  options: {
    env?: Record<string, string>;
    services?: AppDeps['services'];
    webDistDir?: string;
    /** A pino logger (e.g. writing to an array) to read what the app logs; none by default. */
    logger?: AppDeps['logger'];
  } = {},
): Promise<TestContext> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'backbeat-test-'));
  const config = testConfig(dataDir, options.env);
  const { database, drop } = await openTestDatabase();
  const app = await buildApp({
    config,
    database,
    services: options.services,
    webDistDir: options.webDistDir,
    logger: options.logger,
  });
  await app.ready();
  catalogCaches.set(database, app.services.catalogCache);
  return {
    app,
    database,
    config,
    dataDir,
    async close() {
      await app.close();
      await app.services.jobs.stop();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Where a media key lives in the local disk store the test apps use by default (tests that read files directly). */
export function diskPath(store: MediaStore, key: string): string {
  if (!(store instanceof LocalMediaStore)) throw new Error('This test reads the local disk store');
  return store.localPath(key);
}
