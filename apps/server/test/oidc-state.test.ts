import { describe, expect, it } from 'vitest';
import { FlowStateSealer, type OidcFlowState } from '../src/modules/auth/oidc-state';

const state: OidcFlowState = {
  provider: 'google',
  state: 'state-value',
  nonce: 'nonce-value',
  codeVerifier: 'verifier-value',
  expiresAt: Date.now() + 60_000,
};

describe('OIDC flow-state cookie', () => {
  const sealer = new FlowStateSealer('a-secret-key-that-is-long-enough-for-tests-0123');

  it('round-trips and hides the PKCE verifier', () => {
    const sealed = sealer.seal(state);
    expect(sealed).not.toContain('verifier');
    expect(Buffer.from(sealed, 'base64url').toString('latin1')).not.toContain('verifier-value');
    expect(sealer.open(sealed)).toEqual(state);
  });

  it('refuses a tampered, foreign-key, expired, truncated or missing value', () => {
    const sealed = sealer.seal(state);
    const raw = Buffer.from(sealed, 'base64url');
    raw[raw.length - 1]! ^= 1;
    expect(sealer.open(raw.toString('base64url'))).toBeNull();
    expect(new FlowStateSealer('another-secret-key-that-is-long-enough-0123456').open(sealed)).toBeNull();
    expect(sealer.open(sealed, state.expiresAt + 1)).toBeNull();
    expect(sealer.open(sealed.slice(0, 20))).toBeNull();
    expect(sealer.open('not base64 at all!')).toBeNull();
    expect(sealer.open(undefined)).toBeNull();
  });
});
