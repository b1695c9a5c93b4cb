import { bytesToUuid, SignedTokenCodec, uuidToBytes } from '../../platform/signed-token';
import { TtlCache } from '../../platform/ttl-cache';

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
/** Genuine tokens whose claims are kept decoded: a player fetches the key of the same token again and again. */
const VERIFIED_TOKENS = 10_000;

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
  private readonly codec: SignedTokenCodec;
  /**
   * The claims of tokens whose MAC already checked out, by their exact spelling: the same string always carries
   * the same MAC, so the check cannot come out differently (the key endpoint's most expensive step otherwise).
   * Expiry and song are still checked on every use; only genuine tokens enter, so forged ones cannot fill it.
   */
  private readonly verified = new TtlCache<string, StreamTokenClaims>(VERIFIED_TOKENS);

  constructor(
    secretKey: string,
    private readonly ttlMs: number = STREAM_TOKEN_TTL_MS,
    purpose: StreamTokenPurpose = 'stream',
  ) {
    this.codec = new SignedTokenCodec(secretKey, purpose, PAYLOAD_BYTES);
  }

  issue(holder: StreamTokenHolder, songId: string, now: number = Date.now()): string {
    const payload = Buffer.alloc(PAYLOAD_BYTES);
    payload.writeUInt8(VERSION, 0);
    uuidToBytes(holder.userId).copy(payload, USER_AT);
    uuidToBytes(songId).copy(payload, SONG_AT);
    uuidToBytes(holder.sessionId).copy(payload, SESSION_AT);
    payload.writeUInt32BE(Math.floor((now + this.ttlMs) / 1000), EXPIRY_AT);
    return this.codec.seal(payload);
  }

  /** The claims of a genuine, unexpired token for `songId`; null for anything else. Constant-time MAC check. */
  verify(token: string | undefined, songId: string, now: number = Date.now()): StreamTokenClaims | null {
    if (!token) return null;
    const claims = this.verified.get(token, now) ?? this.decode(token, now);
    if (!claims) return null;
    if (claims.songId !== songId.toLowerCase()) return null;
    if (claims.expiresAt.getTime() <= now) return null;
    return claims;
  }

  /** Checks the MAC and decodes; a genuine token's claims are kept for its next use. */
  private decode(token: string, now: number): StreamTokenClaims | null {
    const payload = this.codec.open(token);
    if (!payload || payload.readUInt8(0) !== VERSION) return null;
    const claims: StreamTokenClaims = Object.freeze({
      userId: bytesToUuid(payload.subarray(USER_AT, SONG_AT)),
      songId: bytesToUuid(payload.subarray(SONG_AT, SESSION_AT)),
      sessionId: bytesToUuid(payload.subarray(SESSION_AT, EXPIRY_AT)),
      expiresAt: new Date(payload.readUInt32BE(EXPIRY_AT) * 1000),
    });
    this.verified.set(token, claims, now);
    return claims;
  }
}
