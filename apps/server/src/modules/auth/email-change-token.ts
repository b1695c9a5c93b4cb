import { createHash } from 'node:crypto';
import { SignedTokenCodec, bytesToUuid, uuidToBytes } from '../../platform/signed-token';

/** How long a mailed e-mail change link works. */
export const EMAIL_CHANGE_TTL_MS = 24 * 60 * 60 * 1000;

const digest = (email: string) => createHash('sha256').update(email.toLowerCase()).digest();

/** user (16) | expires, ms (8) | sha256(new e-mail) (32) | sha256(e-mail it replaces) (32) */
const PAYLOAD_BYTES = 16 + 8 + 32 + 32;

export interface EmailChangeClaims {
  userId: string;
  expiresAt: number;
  /** Whether `email` is the address the link was made for. */
  isFor(email: string): boolean;
  /** Whether `email` is the address the account had when the link was made (a link dies once it changed). */
  replaces(email: string): boolean;
}

/**
 * The signed, expiring capability in an e-mail change link. Stateless: it binds the account, the new address and
 * the address it replaces, so it works once (after it, the account's address is no longer the one it replaces)
 * and never after another change.
 */
export class EmailChangeTokens {
  private readonly codec: SignedTokenCodec;

  constructor(secretKey: string) {
    this.codec = new SignedTokenCodec(secretKey, 'email-change', PAYLOAD_BYTES);
  }

  issue(userId: string, currentEmail: string, newEmail: string, now: number): string {
    const expires = Buffer.alloc(8);
    expires.writeBigUInt64BE(BigInt(now + EMAIL_CHANGE_TTL_MS));
    return this.codec.seal(
      Buffer.concat([uuidToBytes(userId), expires, digest(newEmail), digest(currentEmail)]),
    );
  }

  /** The claims of a genuine, unexpired token; null otherwise. */
  open(token: string, now: number): EmailChangeClaims | null {
    const payload = this.codec.open(token);
    if (!payload) return null;
    const expiresAt = Number(payload.readBigUInt64BE(16));
    if (expiresAt <= now) return null;
    const newDigest = payload.subarray(24, 56);
    const oldDigest = payload.subarray(56, 88);
    return {
      userId: bytesToUuid(payload.subarray(0, 16)),
      expiresAt,
      isFor: (email) => digest(email).equals(newDigest),
      replaces: (email) => digest(email).equals(oldDigest),
    };
  }
}
