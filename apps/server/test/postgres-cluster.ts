import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, chownSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Finds initdb/pg_ctl: PG_BIN, then Debian's /usr/lib/postgresql/<newest>/bin, then PATH. */
export function findPostgresBinaries(): string | null {
  const candidates: string[] = [];
  if (process.env.PG_BIN) candidates.push(process.env.PG_BIN);
  const debianRoot = '/usr/lib/postgresql';
  if (existsSync(debianRoot)) {
    for (const version of readdirSync(debianRoot).sort((a, b) => Number(b) - Number(a))) {
      candidates.push(path.join(debianRoot, version, 'bin'));
    }
  }
  for (const dir of candidates)
    if (existsSync(path.join(dir, 'initdb')) && existsSync(path.join(dir, 'pg_ctl'))) return dir;
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  return which.status === 0 && which.stdout.trim() ? path.dirname(which.stdout.trim()) : null;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export interface ThrowawayCluster {
  url: string;
  /** The cluster's data directory (its server stops with `pg_ctl -D <dataDir> stop`). */
  dataDir: string;
  /** Stops the server (immediate shutdown, like a crash) and removes its files. */
  stop(): void;
  /**
   * Stops the server but keeps its files, for `resume` (fault tests). A fast shutdown: sessions are terminated
   * (57P01) and acknowledged commits kept; an immediate one would lose them here, as commits are not synchronous.
   */
  pause(): void;
  /** Starts a paused server again on the same port. */
  resume(): void;
}

/**
 * A throwaway PostgreSQL cluster on a free port, tuned for tests (no fsync). initdb refuses to run as root,
 * so as root it runs as the `postgres` user.
 */
export async function startThrowawayCluster(): Promise<ThrowawayCluster> {
  const bin = findPostgresBinaries();
  if (!bin) {
    throw new Error(
      'The real-PostgreSQL suite needs PostgreSQL server binaries (initdb, pg_ctl), e.g. `apt-get install postgresql`, ' +
        'or set TEST_DATABASE_URL to an existing server.',
    );
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'backbeat-pg-'));
  const isRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) => {
    const full = path.join(bin, cmd);
    if (isRoot) execFileSync('runuser', ['-u', 'postgres', '--', full, ...args], { stdio: 'pipe' });
    else execFileSync(full, args, { stdio: 'pipe' });
  };
  if (isRoot)
    chownSync(
      dir,
      Number(execFileSync('id', ['-u', 'postgres']).toString().trim()),
      Number(execFileSync('id', ['-g', 'postgres']).toString().trim()),
    );
  const dataDir = path.join(dir, 'data');
  run('initdb', [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '--auth=trust',
    '--encoding=UTF8',
    '--locale=C.UTF-8',
    '-N',
  ]);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  const start = () =>
    run('pg_ctl', ['-D', dataDir, '-o', options, '-l', path.join(dir, 'server.log'), '-w', 'start']);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    dataDir,
    pause() {
      run('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
    },
    resume: start,
    stop() {
      try {
        run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
