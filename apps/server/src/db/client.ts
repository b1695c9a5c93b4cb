import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { lockDataDir, preparePrivateDir, restrictTree } from './pglite-data-dir';
import * as schema from './schema';

export type Schema = typeof schema;
/** The query builder both drivers share; repositories depend on this, never on a driver. */
export type AppDb = PgDatabase<PgQueryResultHKT, Schema>;

/** A timestamp read through raw SQL (a subquery's column): node-postgres answers a string, PGlite a Date. */
export const toDate = (value: unknown): Date | null =>
  value === null || value === undefined ? null : value instanceof Date ? value : new Date(String(value));

/** The rows a raw statement answers (both drivers answer `{ rows }`). */
export async function queryRows<T>(db: AppDb, statement: SQL): Promise<T[]> {
  const result = await db.execute(statement);
  return (result as unknown as { rows: T[] }).rows;
}

export interface Database {
  db: AppDb;
  kind: 'pglite' | 'postgres';
  /** Runs raw SQL and returns its rows (driver-neutral). */
  query<T extends Record<string, unknown>>(text: ReturnType<typeof sql>): Promise<T[]>;
  migrate(): Promise<void>;
  /**
   * LISTENs on `channel` on a connection of its own. `reset` runs whenever that connection is (re)established
   * after a loss: notifications sent meanwhile are gone, so listeners must assume anything changed. Resolves once
   * listening; the returned function stops.
   */
  listen(channel: string, handlers: NotificationHandlers): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface NotificationHandlers {
  message(payload: string): void;
  /** The listening connection was lost (`up: false`) or is back after a loss (`up: true`). */
  connection(up: boolean): void;
}

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export type DatabaseOptions =
  { kind: 'postgres'; url: string; max?: number } | { kind: 'pglite'; dataDir?: string; loadDataDir?: Blob };

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'postgres') {
    // A bounded connect: with the database unreachable a request fails (503) instead of waiting forever.
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.max ?? 10,
      connectionTimeoutMillis: 5000,
    });
    // An idle client losing its connection must not crash the process.
    pool.on('error', () => undefined);
    const db = drizzlePg(pool, { schema }) as unknown as AppDb;
    const listeners = new Set<() => Promise<void>>();
    return {
      db,
      kind: 'postgres',
      query: (statement) => queryRows(db, statement),
      migrate: () => migrateExclusively(options.url, () => migratePg(db as never, { migrationsFolder })),
      async listen(channel, handlers) {
        const stop = await listenWithReconnect(options.url, channel, handlers);
        const remove = async () => {
          listeners.delete(remove);
          await stop();
        };
        listeners.add(remove);
        return remove;
      },
      async close() {
        await Promise.all([...listeners].map((stop) => stop()));
        await pool.end();
      },
    };
  }

  // Owner-only, and one process at a time: a second opener is refused before PGlite touches the files.
  let release = () => undefined as void;
  if (options.dataDir) {
    preparePrivateDir(options.dataDir);
    release = lockDataDir(options.dataDir);
  }
  let client: PGlite;
  try {
    client = await PGlite.create({
      dataDir: options.dataDir,
      loadDataDir: options.loadDataDir,
      extensions: { pg_trgm },
    });
    if (options.dataDir) restrictTree(options.dataDir);
  } catch (error) {
    release();
    throw error;
  }
  const db = drizzlePglite(client, { schema }) as unknown as AppDb;
  return {
    db,
    kind: 'pglite',
    query: (statement) => queryRows(db, statement),
    migrate: () => migratePglite(db as never, { migrationsFolder }),
    // One process owns an embedded database, so its notifications only ever reach this process: never lost.
    async listen(channel, handlers) {
      const unlisten = await client.listen(channel, (payload) => handlers.message(payload));
      return () => unlisten();
    },
    async close() {
      await client.close();
      release();
    },
  };
}

/** An arbitrary constant: the advisory lock instances take around their migrations. */
const MIGRATION_LOCK = 7_245_031_912;

/**
 * Runs the migrations while holding a session advisory lock on a connection of its own: instances started
 * together (two APIs and a worker) migrate one after the other, and the later ones find nothing left to do.
 */
async function migrateExclusively(url: string, migrate: () => Promise<void>): Promise<void> {
  const lock = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migrate();
  } finally {
    await lock.end().catch(() => undefined);
  }
}

const RECONNECT_DELAYS_MS = [250, 1000, 2000, 5000];
export const LISTEN_APPLICATION_NAME = 'backbeat-changes';

/**
 * A dedicated LISTEN connection that comes back by itself: the database restarting or a network cut costs the
 * notifications of that gap, which `handlers.connection(false)` / `(true)` announce so caches can be emptied.
 */
async function listenWithReconnect(
  url: string,
  channel: string,
  handlers: NotificationHandlers,
): Promise<() => Promise<void>> {
  let client: pg.Client | null = null;
  let stopped = false;
  let attempt = 0;
  let timer: NodeJS.Timeout | null = null;

  const connect = async (): Promise<void> => {
    // Named, so operators (and the tests) can tell it in pg_stat_activity: one per process.
    const next = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: 5000,
      application_name: LISTEN_APPLICATION_NAME,
    });
    next.on('notification', (message) => {
      if (message.channel === channel) handlers.message(message.payload ?? '');
    });
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      next.end().catch(() => undefined);
      if (client === next) client = null;
      if (stopped) return;
      handlers.connection(false);
      schedule();
    };
    next.on('error', onLost);
    next.on('end', onLost);
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      lost = true;
      next.removeAllListeners('end');
      await next.end().catch(() => undefined);
      throw error;
    }
    if (stopped) {
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
  };

  const schedule = () => {
    if (stopped || timer) return;
    const delay = RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)]!;
    attempt += 1;
    timer = setTimeout(() => {
      timer = null;
      connect().then(
        () => {
          attempt = 0;
          if (!stopped) handlers.connection(true);
        },
        () => schedule(),
      );
    }, delay);
  };

  await connect();
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    timer = null;
    const current = client;
    client = null;
    await current?.end().catch(() => undefined);
  };
}

export function databaseOptionsFromConfig(config: { databaseUrl?: string; dbDir: string }): DatabaseOptions {
  return config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl }
    : { kind: 'pglite', dataDir: config.dbDir };
}

export { sql };
