/**
 * First-route JavaScript budget: reads the production build's Vite manifest and prints, for the routes a visitor
 * lands on, the gzip size of every script the browser loads before the screen renders (the entry, the route's
 * lazy modules and everything they import statically). Dynamic imports (other routes, hls.js) are not counted.
 *
 * Run: npm run build -w @backbeat/web && npm run bench:bundle -w @backbeat/bench
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

const BUDGET_BYTES = 200 * 1024;
const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/web/dist');
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Record<
  string,
  ManifestChunk
>;

/** The lazy modules React Router loads for each measured route (see apps/web/src/app/router.tsx). */
const routes: Record<string, string[]> = {
  '/ (landing)': ['src/pages/landing-page.tsx'],
  '/login': ['src/app/layout/auth-layout.tsx', 'src/pages/login-page.tsx'],
  '/register': ['src/app/layout/auth-layout.tsx', 'src/pages/register-page.tsx'],
  '/home': ['src/app/layout/main-layout.tsx', 'src/pages/home-page.tsx'],
  '/album/:id': ['src/app/layout/main-layout.tsx', 'src/pages/album-page.tsx'],
};

const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
if (!entryKey) throw new Error('no entry in the Vite manifest; build the web app first');

function collect(key: string, files: Set<string>) {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the Vite manifest`);
  if (files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const imported of chunk.imports ?? []) collect(imported, files);
}

const gzipSize = (file: string) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

let worst = 0;
console.log(`First-route JavaScript (gzip level 9), budget ${kb(BUDGET_BYTES)}`);
for (const [route, modules] of Object.entries(routes)) {
  const files = new Set<string>();
  collect(entryKey, files);
  for (const module of modules) collect(module, files);
  const total = [...files].reduce((sum, file) => sum + gzipSize(file), 0);
  worst = Math.max(worst, total);
  console.log(
    `${route.padEnd(14)} ${kb(total).padStart(10)}  (${files.size} files)  ${total <= BUDGET_BYTES ? 'ok' : 'OVER BUDGET'}`,
  );
}
console.log(`largest first route: ${kb(worst)} of ${kb(BUDGET_BYTES)}`);
if (worst > BUDGET_BYTES) process.exitCode = 1;
