import * as client from 'openid-client';
import { z } from 'zod';
import type { AuthProvider } from '@backbeat/contract';
import type { OidcProviderConfig } from '../../config';
import { notFound } from '../../platform/errors';
import type { AuthService, RequestMeta } from './auth.service';
import { FLOW_STATE_TTL_MS, FlowStateSealer } from './oidc-state';
import type { UserRow, UsersRepository } from './users.repository';

/** Any failure after the redirect: the route turns it into `/auth/callback?error=social_login_failed`. */
export class SocialLoginError extends Error {}

/**
 * The provider's e-mail belongs to an account this identity is not linked to. It is never linked on the e-mail
 * alone: whoever controls (or misconfigures) the issuer could then sign into any account, an admin's included. The
 * owner signs in with the password (or resets it by e-mail, which proves the address) instead.
 */
export class SocialAccountExistsError extends SocialLoginError {}

interface VerifiedIdentity {
  subject: string;
  email: string;
  name: string;
  picture: string | null;
}

const emailSchema = z.email();

/** Social sign-in through OpenID Connect (authorization code + PKCE, state and nonce) with openid-client. */
export class OidcService {
  private readonly configurations = new Map<string, Promise<client.Configuration>>();
  private readonly sealer: FlowStateSealer;

  constructor(
    private readonly deps: {
      providers: OidcProviderConfig[];
      publicUrl: string;
      secretKey: string;
      /** Plain-http issuers (the local test issuer) outside production only. */
      allowHttpIssuers: boolean;
      users: UsersRepository;
      auth: AuthService;
    },
  ) {
    this.sealer = new FlowStateSealer(deps.secretKey);
  }

  listProviders(): AuthProvider[] {
    return this.deps.providers.map(({ id, name, testMode }) => ({ id, name, ...(testMode && { testMode }) }));
  }

  requireProvider(id: string): OidcProviderConfig {
    const provider = this.deps.providers.find((candidate) => candidate.id === id);
    if (!provider) throw notFound('Sign-in provider not found', 'PROVIDER_NOT_FOUND');
    return provider;
  }

  /** The issuer's authorization URL, and the sealed flow state for the browser to keep meanwhile. */
  async startSignIn(providerId: string): Promise<{ authorizationUrl: string; flowState: string }> {
    const provider = this.requireProvider(providerId);
    const configuration = await this.configuration(provider);
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.redirectUri(provider.id),
      scope: 'openid email profile',
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    const flowState = this.sealer.seal({
      provider: provider.id,
      state,
      nonce,
      codeVerifier,
      expiresAt: Date.now() + FLOW_STATE_TTL_MS,
    });
    return { authorizationUrl: url.href, flowState };
  }

  /** Verifies the callback, finds, links or creates the account and opens a session. */
  async finishSignIn(
    providerId: string,
    callbackQuery: string,
    sealedFlowState: string | undefined,
    meta: RequestMeta,
  ): Promise<{ token: string; isNewUser: boolean }> {
    const provider = this.requireProvider(providerId);
    const flow = this.sealer.open(sealedFlowState);
    if (!flow || flow.provider !== provider.id)
      throw new SocialLoginError('sign-in state missing or expired');
    const configuration = await this.configuration(provider);
    const callbackUrl = new URL(this.redirectUri(provider.id));
    callbackUrl.search = callbackQuery;
    const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
      pkceCodeVerifier: flow.codeVerifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
    });
    const identity = await this.verifiedIdentity(configuration, tokens);
    const { user, isNewUser } = await this.findOrCreateUser(provider.id, identity);
    return { token: await this.deps.auth.openSession(user.id, meta), isNewUser };
  }

  private redirectUri(providerId: string) {
    return `${this.deps.publicUrl}/api/auth/${providerId}/callback`;
  }

  /** Discovery runs once per provider; a failed discovery is retried on the next sign-in. */
  private configuration(provider: OidcProviderConfig): Promise<client.Configuration> {
    let pending = this.configurations.get(provider.id);
    if (!pending) {
      const issuer = new URL(provider.issuer);
      const insecure = issuer.protocol === 'http:' && this.deps.allowHttpIssuers;
      pending = client.discovery(issuer, provider.clientId, provider.clientSecret, undefined, {
        timeout: 10,
        ...(insecure ? { execute: [client.allowInsecureRequests] } : {}),
      });
      this.configurations.set(provider.id, pending);
      pending.catch(() => this.configurations.delete(provider.id));
    }
    return pending;
  }

  /** The ID token's claims, completed from the userinfo endpoint when the e-mail is not in the token. */
  private async verifiedIdentity(
    configuration: client.Configuration,
    tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>,
  ): Promise<VerifiedIdentity> {
    const idToken = tokens.claims();
    if (!idToken) throw new SocialLoginError('no ID token');
    let claims: Record<string, unknown> = idToken;
    if (typeof claims.email !== 'string') {
      claims = {
        ...(await client.fetchUserInfo(configuration, tokens.access_token, idToken.sub)),
        sub: idToken.sub,
      };
    }
    const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
    const verified = claims.email_verified === true || claims.email_verified === 'true';
    if (!emailSchema.safeParse(email).success || email.length > 254)
      throw new SocialLoginError('no usable e-mail');
    if (!verified) throw new SocialLoginError('e-mail not verified by the provider');
    const name =
      typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim().slice(0, 100) : '';
    const picture =
      typeof claims.picture === 'string' && /^https:\/\//.test(claims.picture) ? claims.picture : null;
    return {
      subject: idToken.sub,
      email,
      name: name || email.split('@')[0]!.slice(0, 100),
      picture: picture && picture.length <= 2048 ? picture : null,
    };
  }

  private async findOrCreateUser(
    provider: string,
    identity: VerifiedIdentity,
  ): Promise<{ user: UserRow; isNewUser: boolean }> {
    const { users } = this.deps;
    const linked = await users.findByOauthAccount(provider, identity.subject);
    if (linked) return { user: linked, isNewUser: false };
    const link = { provider, subject: identity.subject, email: identity.email };
    const created = await users.createWithOauthAccount(
      {
        name: identity.name,
        email: identity.email,
        passwordHash: null,
        emailVerified: true,
        profileImage: identity.picture,
      },
      link,
    );
    if (created) return { user: created, isNewUser: true };
    // The e-mail already has an account that this identity is not linked to: refuse, never link by e-mail alone.
    throw new SocialAccountExistsError(`an account with this e-mail exists and is not linked to ${provider}`);
  }
}
