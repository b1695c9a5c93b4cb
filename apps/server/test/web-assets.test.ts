import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './test-app';

/** A built web app as `vite build` leaves it: text assets with their .br and .gz beside them, tiny ones alone. */
const script = `export const greeting = ${JSON.stringify('hello '.repeat(400))};\n`;
const page = `<!doctype html><html><head><script type="module" src="/assets/app-abc123.js"></script></head><body>${'<p>Backbeat</p>'.repeat(50)}</body></html>`;

function writeDist(root: string) {
  mkdirSync(path.join(root, 'assets'), { recursive: true });
  const files: Record<string, string> = { 'index.html': page, 'assets/app-abc123.js': script };
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(path.join(root, name), text);
    writeFileSync(path.join(root, `${name}.br`), brotliCompressSync(text));
    writeFileSync(path.join(root, `${name}.gz`), gzipSync(text));
  }
  // Below the build's threshold: no compressed copies.
  writeFileSync(path.join(root, 'assets/icon-x1.js'), 'export default 1;\n');
}

/** A real HTTP GET with exactly these request headers (fetch would add and undo Accept-Encoding). */
function get(base: string, url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>(
    (resolve, reject) => {
      const request = http.get(new URL(url, base), { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
        );
      });
      request.on('error', reject);
    },
  );
}

let ctx: TestContext;
let dist: string;
let base: string;

beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'backbeat-web-dist-'));
  writeDist(dist);
  ctx = await createTestApp({ webDistDir: dist });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await ctx.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('the built web app, precompressed', () => {
  const cases = [
    { accept: 'br', encoding: 'br', expected: (text: string) => brotliCompressSync(text) },
    {
      accept: 'gzip, deflate, br, zstd',
      encoding: 'br',
      expected: (text: string) => brotliCompressSync(text),
    },
    { accept: 'gzip', encoding: 'gzip', expected: (text: string) => gzipSync(text) },
    { accept: 'br;q=0, gzip', encoding: 'gzip', expected: (text: string) => gzipSync(text) },
    { accept: 'identity', encoding: undefined, expected: (text: string) => Buffer.from(text) },
    { accept: undefined, encoding: undefined, expected: (text: string) => Buffer.from(text) },
  ];

  for (const { accept, encoding, expected } of cases) {
    it(`sends a script ${encoding ?? 'uncompressed'} for Accept-Encoding: ${accept ?? '(none)'}`, async () => {
      const res = await get(base, '/assets/app-abc123.js', accept ? { 'accept-encoding': accept } : {});
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
      expect(res.headers.vary).toBe('accept-encoding');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.body.equals(expected(script))).toBe(true);
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
    });
  }

  it('sends the page of a client-side route compressed, revalidated every time', async () => {
    for (const url of ['/', '/home', '/album/123']) {
      const res = await get(base, url, { 'accept-encoding': 'gzip, br' });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers.vary).toBe('accept-encoding');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body.equals(brotliCompressSync(page))).toBe(true);
    }
    const plain = await get(base, '/home');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(page);
  });

  it('sends a file without compressed copies as it is', async () => {
    const res = await get(base, '/assets/icon-x1.js', { 'accept-encoding': 'br, gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.toString()).toBe('export default 1;\n');
  });

  it('gives the compressed copies no address of their own', async () => {
    const res = await get(base, '/assets/app-abc123.js.br');
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body.toString())).toEqual({ message: 'Not found', code: 'NOT_FOUND' });
  });
});
