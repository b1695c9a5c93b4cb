import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // `*.pg.test.ts`: server processes sharing one real PostgreSQL (scale-out, backup and restore); they run in
    // the PostgreSQL tier, on its cluster, and have nothing to prove on the embedded database.
    exclude: process.env.TEST_DB === 'postgres' ? [] : ['test/**/*.pg.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    // Each file gets its own database copy; two at a time keeps the 2-core machine responsive.
    maxWorkers: 2,
    // A worker runs its files one after another in one module graph: the app, drizzle, the gateway SDKs and
    // PGlite's WebAssembly load once per worker instead of once per file (import time fell from 251 s to 18 s of
    // a 707 s run). Files share no state through modules: each builds its own app, database and clock, and tests
    // neither mock modules nor change process.env.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
