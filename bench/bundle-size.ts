/**
 * First-route JavaScript budget (ARCHITECTURE section 8: <= 150 KB gzip per route, served precompressed). For every
 * route of the web app's route table (apps/web/src/app/router.tsx, read with the TypeScript parser) it adds up the
 * gzip size of every script the browser loads before that screen renders: the entry, the lazy modules of the
 * route and of the layouts around it, and everything those import statically (from the Vite manifest). Dynamic
 * imports (other routes, hls.js, checkout, charts loaded on use) are not counted. It also checks that every counted
 * script the build compressed has its .br and .gz copies, which the server sends instead (preCompressed).
 * Sizes, not time: it runs in `npm test` (test:bundle) and fails past the budget.
 * Screens inside the app shell are counted twice: as a guest meets them, and as a signed-in visitor does, with the
 * main layout, which app/layout/app-shell.tsx loads itself (React.lazy, invisible to the route table). Both are
 * budgeted.
 *
 *   npm run bench:bundle -w @backbeat/bench -- --build   # builds into a temporary folder first (npm test)
 *   npm run build -w @backbeat/web && npm run bench:bundle -w @backbeat/bench   # measures apps/web/dist
 *   npm run bench:bundle -w @backbeat/bench -- --dist /some/build                 # measures another build
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import ts from 'typescript';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
}

const BUDGET_BYTES = 150 * 1024;
/** The build compresses text assets from this size up (apps/web/vite.config.ts). */
const COMPRESS_THRESHOLD_BYTES = 512;
const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/web');
const routerFile = path.join(webDir, 'src/app/router.tsx');

/** One screen: its path and the lazy modules (layouts, then the page) loaded to render it. */
interface Route {
  path: string;
  modules: string[];
  /** The layout a parent element loads itself (React.lazy, not the table's `lazy`), for a signed-in visitor. */
  shell?: string;
}

/**
 * Route elements that load a layout themselves: app/layout/app-shell.tsx renders the main layout (lazily) around
 * every in-app screen for a signed-in visitor; that first load is budgeted too.
 */
const ELEMENT_LAYOUTS: Record<string, string> = { AppShell: 'src/app/layout/main-layout.tsx' };

/** Reads the route table: every route with a path, and the `lazy: lazyModule(() => import(...))` above it. */
export function firstRoutes(source = readFileSync(routerFile, 'utf8')): Route[] {
  const file = ts.createSourceFile(routerFile, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const routes: Route[] = [];
  const lazyImport = (route: ts.ObjectLiteralExpression): string | null => {
    let found: string | null = null;
    const visit = (node: ts.Node) => {
      if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        ts.isStringLiteral(node.arguments[0]!)
      ) {
        found = node.arguments[0].text;
      }
      if (!found) ts.forEachChild(node, visit);
    };
    const lazy = route.properties.find((p) => p.name?.getText(file) === 'lazy');
    if (lazy) visit(lazy);
    return found;
  };
  const shellOf = (route: ts.ObjectLiteralExpression): string | undefined => {
    const element = route.properties.find((p) => p.name?.getText(file) === 'element');
    if (!element || !ts.isPropertyAssignment(element) || !ts.isJsxSelfClosingElement(element.initializer))
      return undefined;
    return ELEMENT_LAYOUTS[element.initializer.tagName.getText(file)];
  };
  const walk = (list: ts.ArrayLiteralExpression, above: string[], aboveShell?: string) => {
    for (const element of list.elements) {
      if (!ts.isObjectLiteralExpression(element)) continue;
      const shell = shellOf(element) ?? aboveShell;
      const imported = lazyImport(element);
      const modules = imported
        ? [...above, path.posix.join('src/app', imported).replace(/^src\/app\/\.\.\//, 'src/') + '.tsx']
        : above;
      const pathProperty = element.properties.find((p) => p.name?.getText(file) === 'path');
      if (
        pathProperty &&
        ts.isPropertyAssignment(pathProperty) &&
        ts.isStringLiteral(pathProperty.initializer)
      ) {
        routes.push({ path: pathProperty.initializer.text, modules, ...(shell ? { shell } : {}) });
      }
      const children = element.properties.find((p) => p.name?.getText(file) === 'children');
      if (
        children &&
        ts.isPropertyAssignment(children) &&
        ts.isArrayLiteralExpression(children.initializer)
      ) {
        walk(children.initializer, modules, shell);
      }
    }
  };
  const visit = (node: ts.Node) => {
    if (
      ts.isVariableDeclaration(node) &&
      node.name.getText(file) === 'routes' &&
      node.initializer &&
      ts.isArrayLiteralExpression(node.initializer)
    ) {
      walk(node.initializer, []);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return routes;
}

function build(): string {
  const outDir = mkdtempSync(path.join(tmpdir(), 'backbeat-bundle-'));
  const result = spawnSync(
    'npx',
    ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
    {
      cwd: webDir,
      // Vitest or a shell may set NODE_ENV; the budget is about the production bundle.
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: 'inherit',
    },
  );
  if (result.status !== 0) throw new Error('web build failed');
  return outDir;
}

function main() {
  const builds = process.argv.includes('--build');
  const distArg = process.argv.indexOf('--dist');
  const dist = builds
    ? build()
    : distArg > 0
      ? path.resolve(process.argv[distArg + 1]!)
      : path.join(webDir, 'dist');
  try {
    const manifestFile = path.join(dist, '.vite/manifest.json');
    if (!existsSync(manifestFile))
      throw new Error(`no ${manifestFile}: build the web app first (or pass --build)`);
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;
    const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
    if (!entryKey) throw new Error('no entry in the Vite manifest');

    // A module that another chunk also imports statically is bundled into a shared chunk, keyed `_<name>-<hash>.js`.
    const sharedKey = (key: string) => {
      const name = path.basename(key).replace(/\.[cm]?[jt]sx?$/, '');
      return Object.keys(manifest).find((candidate) => candidate.startsWith(`_${name}-`));
    };
    const collect = (key: string, files: Set<string>) => {
      const chunk = manifest[key] ?? manifest[sharedKey(key) ?? ''];
      if (!chunk)
        throw new Error(`${key} is not in the Vite manifest (is router.tsx's route table out of step?)`);
      if (files.has(chunk.file)) return;
      files.add(chunk.file);
      for (const imported of chunk.imports ?? []) collect(imported, files);
    };
    const sizes = new Map<string, number>();
    const gzipSize = (file: string) => {
      if (!sizes.has(file))
        sizes.set(file, gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length);
      return sizes.get(file)!;
    };
    const uncompressed = new Set<string>();
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

    const routes = firstRoutes();
    const width = Math.max(...routes.map((r) => r.path.length));
    let worst = { path: '', bytes: 0 };
    let worstSignedIn = { path: '', bytes: 0 };
    console.log(`First-route JavaScript (gzip level 9), budget ${kb(BUDGET_BYTES)} per route`);
    for (const route of routes) {
      const files = new Set<string>();
      collect(entryKey, files);
      for (const module of route.modules) collect(module, files);
      const total = [...files].reduce((sum, file) => sum + gzipSize(file), 0);
      for (const file of files) {
        const big = readFileSync(path.join(dist, file)).length >= COMPRESS_THRESHOLD_BYTES;
        if (big && !(existsSync(path.join(dist, `${file}.br`)) && existsSync(path.join(dist, `${file}.gz`))))
          uncompressed.add(file);
      }
      if (total > worst.bytes) worst = { path: route.path, bytes: total };
      let signedIn = '';
      if (route.shell) {
        const withShell = new Set(files);
        collect(route.shell, withShell);
        const shellTotal = [...withShell].reduce((sum, file) => sum + gzipSize(file), 0);
        if (shellTotal > worstSignedIn.bytes) worstSignedIn = { path: route.path, bytes: shellTotal };
        signedIn = `  signed in, with the main layout: ${kb(shellTotal)} ${shellTotal <= BUDGET_BYTES ? 'ok' : 'OVER BUDGET'}`;
      }
      console.log(
        `${route.path.padEnd(width)}  ${kb(total).padStart(9)}  (${String(files.size).padStart(2)} files)  ${total <= BUDGET_BYTES ? 'ok' : 'OVER BUDGET'}${signedIn}`,
      );
    }
    console.log(`largest first route: ${worst.path} ${kb(worst.bytes)} of ${kb(BUDGET_BYTES)}`);
    console.log(
      `largest with the main layout (signed in): ${worstSignedIn.path} ${kb(worstSignedIn.bytes)} of ${kb(BUDGET_BYTES)}`,
    );
    if (worst.bytes > BUDGET_BYTES || worstSignedIn.bytes > BUDGET_BYTES) process.exitCode = 1;
    if (uncompressed.size > 0) {
      console.log(
        `without .br/.gz copies (the server would send them uncompressed): ${[...uncompressed].join(', ')}`,
      );
      process.exitCode = 1;
    }
  } finally {
    if (builds) rmSync(dist, { recursive: true, force: true });
  }
}

main();
