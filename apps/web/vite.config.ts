/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import { constants as zlib } from 'node:zlib';
import { defineConfig } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
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
  server: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false },
    },
  },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    // The server's CSP allows data: images and fonts, so small assets may be inlined.
    assetsInlineLimit: 4096,
    sourcemap: false,
    // bench/bundle-size.ts reads the manifest to measure each route's first-load JavaScript.
    manifest: true,
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
  },
});
