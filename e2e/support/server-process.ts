import { spawn, type ChildProcess } from 'node:child_process';
import { freePort, servesCatalogue } from '@backbeat/server/testing';
import { repoRoot } from './paths';

export interface RunningServer {
  baseUrl: string;
  child: ChildProcess;
  /** SIGTERM, then waits for the process to exit (PGlite flushes and closes on the way out). */
  stop(timeoutMs?: number): Promise<number | null>;
}

/**
 * Environment every e2e server shares: embedded database, quiet logs, and `NODE_ENV=test`: production refuses the
 * local gateway emulator and the demo checkout, which the commerce tests pay through. The web app is the
 * production build either way (web-build.ts).
 */
export function baseServerEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    HOST: '127.0.0.1',
    NODE_ENV: 'test',
    SECRET_KEY: 'e2e-secret-key-which-is-long-enough-0123456789',
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    ...extra,
  };
}

/**
 * Starts `apps/server/src/main.ts` on a free port (or `env.PORT`) over `dataDir` and waits until /api/health
 * answers with the catalogue ready (a first start prepares the demo catalogue after it listens). `PUBLIC_URL` defaults to the server's own address (pass a proxy's address when one sits in front).
 */
export async function startServer(
  dataDir: string,
  env: Record<string, string> = {},
  healthTimeoutMs = 420_000,
): Promise<RunningServer> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    env: baseServerEnv({ PUBLIC_URL: baseUrl, ...env, PORT: String(port), DATA_DIR: dataDir }),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async (timeoutMs = 30_000) => {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const result = await Promise.race([exited, timeout]);
    clearTimeout(timer);
    if (result === 'timeout') {
      child.kill('SIGKILL');
      throw new Error(`server did not exit within ${timeoutMs} ms of SIGTERM`);
    }
    return result;
  };
  try {
    await waitForHealth(baseUrl, child, healthTimeoutMs);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return { baseUrl, child, stop };
}

async function waitForHealth(baseUrl: string, child: ChildProcess, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early with code ${child.exitCode}`);
    if (await servesCatalogue(baseUrl)) return;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`server did not become healthy within ${timeoutMs} ms`);
}
