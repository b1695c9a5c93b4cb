import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AuthProviderParams, AuthProvidersResponse, ErrorResponse } from '@backbeat/contract';
import { setSessionCookie } from '../../platform/auth';
import { FLOW_STATE_TTL_MS } from './oidc-state';
import { SocialAccountExistsError, type OidcService } from './oidc.service';
import { requestMeta } from './request-meta';

const FLOW_COOKIE = 'oidc_flow';

export interface OidcRoutesOptions {
  oidc: OidcService;
  publicUrl: string;
  secureCookies: boolean;
}

/** Social sign-in: /auth/providers, /auth/:provider (to the issuer) and /auth/:provider/callback (back). */
export const oidcRoutes: FastifyPluginAsyncZod<OidcRoutesOptions> = async (
  app,
  { oidc, publicUrl, secureCookies },
) => {
  const tags = ['auth'];
  // Lax: the cookie must come back on the issuer's top-level redirect to the callback.
  const flowCookie = { httpOnly: true, sameSite: 'lax' as const, secure: secureCookies, path: '/api/auth' };
  const landing = (query: string) => `${publicUrl}/auth/callback${query}`;
  /** The options of a route under /auth/:provider: a provider that is not configured answers 404. */
  const providerRoute = (summary: string) => ({
    schema: { tags, summary, params: AuthProviderParams, response: { 404: ErrorResponse } },
  });

  app.get(
    '/auth/providers',
    {
      schema: {
        tags,
        summary: 'Configured social sign-in providers',
        response: { 200: AuthProvidersResponse },
      },
    },
    () => ({ providers: oidc.listProviders() }),
  );

  app.get(
    '/auth/:provider',
    providerRoute('Start social sign-in (302 to the provider)'),
    async (request, reply) => {
      oidc.requireProvider(request.params.provider);
      try {
        const { authorizationUrl, flowState } = await oidc.startSignIn(request.params.provider);
        reply.setCookie(FLOW_COOKIE, flowState, { ...flowCookie, maxAge: FLOW_STATE_TTL_MS / 1000 });
        return reply.redirect(authorizationUrl);
      } catch (error) {
        request.log.warn({ err: error }, 'social sign-in could not start');
        return reply.redirect(landing('?error=social_login_failed'));
      }
    },
  );

  app.get(
    '/auth/:provider/callback',
    providerRoute('Provider callback: opens a session, then 302 to /auth/callback'),
    async (request, reply) => {
      oidc.requireProvider(request.params.provider);
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      reply.clearCookie(FLOW_COOKIE, flowCookie);
      try {
        const { token, isNewUser } = await oidc.finishSignIn(
          request.params.provider,
          query,
          request.cookies[FLOW_COOKIE],
          requestMeta(request),
        );
        setSessionCookie(reply, token, secureCookies);
        return reply.redirect(landing(isNewUser ? '?new=1' : ''));
      } catch (error) {
        request.log.warn({ err: error }, 'social sign-in failed');
        const reason = error instanceof SocialAccountExistsError ? 'account_exists' : 'social_login_failed';
        return reply.redirect(landing(`?error=${reason}`));
      }
    },
  );
};
