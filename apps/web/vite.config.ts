/// <reference types="vitest/config" />
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants as zlib } from 'node:zlib';
import { defineConfig } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * react-router publishes its production build (development warnings compiled out) only under dist/production,
 * which no export condition selects: a production build takes it by path (bench:bundle: 0.5 KB gzip less on
 * every route).
 */
const reactRouterProduction = path.join(
  path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production/index.mjs',
);

export default defineConfig(({ mode }) => ({
  root,
  plugins: [
    react(),
    tailwindcss(),
    // Precompressed copies beside every text asset, made once here: the server sends `x.js.br` or `x.js.gz` as
    // the browser accepts (@fastify/static `preCompressed`) instead of compressing on every request.
    compression({
      include: /\.(js|css|html|svg|json|txt|webmanifest)$/,
      exclude: /\.vite\//,
      threshold: 512,
      algorithms: [
        defineAlgorithm('brotliCompress', { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }),
        defineAlgorithm('gzip', { level: 9 }),
      ],
      logLevel: 'silent',
    }),
  ],
  resolve: {
    alias: mode === 'production' ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : [],
  },
  server: {
    proxy: {
      '/api': {
        target: 'http://127.0.0.1:3000',
        changeOrigin: false,
        // The API's same-origin check compares Origin with its PUBLIC_URL (http://localhost:3000 by default), not
        // with Host: a request from this dev server's own pages is presented as coming from there.
        configure: (proxy) => {
          proxy.on('proxyReq', (proxyRequest, request) => {
            const host = request.headers.host;
            if (host && request.headers.origin === `http://${host}`) {
              proxyRequest.setHeader('origin', process.env.PUBLIC_URL ?? 'http://localhost:3000');
            }
          });
        },
      },
    },
  },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    // The server's CSP allows data: images and fonts, so small assets may be inlined; not the logos, which every
    // first load would otherwise carry inside its JavaScript (a cached file instead).
    assetsInlineLimit: (file) => (file.endsWith('.svg') ? false : undefined),
    sourcemap: false,
    // bench/bundle-size.ts reads the manifest to measure each route's first-load JavaScript.
    manifest: true,
    // Every browser the app supports preloads modules itself (modulepreload: Chrome 66, Firefox 115, Safari 17).
    modulePreload: { polyfill: false },
    // hls.js (~580 KB) and the dashboards' charts are lazy chunks; first routes are budgeted by bench:bundle.
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // What every page loads first comes as two files, the libraries and the app's core, rather than a dozen
          // small ones (each costs a request and compresses apart). Everything else is split by route as needed.
          groups: [
            { name: 'vendor', test: /[\\/]node_modules[\\/]/, tags: ['$initial'], priority: 2 },
            { name: 'app', tags: ['$initial'], priority: 1 },
            // The small modules most screens share (icons, page header, skeleton, cover art, the catalogue's
            // endpoints) as one file instead of a dozen of 200 bytes each: every file is compressed apart, so
            // many tiny ones cost more than their code (bench:bundle: /artist/:artistId 149.2 -> 146.0 KB gzip).
            { name: 'shared', minShareCount: 10, maxModuleSize: 4000 },
          ],
        },
      },
    },
  },
  test: {
    restoreMocks: true,
    // Building a DOM costs about a second per file: logic tests (`*.test.ts`) run in Node, tests that render
    // (`*.test.tsx`) in jsdom. A logic test that needs browser globals (storage, XHR, events) says so in its first
    // line: `// @vitest-environment jsdom`.
    projects: [
      { extends: true, test: { name: 'logic', environment: 'node', include: ['src/**/*.test.ts'] } },
      { extends: true, test: { name: 'dom', environment: 'jsdom', include: ['src/**/*.test.tsx'] } },
    ],
  },
}));
