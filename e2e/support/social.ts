import { inject } from 'vitest';
import type { SocialIdentity } from './oidc-issuer';

/** Sets who the local OIDC issuer signs in on the next "Continue with Google". */
export async function setSocialIdentity(identity: SocialIdentity): Promise<void> {
  const res = await fetch(`${inject('oidcControlUrl')}/identity`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(identity),
  });
  if (res.status !== 204) throw new Error(`the local issuer refused the identity (${res.status})`);
}
