import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app';
import { createLogger } from '../src/bootstrap';
import { reportPreparation } from '../src/demo/demo-seed-console';
import { CataloguePreparation } from '../src/platform/catalogue-preparation';
import { StatusLine } from '../src/platform/status-line';
import { openTestDatabase, testConfig } from './test-app';

/** Everything written, as text. */
function sink(options: { isTTY?: boolean } = {}) {
  const chunks: string[] = [];
  const stream = Object.assign(
    new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        chunks.push(chunk.toString());
        done();
      },
    }),
    { isTTY: options.isTTY },
  );
  return { stream, text: () => chunks.join(''), chunks };
}

const lines = (text: string) => text.split('\n').filter((line) => line.length > 0);

describe('the development console', () => {
  let app: FastifyInstance;
  let close: () => Promise<void>;
  const out = sink();

  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'backbeat-console-'));
    const { database, drop } = await openTestDatabase();
    // What `npm start` logs on this machine: development, info, pino-pretty.
    const config = testConfig(dataDir, { NODE_ENV: 'development', LOG_LEVEL: 'info' });
    app = await buildApp({ config, database, logger: createLogger(config, { destination: out.stream }) });
    await app.ready();
    close = async () => {
      await app.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    };
  });
  afterAll(() => close());

  /** The lines one request adds to the console. */
  async function linesOf(request: InjectOptions) {
    const before = out.text().length;
    await app.inject(request);
    // The access line is written when the answer ends and reaches the stream through pino-pretty's pipeline.
    await vi.waitFor(() => expect(out.text().length).toBeGreaterThan(before));
    return lines(out.text().slice(before));
  }

  it('writes one line per request: method, path, status, time', async () => {
    const cases = [
      { request: { url: '/api/songs?page=1' }, line: /INFO: GET \/api\/songs\?page=1 200 \d+\.\d ms$/ },
      { request: { url: '/api/health' }, line: /INFO: GET \/api\/health 200 \d+\.\d ms$/ },
      { request: { url: '/api/nowhere' }, line: /INFO: GET \/api\/nowhere 404 \d+\.\d ms$/ },
      { request: { url: '/api/users/me' }, line: /INFO: GET \/api\/users\/me 401 \d+\.\d ms$/ },
      {
        request: { method: 'POST' as const, url: '/api/users/login', payload: { email: 'x' } },
        line: /INFO: POST \/api\/users\/login 400 \d+\.\d ms$/,
      },
    ];
    for (const { request, line } of cases) {
      const written = await linesOf(request);
      expect(written).toHaveLength(1);
      // eslint-disable-next-line no-control-regex
      expect(written[0]!.replace(/\x1b\[[0-9;]*m/g, '')).toMatch(line);
    }
  });

  it('keeps credentials out of the line', async () => {
    const written = await linesOf({
      url: '/api/stream/hls/00000000-0000-4000-8000-000000000001/key?token=secret-token-value',
    });
    expect(written).toHaveLength(1);
    expect(written[0]).toContain('token=[REDACTED]');
    expect(written[0]).not.toContain('secret-token-value');
  });
});

/** A first start's 40 songs, as the seed reports them. */
function runSeed(preparation: CataloguePreparation) {
  preparation.update({ step: 'artwork', songsTotal: 40 });
  preparation.update({ step: 'audio' });
  for (let n = 1; n <= 40; n++) preparation.update({ songsSynthesised: n });
  preparation.update({ step: 'transcoding' });
  for (let n = 1; n <= 40; n++) preparation.update({ songsReady: n });
  preparation.update({ step: 'sales' });
  preparation.markReady();
}

describe("the first start's progress on the console", () => {
  it('is one line updated in place on a terminal', () => {
    const terminal = sink({ isTTY: true });
    const status = new StatusLine(terminal.stream);
    const logged: string[] = [];
    const preparation = CataloguePreparation.preparing();
    const stop = reportPreparation(preparation, {
      status,
      log: { info: (line) => logged.push(String(line)), warn: () => undefined },
    });
    runSeed(preparation);
    stop();

    expect(logged).toEqual([]);
    // Every draw returns to the start of the line and erases it; nothing ever moves to a new line.
    expect(terminal.text()).not.toContain('\n');
    expect(terminal.chunks.length).toBeGreaterThan(80);
    expect(terminal.chunks.every((chunk) => chunk.startsWith('\r\x1b[2K'))).toBe(true);
    expect(terminal.text()).toContain(
      'Preparing the demo catalogue: 12 of 40 songs · transcoding to encrypted HLS',
    );
    // The last write erases the line, so what the log prints next starts clean.
    expect(terminal.chunks.at(-1)).toBe('\r\x1b[2K');
  });

  it('keeps the line below log lines printed meanwhile', () => {
    const terminal = sink({ isTTY: true });
    const status = new StatusLine(terminal.stream);
    status.set('Preparing the demo catalogue: 3 of 40 songs');
    status.logStream().write('INFO: something happened\n');
    expect(terminal.chunks.at(-1)).toBe(
      '\r\x1b[2KINFO: something happened\nPreparing the demo catalogue: 3 of 40 songs',
    );
  });

  it('is a few log lines elsewhere (a file, a pipe)', () => {
    const file = sink({ isTTY: false });
    const status = new StatusLine(file.stream);
    const logged: string[] = [];
    const preparation = CataloguePreparation.preparing();
    const stop = reportPreparation(preparation, {
      status,
      log: { info: (line) => logged.push(String(line)), warn: () => undefined },
    });
    runSeed(preparation);
    stop();

    expect(file.text()).toBe('');
    expect(logged.map((line) => line.replace(/ · \d+:\d\d$/, ''))).toEqual([
      'Preparing the demo catalogue: 0 of 40 songs · drawing cover art',
      'Preparing the demo catalogue: 0 of 40 songs · synthesising audio (0 of 40)',
      'Preparing the demo catalogue: 0 of 40 songs · transcoding to encrypted HLS',
      'Preparing the demo catalogue: 20 of 40 songs · transcoding to encrypted HLS',
      'Preparing the demo catalogue: 40 of 40 songs · writing four months of demo sales',
    ]);
  });
});
