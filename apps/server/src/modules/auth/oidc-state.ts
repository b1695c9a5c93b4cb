import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** What the browser carries between the redirect to the issuer and the callback. */
export interface OidcFlowState {
  provider: string;
  state: string;
  nonce: string;
  codeVerifier: string;
  /** Epoch milliseconds after which the callback is refused. */
  expiresAt: number;
}

export const FLOW_STATE_TTL_MS = 10 * 60 * 1000;

/**
 * The flow state travels in an HttpOnly cookie sealed with AES-256-GCM: authenticated (it cannot be forged or
 * altered) and encrypted (the PKCE verifier stays unreadable). The key is derived from SECRET_KEY.
 */
export class FlowStateSealer {
  private readonly key: Buffer;

  constructor(secretKey: string) {
    this.key = Buffer.from(hkdfSync('sha256', secretKey, 'backbeat', 'oidc flow state', 32));
  }

  seal(state: OidcFlowState): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(JSON.stringify(state), 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  /** The state, or null when missing, tampered with, or expired. */
  open(sealed: string | undefined, now = Date.now()): OidcFlowState | null {
    if (!sealed) return null;
    try {
      const raw = Buffer.from(sealed, 'base64url');
      if (raw.length < 29) return null;
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
      const state = JSON.parse(text) as OidcFlowState;
      return typeof state.expiresAt === 'number' && state.expiresAt > now ? state : null;
    } catch {
      return null;
    }
  }
}
