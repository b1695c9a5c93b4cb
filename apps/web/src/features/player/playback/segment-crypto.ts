/**
 * AES-128 segment decryption (RFC 8216 section 5.2: AES-128-CBC over the whole segment with PKCS#7 padding), done by
 * the browser's Web Crypto, which holds the key as a non-extractable CryptoKey.
 */

export class SegmentDecryptError extends Error {
  override name = 'SegmentDecryptError';
}

export async function importSegmentKey(raw: ArrayBuffer): Promise<CryptoKey> {
  if (raw.byteLength !== 16) throw new SegmentDecryptError(`the key has ${raw.byteLength} bytes, not 16`);
  return crypto.subtle.importKey('raw', raw, { name: 'AES-CBC' }, false, ['decrypt']);
}

/** The IV a key without one implies: the segment's media sequence number, big-endian, in 16 bytes. */
export function sequenceIv(sequence: number): Uint8Array<ArrayBuffer> {
  const iv = new Uint8Array(16);
  new DataView(iv.buffer).setUint32(12, sequence);
  new DataView(iv.buffer).setUint32(8, Math.floor(sequence / 2 ** 32));
  return iv;
}

export async function decryptSegment(
  data: ArrayBuffer,
  key: CryptoKey,
  iv: Uint8Array<ArrayBuffer>,
): Promise<Uint8Array> {
  try {
    return new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-CBC', iv }, key, data));
  } catch (error) {
    throw new SegmentDecryptError(
      `the segment could not be decrypted: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
