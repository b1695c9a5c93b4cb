/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  plugins: [react(), tailwindcss()],
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
