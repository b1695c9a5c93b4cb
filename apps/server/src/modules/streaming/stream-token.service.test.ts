import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { STREAM_TOKEN_TTL_MS, StreamTokenService } from './stream-token.service';

const SECRET = 'unit-test-secret-key-that-is-long-enough-012345';
const USER = '3f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b';
const OTHER_USER = '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d';
const SONG = '11111111-2222-4333-8444-555555555555';
const OTHER_SONG = '66666666-7777-4888-8999-aaaaaaaaaaaa';
const SESSION = 'c0ffee00-1234-4abc-9def-0123456789ab';
const HOLDER = { userId: USER, sessionId: SESSION };
const NOW = Date.parse('2025-06-01T12:00:00Z');

describe('StreamTokenService', () => {
  const tokens = new StreamTokenService(SECRET);

  it('issues a compact base64url token that verifies for its user and song until it expires', () => {
    const token = tokens.issue(HOLDER, SONG, NOW);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(token.length).toBeLessThan(128);
    const claims = tokens.verify(token, SONG, NOW + 1000);
    expect(claims).toEqual({
      userId: USER,
      songId: SONG,
      sessionId: SESSION,
      expiresAt: new Date(Math.floor((NOW + STREAM_TOKEN_TTL_MS) / 1000) * 1000),
    });
  });

  it('lasts six hours: long enough for a song and its pauses', () => {
    const token = tokens.issue(HOLDER, SONG, NOW);
    expect(tokens.verify(token, SONG, NOW + STREAM_TOKEN_TTL_MS - 1000)).not.toBeNull();
    expect(tokens.verify(token, SONG, NOW + STREAM_TOKEN_TTL_MS)).toBeNull();
  });

  it('refuses a token for another song', () => {
    expect(tokens.verify(tokens.issue(HOLDER, SONG, NOW), OTHER_SONG, NOW)).toBeNull();
  });

  it('refuses a token signed with another secret', () => {
    const foreign = new StreamTokenService('another-secret-key-that-is-long-enough-987654').issue(
      HOLDER,
      SONG,
      NOW,
    );
    expect(tokens.verify(foreign, SONG, NOW)).toBeNull();
  });

  it('refuses a payload changed to another user or a later expiry, even with a recomputed plain HMAC', () => {
    const [payloadText] = tokens.issue(HOLDER, SONG, NOW).split('.');
    const payload = Buffer.from(payloadText!, 'base64url');
    Buffer.from(OTHER_USER.replaceAll('-', ''), 'hex').copy(payload, 1);
    const forgedMac = createHmac('sha256', SECRET).update(payload).digest('base64url');
    expect(tokens.verify(`${payload.toString('base64url')}.${forgedMac}`, SONG, NOW)).toBeNull();

    const later = Buffer.from(payloadText!, 'base64url');
    later.writeUInt32BE(later.readUInt32BE(49) + 3600, 49);
    const [, mac] = tokens.issue(HOLDER, SONG, NOW).split('.');
    expect(tokens.verify(`${later.toString('base64url')}.${mac}`, SONG, NOW)).toBeNull();
  });

  it('binds the session: a payload moved to another session does not verify', () => {
    const [payloadText, mac] = tokens.issue(HOLDER, SONG, NOW).split('.');
    const payload = Buffer.from(payloadText!, 'base64url');
    Buffer.from(OTHER_USER.replaceAll('-', ''), 'hex').copy(payload, 33);
    expect(tokens.verify(`${payload.toString('base64url')}.${mac}`, SONG, NOW)).toBeNull();
  });

  it('refuses a version 1 token (issued before tokens were bound to a session), even correctly signed', () => {
    const v1 = Buffer.alloc(37);
    v1.writeUInt8(1, 0);
    Buffer.from(USER.replaceAll('-', ''), 'hex').copy(v1, 1);
    Buffer.from(SONG.replaceAll('-', ''), 'hex').copy(v1, 17);
    v1.writeUInt32BE(Math.floor(NOW / 1000) + 3600, 33);
    const macKey = createHmac('sha256', SECRET).update('backbeat:stream-token:v1').digest();
    const mac = createHmac('sha256', macKey).update(v1).digest('base64url');
    expect(tokens.verify(`${v1.toString('base64url')}.${mac}`, SONG, NOW)).toBeNull();
  });

  it('refuses malformed tokens without throwing', () => {
    const token = tokens.issue(HOLDER, SONG, NOW);
    const [payload, mac] = token.split('.');
    for (const bad of [
      undefined,
      '',
      '.',
      'abc',
      `${payload}.`,
      `.${mac}`,
      `${payload}.${mac}x`,
      `${payload}x.${mac}`,
      `${payload}.${mac!.slice(0, -2)}`,
      `${payload}.${mac}.extra`,
      token.toUpperCase(),
      `${payload}.${Buffer.alloc(32).toString('base64url')}`,
    ]) {
      expect(tokens.verify(bad, SONG, NOW)).toBeNull();
    }
  });

  it('refuses to issue a token for ids that are not UUIDs', () => {
    expect(() => tokens.issue({ userId: 'not-a-uuid', sessionId: SESSION }, SONG, NOW)).toThrow(/UUID/);
    expect(() => tokens.issue({ userId: USER, sessionId: 'not-a-uuid' }, SONG, NOW)).toThrow(/UUID/);
  });
});

describe('StreamTokenService verified-token cache', () => {
  it('answers exactly as an uncached check, for the genuine token and every one-character change of it', () => {
    // Invariant: caching the claims of a genuine token never lets a different string through, and a cached token
    // still expires and stays bound to its song.
    const cached = new StreamTokenService(SECRET);
    const fresh = () => new StreamTokenService(SECRET);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.';
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 }),
        fc.nat(),
        fc.constantFrom(...alphabet),
        fc.integer({ min: 0, max: STREAM_TOKEN_TTL_MS + 60_000 }),
        (issuedAtSec, position, replacement, later) => {
          const issuedAt = NOW + issuedAtSec * 1000;
          const token = cached.issue(HOLDER, SONG, issuedAt);
          expect(cached.verify(token, SONG, issuedAt)).toEqual(fresh().verify(token, SONG, issuedAt));
          const at = position % token.length;
          const changed = token.slice(0, at) + replacement + token.slice(at + 1);
          if (changed !== token) expect(cached.verify(changed, SONG, issuedAt)).toBeNull();
          expect(cached.verify(token, SONG, issuedAt + later)).toEqual(
            fresh().verify(token, SONG, issuedAt + later),
          );
          expect(cached.verify(token, OTHER_SONG, issuedAt)).toBeNull();
        },
      ),
      { numRuns: 300 },
    );
  });
});
