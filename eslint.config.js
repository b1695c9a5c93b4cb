import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { readdirSync } from 'node:fs';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';

/** The folders directly inside `folder` (relative to this file, so ESLint works from any folder). */
const foldersIn = (folder) =>
  readdirSync(new URL(folder, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

/**
 * Zones that let each unit under `root` (e.g. `features/<f>` or `modules/<m>`) reach another only through that
 * unit's `index.ts` (its public surface), and let each of `consumers` reach any unit only that way.
 */
function publicSurfaceZones(root, kind, consumers = []) {
  const units = foldersIn(root);
  return [
    ...units.flatMap((unit) =>
      units
        .filter((other) => other !== unit)
        .map((other) => ({
          target: `${root}/${unit}`,
          from: `${root}/${other}`,
          except: ['./index.ts'],
          message: `${kind}/${unit} may use ${kind}/${other} only through its index.ts (its public surface)`,
        })),
    ),
    ...(consumers.length === 0
      ? []
      : units.map((unit) => ({
          target: consumers,
          from: `${root}/${unit}`,
          except: ['./index.ts'],
          message: `${kind}/${unit} is used only through its index.ts (its public surface)`,
        }))),
  ];
}

/**
 * Web import boundaries (STYLE.md 8): imports flow shared (components, lib, assets) -> features -> app and pages.
 * A feature reaches another feature only through its public `index.ts`; shared code knows no feature.
 */
const web = './apps/web/src';
const webBoundaries = [
  ...publicSurfaceZones(`${web}/features`, 'features'),
  {
    target: `${web}/features`,
    from: [`${web}/app`, `${web}/pages`],
    message: 'features are composed by app/ and pages/, never the other way round',
  },
  {
    target: [`${web}/components`, `${web}/lib`],
    from: [`${web}/features`, `${web}/app`, `${web}/pages`],
    message: 'shared code (components/, lib/) must not depend on features, app or pages',
  },
];

/**
 * Server import boundaries (ARCHITECTURE.md): a module (`modules/<m>/`) uses another only through its `index.ts`
 * (its public surface), and so do the app, the entry points and the demo seed; `access/` is the shared kernel,
 * reached the same way. Infrastructure (db, jobs, platform, storage, config) sits below the modules and never
 * imports them.
 */
const server = './apps/server/src';
const serverBoundaries = [
  // The composition roots (the app, the entry points, the demo seed, the package's public entry points in exports/,
  // the module registry) use modules the same way.
  ...publicSurfaceZones(`${server}/modules`, 'modules', [
    `${server}/app.ts`,
    `${server}/bootstrap.ts`,
    `${server}/main.ts`,
    `${server}/worker.ts`,
    `${server}/demo`,
    `${server}/exports`,
    `${server}/ops`,
    `${server}/modules/index.ts`,
  ]),
  {
    target: [
      `${server}/db`,
      `${server}/jobs`,
      `${server}/platform`,
      `${server}/storage`,
      `${server}/config.ts`,
    ],
    from: `${server}/modules`,
    message:
      'infrastructure (db, jobs, platform, storage, config) sits below the modules and must not import them',
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      '**/data/**',
      'apps/server/src/db/migrations/**',
      'e2e/artifacts/**',
      'e2e/.cache/**',
      'bench/results/**',
      '**/*.config.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Repository scripts run by Node.
    files: ['scripts/**/*.mjs'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // The gateway emulator's stand-ins of the providers' browser scripts: plain ES5-style browser JavaScript.
    files: ['packages/gateway-emulator/browser/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser } },
    // ES5-style callbacks keep `self` as the providers' own scripts do.
    rules: { '@typescript-eslint/no-this-alias': 'off' },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    // Tests may build their worlds from other features' fixtures.
    ignores: ['**/*.test.{ts,tsx}', '**/*.test-fixtures.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
      // no-cycle follows imports only into files it can parse: TypeScript ones through the TypeScript parser.
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: webBoundaries, basePath: import.meta.dirname }],
      // Runtime cycles only (type imports are erased); packages in node_modules cannot import back.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // Toasts go through lib/toast.ts, which loads sonner after the first screen.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'sonner',
              message: 'import { toast } from lib/toast.ts: it loads sonner after the first screen',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    // Benchmarks and browser journeys use the server through its package's public entry points
    // (@backbeat/server/app, /db, /media, /testing: apps/server/package.json `exports`), never its files by path.
    files: ['bench/**/*.ts', 'e2e/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/apps/server/src',
                '**/apps/server/src/**',
                '**/apps/server/test',
                '**/apps/server/test/**',
              ],
              message:
                'use the server through @backbeat/server/app, /db, /media or /testing (apps/server/package.json exports)',
            },
          ],
        },
      ],
    },
  },
  {
    // Server test files share one module graph per worker (apps/server/vitest.config.ts, isolate: false): a test
    // that mocked a module or changed the environment would change the files that run after it.
    files: ['apps/server/test/**/*.ts', 'apps/server/src/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.object.name='vi'][callee.property.name=/^(mock|doMock|stubEnv|stubGlobal)$/]",
          message: 'server test files share modules (isolate: false): inject a fake through the app instead',
        },
        {
          selector:
            "AssignmentExpression > MemberExpression.left[object.object.name='process'][object.property.name='env']",
          message:
            'server test files share process.env (isolate: false): pass settings to the app or child process',
        },
      ],
    },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js'] })],
      // no-cycle follows imports only into files it can parse: TypeScript ones through the TypeScript parser.
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: serverBoundaries, basePath: import.meta.dirname }],
      // Runtime cycles only (type imports are erased); packages in node_modules cannot import back.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
);
