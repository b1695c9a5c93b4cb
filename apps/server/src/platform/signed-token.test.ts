import { createHmac, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesToUuid, HmacSha256, SignedTokenCodec, uuidToBytes } from './signed-token';

const SECRET = 'x'.repeat(48);

describe('SignedTokenCodec', () => {
  const codec = new SignedTokenCodec(SECRET, 'download', 8);
  const payload = Buffer.from('0123abcd', 'hex').subarray(0, 4);
  const eight = Buffer.concat([payload, payload]);

  it('opens what it sealed, and nothing sealed for another purpose or with another secret', () => {
    const token = codec.seal(eight);
    expect(codec.open(token)).toEqual(eight);
    expect(new SignedTokenCodec(SECRET, 'stream', 8).open(token)).toBeNull();
    expect(new SignedTokenCodec('y'.repeat(48), 'download', 8).open(token)).toBeNull();
  });

  it('refuses a changed payload, a wrong size, a missing or extra part, and a second spelling', () => {
    const token = codec.seal(eight);
    const [body, mac] = token.split('.') as [string, string];
    const changed = Buffer.from(eight);
    changed.writeUInt8(changed.readUInt8(0) ^ 1, 0);
    expect(codec.open(`${changed.toString('base64url')}.${mac}`)).toBeNull();
    expect(codec.open(`${Buffer.concat([eight, eight]).toString('base64url')}.${mac}`)).toBeNull();
    for (const bad of [undefined, '', body, `.${mac}`, `${body}.`, `${token}.x`, `${body}=.${mac}`])
      expect(codec.open(bad)).toBeNull();
    expect(() => codec.seal(randomBytes(9))).toThrow(/8 bytes/);
  });

  it('writes UUIDs as their 16 bytes and back', () => {
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    expect(uuidToBytes(id)).toHaveLength(16);
    expect(bytesToUuid(uuidToBytes(id))).toBe(id);
    expect(() => uuidToBytes('not-a-uuid')).toThrow(/Not a UUID/);
  });
});

describe('HmacSha256', () => {
  it("gives node's createHmac('sha256') bytes for any key and message (RFC 2104)", () => {
    // Keys shorter than, equal to and longer than the 64-byte block (a longer key is hashed first).
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 0, maxLength: 100 }),
        fc.uint8Array({ minLength: 0, maxLength: 300 }),
        (key, message) => {
          const expected = createHmac('sha256', Buffer.from(key)).update(Buffer.from(message)).digest();
          expect(new HmacSha256(Buffer.from(key)).digest(Buffer.from(message))).toEqual(expected);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('matches the RFC 4231 test case 2 vector', () => {
    const mac = new HmacSha256(Buffer.from('Jefe')).digest(Buffer.from('what do ya want for nothing?'));
    expect(mac.toString('hex')).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });
});
