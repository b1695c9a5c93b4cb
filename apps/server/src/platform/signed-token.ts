import { createHmac, hash, timingSafeEqual } from 'node:crypto';

const MAC_BYTES = 32;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID as its 16 bytes (the token payloads are fixed-size binary). Throws on anything but a UUID. */
export function uuidToBytes(uuid: string): Buffer {
  if (!UUID_PATTERN.test(uuid)) throw new Error(`Not a UUID: ${uuid}`);
  return Buffer.from(uuid.replaceAll('-', ''), 'hex');
}

export function bytesToUuid(bytes: Buffer): string {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const SHA256_BLOCK_BYTES = 64;

/**
 * HMAC-SHA256 (RFC 2104) for one key, computed as SHA-256(K ^ opad || SHA-256(K ^ ipad || message)) with the
 * one-shot `crypto.hash`: the same bytes as `createHmac('sha256', key)` (a property test checks it), at about a
 * third of the cost, since every stream key and playlist request verifies a token and createHmac sets up an
 * OpenSSL MAC context each time.
 */
export class HmacSha256 {
  private readonly innerPad: Buffer;
  private readonly outerPad: Buffer;

  constructor(key: Buffer) {
    const block = Buffer.alloc(SHA256_BLOCK_BYTES);
    (key.length > SHA256_BLOCK_BYTES ? hash('sha256', key, 'buffer') : key).copy(block);
    this.innerPad = Buffer.from(block.map((byte) => byte ^ 0x36));
    this.outerPad = Buffer.from(block.map((byte) => byte ^ 0x5c));
  }

  digest(message: Buffer): Buffer {
    const inner = hash('sha256', Buffer.concat([this.innerPad, message]), 'buffer');
    return hash('sha256', Buffer.concat([this.outerPad, inner]), 'buffer');
  }
}

/**
 * The envelope every signed capability of the app shares (stream, preview and download tokens):
 * `base64url(payload).base64url(HMAC-SHA256(payload))`, with a fixed payload size. The MAC key is derived from
 * SECRET_KEY for one purpose only, so a MAC made for one kind of token can never pass as another.
 */
export class SignedTokenCodec {
  private readonly hmac: HmacSha256;

  constructor(
    secretKey: string,
    purpose: string,
    private readonly payloadBytes: number,
  ) {
    this.hmac = new HmacSha256(
      createHmac('sha256', secretKey).update(`backbeat:${purpose}-token:v1`).digest(),
    );
  }

  seal(payload: Buffer): string {
    if (payload.length !== this.payloadBytes)
      throw new Error(`A token payload is ${this.payloadBytes} bytes`);
    return `${payload.toString('base64url')}.${this.mac(payload).toString('base64url')}`;
  }

  /**
   * The payload of a genuine token, in its one canonical spelling; null for anything else (wrong size, forged or
   * re-encoded). The MAC is compared in constant time.
   */
  open(token: string | undefined): Buffer | null {
    if (!token) return null;
    const dot = token.indexOf('.');
    if (dot <= 0) return null;
    const payload = Buffer.from(token.slice(0, dot), 'base64url');
    const mac = Buffer.from(token.slice(dot + 1), 'base64url');
    if (payload.length !== this.payloadBytes || mac.length !== MAC_BYTES) return null;
    if (!timingSafeEqual(mac, this.mac(payload))) return null;
    // Non-canonical encodings are refused too, so one token has exactly one spelling.
    if (`${payload.toString('base64url')}.${mac.toString('base64url')}` !== token) return null;
    return payload;
  }

  private mac(payload: Buffer): Buffer {
    return this.hmac.digest(payload);
  }
}
