import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
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

export interface Database {
  db: AppDb;
  kind: 'pglite' | 'postgres';
  /** Runs raw SQL and returns its rows (driver-neutral). */
  query<T extends Record<string, unknown>>(text: ReturnType<typeof sql>): Promise<T[]>;
  migrate(): Promise<void>;
  close(): Promise<void>;
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
    return {
      db,
      kind: 'postgres',
      async query(statement) {
        const result = await db.execute(statement);
        return (result as unknown as { rows: never[] }).rows;
      },
      migrate: () => migratePg(db as never, { migrationsFolder }),
      close: () => pool.end(),
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
    async query(statement) {
      const result = await db.execute(statement);
      return (result as unknown as { rows: never[] }).rows;
    },
    migrate: () => migratePglite(db as never, { migrationsFolder }),
    async close() {
      await client.close();
      release();
    },
  };
}

export function databaseOptionsFromConfig(config: { databaseUrl?: string; dbDir: string }): DatabaseOptions {
  return config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl }
    : { kind: 'pglite', dataDir: config.dbDir };
}

export { sql };
