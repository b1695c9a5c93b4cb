import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bytesToUuid, SignedTokenCodec, uuidToBytes } from './signed-token';

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
