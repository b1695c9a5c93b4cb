import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { withLock } from './lock';
import { cacheRoot, repoRoot } from './paths';
import { contentHash } from './seed-cache';

const webDir = path.join(repoRoot, 'apps/web');
const distDir = path.join(webDir, 'dist');
const HASH_FILE = '.e2e-build-hash';
/** Everything the web bundle is built from. */
const WEB_INPUTS = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/package.json',
  'packages/contract/src',
  'package-lock.json',
];
/** Assets of the previous build stay this long, for pages that were loaded from it and load chunks lazily. */
const KEEP_OLD_ASSETS_MS = 60 * 60 * 1000;

/**
 * Builds apps/web/dist when its sources changed since the last e2e build. Concurrent e2e runs share the folder
 * that their servers serve from, so the build goes to a side folder (under a lock) and replaces dist in one
 * rename, keeping recent old assets: a page another run loaded a moment ago still finds its lazy chunks.
 */
export async function buildWebIfChanged(): Promise<void> {
  const hash = contentHash(WEB_INPUTS);
  const built = () =>
    existsSync(path.join(distDir, HASH_FILE)) && readFileSync(path.join(distDir, HASH_FILE), 'utf8') === hash;
  if (built()) return;
  await withLock(path.join(cacheRoot, 'web-build.lock'), async () => {
    if (built()) return;
    const outDir = path.join(cacheRoot, `web-build-${process.pid}`);
    rmSync(outDir, { recursive: true, force: true });
    const build = spawnSync('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir'], {
      cwd: webDir,
      // Vitest sets NODE_ENV=test, which would give React's development build.
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: 'inherit',
    });
    if (build.status !== 0) {
      rmSync(outDir, { recursive: true, force: true });
      throw new Error('web build failed');
    }
    carryOverRecentAssets(path.join(distDir, 'assets'), path.join(outDir, 'assets'));
    writeFileSync(path.join(outDir, HASH_FILE), hash);
    const oldDir = path.join(cacheRoot, `web-old-${process.pid}`);
    if (existsSync(distDir)) renameSync(distDir, oldDir);
    renameSync(outDir, distDir);
    rmSync(oldDir, { recursive: true, force: true });
  });
}

function carryOverRecentAssets(from: string, to: string) {
  if (!existsSync(from)) return;
  for (const name of readdirSync(from)) {
    const source = path.join(from, name);
    const target = path.join(to, name);
    if (existsSync(target) || Date.now() - statSync(source).mtimeMs > KEEP_OLD_ASSETS_MS) continue;
    cpSync(source, target, { recursive: true, preserveTimestamps: true });
  }
}
