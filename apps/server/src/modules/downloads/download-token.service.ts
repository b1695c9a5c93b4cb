import type { DownloadFormat, DownloadItemType } from '@backbeat/contract';
import { bytesToUuid, SignedTokenCodec, uuidToBytes } from '../../platform/signed-token';

/** A link is for fetching now, not for sharing: ten minutes, and only with the session that asked for it. */
export const DOWNLOAD_LINK_TTL_MS = 10 * 60 * 1000;

const VERSION = 1;
const ITEM_TYPES: readonly DownloadItemType[] = ['song', 'album'];
const FORMATS: readonly DownloadFormat[] = ['mp3', 'flac'];
// version (1) + user (16) + session (16) + item type (1) + item (16) + format (1) + expiry, unix seconds (4)
const USER_AT = 1;
const SESSION_AT = USER_AT + 16;
const TYPE_AT = SESSION_AT + 16;
const ITEM_AT = TYPE_AT + 1;
const FORMAT_AT = ITEM_AT + 16;
const EXPIRY_AT = FORMAT_AT + 1;
const PAYLOAD_BYTES = EXPIRY_AT + 4;

export interface DownloadClaims {
  userId: string;
  sessionId: string;
  itemType: DownloadItemType;
  itemId: string;
  format: DownloadFormat;
  expiresAt: Date;
}

/**
 * Signed download links: `base64url(payload).base64url(HMAC-SHA256)` binding the buyer, their session, the item,
 * the format and the expiry. The MAC key is derived from SECRET_KEY for this purpose alone, so no other token of
 * the app (stream, preview, OIDC state) can pass as a download link.
 */
export class DownloadTokenService {
  private readonly codec: SignedTokenCodec;

  constructor(
    secretKey: string,
    private readonly ttlMs: number = DOWNLOAD_LINK_TTL_MS,
  ) {
    this.codec = new SignedTokenCodec(secretKey, 'download', PAYLOAD_BYTES);
  }

  issue(
    claims: Omit<DownloadClaims, 'expiresAt'>,
    now: number = Date.now(),
  ): { token: string; expiresAt: Date } {
    const payload = Buffer.alloc(PAYLOAD_BYTES);
    payload.writeUInt8(VERSION, 0);
    uuidToBytes(claims.userId).copy(payload, USER_AT);
    uuidToBytes(claims.sessionId).copy(payload, SESSION_AT);
    payload.writeUInt8(ITEM_TYPES.indexOf(claims.itemType), TYPE_AT);
    uuidToBytes(claims.itemId).copy(payload, ITEM_AT);
    payload.writeUInt8(FORMATS.indexOf(claims.format), FORMAT_AT);
    const expiry = Math.floor((now + this.ttlMs) / 1000);
    payload.writeUInt32BE(expiry, EXPIRY_AT);
    return {
      token: this.codec.seal(payload),
      expiresAt: new Date(expiry * 1000),
    };
  }

  /** The claims of a genuine, unexpired link; null for anything else. Constant-time MAC check. */
  verify(token: string | undefined, now: number = Date.now()): DownloadClaims | null {
    const payload = this.codec.open(token);
    if (!payload || payload.readUInt8(0) !== VERSION) return null;
    const itemType = ITEM_TYPES[payload.readUInt8(TYPE_AT)];
    const format = FORMATS[payload.readUInt8(FORMAT_AT)];
    if (!itemType || !format) return null;
    const expiresAt = new Date(payload.readUInt32BE(EXPIRY_AT) * 1000);
    if (expiresAt.getTime() <= now) return null;
    return {
      userId: bytesToUuid(payload.subarray(USER_AT, SESSION_AT)),
      sessionId: bytesToUuid(payload.subarray(SESSION_AT, TYPE_AT)),
      itemType,
      itemId: bytesToUuid(payload.subarray(ITEM_AT, FORMAT_AT)),
      format,
      expiresAt,
    };
  }
}
