import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cacheRoot, repoRoot } from './paths';
import { startServer } from './server-process';
import { withLock } from './lock';

/** What the seeded demo catalogue depends on: the schema, the seed, the media pipeline and the dependencies. */
const SEED_INPUTS = [
  'apps/server/src/db',
  'apps/server/src/demo',
  'apps/server/src/modules/media',
  'apps/server/src/modules/renditions',
  // The demo sales history goes through the payment ledger.
  'apps/server/src/modules/payments',
  'apps/server/src/jobs',
  'package-lock.json',
];
const COMPLETE = '.complete';
const UNUSED_CACHE_MAX_AGE_MS = 3 * 24 * 60 * 60 * 1000;

/** A content hash of every file under SEED_INPUTS (paths and bytes), stable across machines. */
export function seedInputsHash(): string {
  return contentHash(SEED_INPUTS);
}

/** A content hash of every file under `inputs` (repository-relative paths; paths and bytes). */
export function contentHash(inputs: string[]): string {
  const hash = createHash('sha256');
  const files = inputs.flatMap((input) => listFiles(path.join(repoRoot, input))).sort();
  for (const file of files) {
    hash.update(path.relative(repoRoot, file).split(path.sep).join('/'));
    hash.update('\0');
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

function listFiles(target: string): string[] {
  if (!existsSync(target)) return [];
  if (!statSync(target).isDirectory()) return [target];
  return readdirSync(target, { withFileTypes: true }).flatMap((entry) =>
    listFiles(path.join(target, entry.name)),
  );
}

/**
 * A fresh DATA_DIR holding the seeded demo catalogue. The first run for a given SEED_INPUTS hash seeds
 * `e2e/.cache/seeded-<hash>` once (server start, seed and its previews, clean SIGTERM shutdown); every run then
 * works on a copy.
 */
export async function freshSeededDataDir(): Promise<string> {
  mkdirSync(cacheRoot, { recursive: true });
  const name = `seeded-${seedInputsHash()}`;
  const cacheDir = path.join(cacheRoot, name);
  const marker = path.join(cacheDir, COMPLETE);
  if (!existsSync(marker)) {
    await withLock(`${cacheDir}.lock`, async () => {
      if (!existsSync(marker)) await seedInto(cacheDir);
    });
  }
  const now = new Date();
  utimesSync(marker, now, now);
  pruneUnusedCaches(name);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'backbeat-e2e-'));
  cpSync(cacheDir, dataDir, {
    recursive: true,
    filter: (source) => path.basename(source) !== COMPLETE,
  });
  return dataDir;
}

async function seedInto(cacheDir: string) {
  rmSync(cacheDir, { recursive: true, force: true });
  mkdirSync(cacheDir, { recursive: true });
  console.log(`[e2e] seeding the demo catalogue into ${path.relative(repoRoot, cacheDir)} (once per change)`);
  const started = Date.now();
  // SEED_DEMO_WAIT=all: the seed also waits for the previews its transcodes queue (a plain start leaves them to the
  // running queue), so the cache shuts down with the queue empty and every run starts with everything made.
  const server = await startServer(cacheDir, { SEED_DEMO_WAIT: 'all' });
  const code = await server.stop(60_000);
  if (code !== 0) throw new Error(`seeding server exited with code ${code}; the cache is not usable`);
  writeFileSync(path.join(cacheDir, COMPLETE), new Date().toISOString());
  console.log(`[e2e] seeded in ${Math.round((Date.now() - started) / 1000)} s`);
}

/** Caches for older code that no run has used for days are removed, so the folder does not grow forever. */
function pruneUnusedCaches(current: string) {
  for (const entry of readdirSync(cacheRoot)) {
    if (!entry.startsWith('seeded-') || entry === current || entry.endsWith('.lock')) continue;
    const dir = path.join(cacheRoot, entry);
    if (existsSync(`${dir}.lock`)) continue;
    const marker = path.join(dir, COMPLETE);
    const lastUsed = existsSync(marker) ? statSync(marker).mtimeMs : statSync(dir).mtimeMs;
    if (Date.now() - lastUsed > UNUSED_CACHE_MAX_AGE_MS) rmSync(dir, { recursive: true, force: true });
  }
}
