import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { redactUrl } from '../src/platform/request-log';
import { openTestDatabase, testConfig } from './test-app';
import { users } from '../src/db/schema';

const lines: string[] = [];
let app: Awaited<ReturnType<typeof buildApp>>;
let cleanup: () => Promise<void>;
let db: Awaited<ReturnType<typeof openTestDatabase>>['database']['db'];

beforeAll(async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'backbeat-log-test-'));
  const { database, drop } = await openTestDatabase();
  db = database.db;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const logger = pino({ level: 'info' }, sink);
  app = await buildApp({ config: testConfig(dataDir), database, logger });
  await app.ready();
  cleanup = async () => {
    await app.close();
    await app.services.jobs.stop();
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
});
afterAll(() => cleanup());

describe('error logs', () => {
  it("never carry a failed query's bound values (a password hash, an e-mail)", async () => {
    const hash = '$argon2id$v=19$m=19456,t=2,p=1$c2VjcmV0LXNhbHQ$leaked-hash-value';
    const row = { name: 'Dup', email: 'dup-secret@example.test', passwordHash: hash };
    await db.insert(users).values(row);
    const failure = await db
      .insert(users)
      .values(row)
      .then(() => null)
      .catch((error: unknown) => error as Error);
    expect(failure).toBeInstanceOf(Error);
    app.log.error({ err: failure }, 'query failed');
    const line = lines.findLast((text) => text.includes('query failed'))!;
    expect(line).toContain('Failed query');
    expect(line).not.toContain('leaked-hash-value');
    expect(line).not.toContain('dup-secret@example.test');
  });
});

describe('request logs', () => {
  it('never contain a stream token, an OAuth code or a reset token', async () => {
    const secrets = ['s3cr3t-stream-token.abc', 'oauth-code-42', 'reset-token-xyz', 'reset-page-token-abc'];
    const songId = '00000000-0000-4000-8000-000000000001';
    await app.inject({ method: 'GET', url: `/api/stream/hls/${songId}/index.m3u8?token=${secrets[0]}` });
    await app.inject({ method: 'GET', url: `/api/stream/hls/${songId}/key?x=1&token=${secrets[0]}` });
    await app.inject({ method: 'GET', url: `/api/auth/google/callback?code=${secrets[1]}&state=s` });
    await app.inject({
      method: 'POST',
      url: `/api/users/reset-password/${secrets[2]}`,
      payload: { password: 'whatever-password-1' },
    });
    // The page the reset mail links to (served by the web app's fallback) carries the token too.
    await app.inject({ method: 'GET', url: `/reset-password/${secrets[3]}` });
    const log = lines.join('');
    expect(log).toContain('request completed');
    expect(log).toContain(`/api/stream/hls/${songId}/index.m3u8?token=[REDACTED]`);
    for (const secret of secrets) expect(log).not.toContain(secret);
  });

  it('writes one access line per request, with the request, its status and its duration', async () => {
    lines.length = 0;
    const res = await app.inject({ method: 'GET', url: '/api/songs?page=1' });
    expect(res.statusCode).toBe(200);
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      msg: 'request completed',
      req: { method: 'GET', url: '/api/songs?page=1' },
      res: { statusCode: 200 },
    });
    expect(entries[0]!.responseTime).toEqual(expect.any(Number));
  });

  it('redacts only credential values and keeps the rest of the URL', () => {
    expect(redactUrl('/api/stream/audio/1?token=a.b-c&x=2')).toBe('/api/stream/audio/1?token=[REDACTED]&x=2');
    expect(redactUrl('/api/songs?page=2&limit=10')).toBe('/api/songs?page=2&limit=10');
    expect(redactUrl('/api/users/reset-password/abc?x=1')).toBe('/api/users/reset-password/[REDACTED]?x=1');
    expect(redactUrl('/reset-password/abc?x=1')).toBe('/reset-password/[REDACTED]?x=1');
    expect(redactUrl('//Reset-Password/abc')).toBe('//Reset-Password/[REDACTED]');
    expect(redactUrl('/api/x?tokens=keep&mytoken=keep')).toBe('/api/x?tokens=keep&mytoken=keep');
  });
});
