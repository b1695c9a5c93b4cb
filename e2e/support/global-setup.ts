import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { freePort } from '../../apps/server/test/postgres-cluster';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
  }
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Builds the web app (unless E2E_SKIP_BUILD=1 and a build exists), then starts the real server on a free port
 * with a fresh embedded database and the demo catalogue, exactly as `npm start` does.
 */
export default async function setup(project: TestProject) {
  const distIndex = path.join(root, 'apps/web/dist/index.html');
  if (!(process.env.E2E_SKIP_BUILD === '1' && existsSync(distIndex))) {
    const build = spawnSync('npm', ['run', 'build', '-w', '@backbeat/web'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('web build failed');
  }
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'backbeat-e2e-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      NODE_ENV: 'production',
      SECRET_KEY: 'e2e-secret-key-which-is-long-enough-0123456789',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  // The first start seeds the demo catalogue (synthesis + transcoding); allow for a slow, busy machine.
  await waitForHealth(baseUrl, child, 420_000).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  project.provide('baseUrl', baseUrl);
  project.provide('dataDir', dataDir);
  return async () => {
    child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  };
}

async function waitForHealth(baseUrl: string, child: ChildProcess, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early with code ${child.exitCode}`);
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`server did not become healthy within ${timeoutMs} ms`);
}
