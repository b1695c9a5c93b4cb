import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Long enough for a song plus pauses; the key endpoint re-runs the access policy on every fetch anyway, and a token
 * dies earlier with the session that minted it (logout, password reset, account deletion).
 */
export const STREAM_TOKEN_TTL_MS = 6 * 60 * 60 * 1000;

// Version 1 tokens (no session) are refused: they were issued before tokens were bound to sessions.
const VERSION = 2;
const UUID_BYTES = 16;
const USER_AT = 1;
const SONG_AT = USER_AT + UUID_BYTES;
const SESSION_AT = SONG_AT + UUID_BYTES;
const EXPIRY_AT = SESSION_AT + UUID_BYTES;
// version (1) + user id (16) + song id (16) + session id (16) + expiry in unix seconds (4)
const PAYLOAD_BYTES = EXPIRY_AT + 4;
const MAC_BYTES = 32;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface StreamTokenClaims {
  userId: string;
  songId: string;
  /** The session the token was issued to; the token is only honoured while that session lives. */
  sessionId: string;
  expiresAt: Date;
}

/** Who a token is issued to: a user, through one of their sessions. */
export interface StreamTokenHolder {
  userId: string;
  sessionId: string;
}

function uuidToBytes(uuid: string): Buffer {
  if (!UUID_PATTERN.test(uuid)) throw new Error(`Not a UUID: ${uuid}`);
  return Buffer.from(uuid.replaceAll('-', ''), 'hex');
}

function bytesToUuid(bytes: Buffer): string {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** What a token opens: the song's own stream, or only its preview. */
export type StreamTokenPurpose = 'stream' | 'preview';

/** The holder of a guest's preview token: no account, no session (previews need neither). */
export const GUEST_HOLDER: StreamTokenHolder = {
  userId: '00000000-0000-0000-0000-000000000000',
  sessionId: '00000000-0000-0000-0000-000000000000',
};
export const isGuestHolder = (claims: StreamTokenHolder) => claims.userId === GUEST_HOLDER.userId;

/**
 * Signed, expiring capability to play one song as one user: `base64url(payload).base64url(HMAC-SHA256)`.
 * The payload binds the user id, the song id, the session that asked for it and the expiry; the MAC key is derived
 * from SECRET_KEY for this purpose only, so a MAC made for something else (OIDC state, a preview token...) can
 * never pass as a stream token: a preview token opens the preview's files and nothing of the song itself.
 */
export class StreamTokenService {
  private readonly macKey: Buffer;

  constructor(
    secretKey: string,
    private readonly ttlMs: number = STREAM_TOKEN_TTL_MS,
    purpose: StreamTokenPurpose = 'stream',
  ) {
    this.macKey = createHmac('sha256', secretKey).update(`backbeat:${purpose}-token:v1`).digest();
  }

  issue(holder: StreamTokenHolder, songId: string, now: number = Date.now()): string {
    const payload = Buffer.alloc(PAYLOAD_BYTES);
    payload.writeUInt8(VERSION, 0);
    uuidToBytes(holder.userId).copy(payload, USER_AT);
    uuidToBytes(songId).copy(payload, SONG_AT);
    uuidToBytes(holder.sessionId).copy(payload, SESSION_AT);
    payload.writeUInt32BE(Math.floor((now + this.ttlMs) / 1000), EXPIRY_AT);
    return `${payload.toString('base64url')}.${this.mac(payload).toString('base64url')}`;
  }

  /** The claims of a genuine, unexpired token for `songId`; null for anything else. Constant-time MAC check. */
  verify(token: string | undefined, songId: string, now: number = Date.now()): StreamTokenClaims | null {
    if (!token) return null;
    const dot = token.indexOf('.');
    if (dot <= 0) return null;
    const payload = Buffer.from(token.slice(0, dot), 'base64url');
    const mac = Buffer.from(token.slice(dot + 1), 'base64url');
    if (payload.length !== PAYLOAD_BYTES || mac.length !== MAC_BYTES) return null;
    if (!timingSafeEqual(mac, this.mac(payload))) return null;
    // Reject non-canonical encodings too, so one token has exactly one spelling.
    if (`${payload.toString('base64url')}.${mac.toString('base64url')}` !== token) return null;
    if (payload.readUInt8(0) !== VERSION) return null;

    const claims: StreamTokenClaims = {
      userId: bytesToUuid(payload.subarray(USER_AT, SONG_AT)),
      songId: bytesToUuid(payload.subarray(SONG_AT, SESSION_AT)),
      sessionId: bytesToUuid(payload.subarray(SESSION_AT, EXPIRY_AT)),
      expiresAt: new Date(payload.readUInt32BE(EXPIRY_AT) * 1000),
    };
    if (claims.songId !== songId.toLowerCase()) return null;
    if (claims.expiresAt.getTime() <= now) return null;
    return claims;
  }

  private mac(payload: Buffer): Buffer {
    return createHmac('sha256', this.macKey).update(payload).digest();
  }
}
