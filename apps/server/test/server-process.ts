import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../src/db/client';
import { servesCatalogue } from './server-ready';

/**
 * The real server (`src/main.ts`) as its own process, for the crash tests: started on a port, killed with
 * SIGKILL at a chosen moment, started again on the same data.
 */
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  kill(signal: NodeJS.Signals): Promise<void>;
}

export const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => child.once('exit', () => resolve()));

/** Starts the server with `env` on `port` and resolves once /api/health answers 200 with the catalogue ready. */
export function startServerProcess(
  port: number,
  env: Record<string, string>,
  options: { echo?: boolean } = {},
): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    if (options.echo) process.stderr.write(chunk);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const url = `http://127.0.0.1:${port}`;
  const server: ServerProcess = {
    child,
    url,
    output: () => output,
    async kill(signal) {
      child.kill(signal);
      await exited(child);
    },
  };
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 120_000;
    const poll = async () => {
      if (child.exitCode !== null)
        return reject(new Error(`server exited with ${child.exitCode}:\n${output}`));
      if (await servesCatalogue(url)) return resolve(server);
      if (Date.now() > deadline) return reject(new Error(`server did not start:\n${output}`));
      setTimeout(() => void poll(), 100);
    };
    void poll();
  });
}

/** Whether a process still runs (a zombie waiting to be reaped counts as gone). */
export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

export interface ServerDatabase {
  /** What the server process needs to use it (DATABASE_URL, or nothing: PGlite in DATA_DIR/db). */
  env: Record<string, string>;
  /** Opens it from the test, while no server holds it (PGlite: one process at a time). */
  open(): Promise<Database>;
  drop(): Promise<void>;
}

/**
 * A migrated database for a server process, on this run's tier: a copy of the migrated PGlite snapshot written
 * into `dataDir/db`, or a database cloned from the PostgreSQL template.
 */
export async function createServerDatabase(dataDir: string): Promise<ServerDatabase> {
  const testDb = inject('testDb');
  if (testDb.kind === 'pglite') {
    const dbDir = path.join(dataDir, 'db');
    const loaded = await openDatabase({
      kind: 'pglite',
      dataDir: dbDir,
      loadDataDir: new Blob([readFileSync(testDb.snapshotFile)]),
    });
    await loaded.close();
    return {
      env: {},
      open: () => openDatabase({ kind: 'pglite', dataDir: dbDir }),
      drop: async () => undefined,
    };
  }
  const name = `crash_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: testDb.adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name} TEMPLATE ${testDb.template}`);
  const url = new URL(testDb.adminUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    open: () => openDatabase({ kind: 'postgres', url: url.toString(), max: 2 }),
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
