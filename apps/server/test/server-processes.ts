import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './postgres-cluster';
import { servesCatalogue } from './server-ready';

/** Real server processes (`src/main.ts`, `src/worker.ts`) for the tests of the production shape. */

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface ServerProcess {
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far (shown when a test fails). */
  output(): string;
  /** SIGTERM, then the exit code (null: killed by a signal). SIGKILL after `timeoutMs`. */
  stop(timeoutMs?: number): Promise<number | null>;
}

export interface ApiProcess extends ServerProcess {
  baseUrl: string;
}

/** The environment both entries get: quiet, test mode, an explicit secret shared by every instance. */
export function serverEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    SECRET_KEY: 'scale-out-test-secret-key-long-enough-0123456789',
    ...extra,
  };
}

function spawnEntry(entry: 'src/main.ts' | 'src/worker.ts', env: NodeJS.ProcessEnv): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: serverDir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => output,
    async stop(timeoutMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), timeoutMs);
      });
      const result = await Promise.race([exited, timeout]);
      clearTimeout(timer);
      if (result !== 'timeout') return result;
      child.kill('SIGKILL');
      throw new Error(`${entry} did not exit within ${timeoutMs} ms of SIGTERM\n${output}`);
    },
  };
}

/** `npm start`'s entry on a free port; resolves once /api/health answers with the catalogue ready. */
export async function startApi(env: Record<string, string>, timeoutMs = 90_000): Promise<ApiProcess> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = spawnEntry('src/main.ts', serverEnv({ PORT: String(port), PUBLIC_URL: baseUrl, ...env }));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (server.child.exitCode !== null)
      throw new Error(`server exited with ${server.child.exitCode}\n${server.output()}`);
    if (await servesCatalogue(baseUrl)) return { ...server, baseUrl };
    if (Date.now() > deadline) {
      server.child.kill('SIGKILL');
      throw new Error(`server did not start within ${timeoutMs} ms\n${server.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/** `npm run worker`'s entry; resolves once it logged that it runs jobs. */
export async function startWorker(env: Record<string, string>, timeoutMs = 90_000): Promise<ServerProcess> {
  const worker = spawnEntry('src/worker.ts', serverEnv({ LOG_LEVEL: 'info', ...env }));
  const deadline = Date.now() + timeoutMs;
  while (!worker.output().includes('worker running jobs')) {
    if (worker.child.exitCode !== null)
      throw new Error(`worker exited with ${worker.child.exitCode}\n${worker.output()}`);
    if (Date.now() > deadline) {
      worker.child.kill('SIGKILL');
      throw new Error(`worker did not start within ${timeoutMs} ms\n${worker.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return worker;
}
