// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { encrypt, IV } from './gapless.test-fixtures';
import { decryptSegment, importSegmentKey, SegmentDecryptError, sequenceIv } from './segment-crypto';

const RAW_KEY = Uint8Array.from({ length: 16 }, (_, i) => 200 - i);

describe('segment decryption', () => {
  it('decrypts AES-128-CBC with PKCS#7 padding under a non-extractable key', async () => {
    const plain = Uint8Array.from({ length: 1000 }, (_, i) => (i * 7) & 0xff);
    const encrypted = await encrypt(plain, RAW_KEY, IV);
    const key = await importSegmentKey(RAW_KEY.buffer);
    expect(key.extractable).toBe(false);
    await expect(decryptSegment(encrypted, key, IV)).resolves.toEqual(plain);
  });

  it('reports a wrong key or corrupt data as a decryption error, and refuses keys that are not 16 bytes', async () => {
    const encrypted = await encrypt(new Uint8Array(64), RAW_KEY, IV);
    const wrong = await importSegmentKey(new Uint8Array(16).buffer);
    await expect(decryptSegment(encrypted, wrong, IV)).rejects.toThrow(SegmentDecryptError);
    await expect(importSegmentKey(new Uint8Array(32).buffer)).rejects.toThrow('not 16');
  });

  it('derives the default IV from the media sequence number', () => {
    expect([...sequenceIv(5)]).toEqual([...new Array(15).fill(0), 5]);
    expect([...sequenceIv(2 ** 32 + 1)].slice(8)).toEqual([0, 0, 0, 1, 0, 0, 0, 1]);
  });
});
