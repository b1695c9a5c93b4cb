import { randomBytes } from 'node:crypto';
import { bytesToUuid, SignedTokenCodec, uuidToBytes } from '../../platform/signed-token';

/** The cookie that marks a browser where an account signed in with its password before. */
export const DEVICE_COOKIE = 'device';
/** How long a device stays trusted after its last successful sign-in. */
export const DEVICE_COOKIE_TTL_MS = 180 * 24 * 60 * 60 * 1000;

/** user id (16 bytes) + nonce (16 bytes) + issued at (epoch seconds, 8 bytes). */
const PAYLOAD_BYTES = 40;

export interface DeviceClaims {
  userId: string;
  /** Tells this cookie apart from the account's other devices: its failures are counted under it. */
  nonce: string;
  issuedAt: number;
}

/**
 * OWASP's device cookies ("Slow Down Online Guessing Attacks with Device Cookies", linked from its Blocking Brute
 * Force Attacks page): a successful password sign-in leaves a signed cookie naming the account; a later sign-in that
 * carries it is the owner's browser and is limited per device, so strangers guessing the account's password from
 * any number of other addresses cannot lock the owner out. Signed with a key derived from SECRET_KEY for this
 * purpose only; nothing is stored server-side.
 */
export class DeviceCookies {
  private readonly codec: SignedTokenCodec;

  constructor(secretKey: string) {
    this.codec = new SignedTokenCodec(secretKey, 'device', PAYLOAD_BYTES);
  }

  issue(userId: string, now: number): string {
    const payload = Buffer.alloc(PAYLOAD_BYTES);
    uuidToBytes(userId).copy(payload, 0);
    randomBytes(16).copy(payload, 16);
    payload.writeBigUInt64BE(BigInt(Math.floor(now / 1000)), 32);
    return this.codec.seal(payload);
  }

  /** The claims of a genuine cookie issued within DEVICE_COOKIE_TTL_MS of `now`; null otherwise. */
  open(value: string | undefined, now: number): DeviceClaims | null {
    const payload = this.codec.open(value);
    if (!payload) return null;
    const issuedAt = Number(payload.readBigUInt64BE(32)) * 1000;
    if (issuedAt > now + 60_000 || now - issuedAt > DEVICE_COOKIE_TTL_MS) return null;
    return {
      userId: bytesToUuid(payload.subarray(0, 16)),
      nonce: payload.subarray(16, 32).toString('hex'),
      issuedAt,
    };
  }
}
