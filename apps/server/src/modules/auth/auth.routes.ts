import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AuthResponse,
  DeleteAccountBody,
  ErrorResponse,
  ForgotPasswordBody,
  LoginBody,
  LogoutResponse,
  MeResponse,
  MessageResponse,
  RegisterBody,
  ResetPasswordBody,
  ResetPasswordParams,
} from '@backbeat/contract';
import { clearSessionCookie, requireUser, setSessionCookie } from '../../platform/auth';
import { errorAnswers, routeGroup } from '../../platform/route-docs';
import type { AccountService } from './account.service';
import type { AuthService } from './auth.service';
import { DEVICE_COOKIE, DEVICE_COOKIE_TTL_MS } from './device-cookie';
import type { PasswordResetService } from './password-reset.service';
import { requestMeta } from './request-meta';

export interface AuthRoutesOptions {
  auth: AuthService;
  resets: PasswordResetService;
  accounts: AccountService;
  secureCookies: boolean;
}

/**
 * Answers that carry an account's data or its session token: no cache (the browser's, a proxy's, a shared
 * computer's back button) may keep them.
 */
const PRIVATE_ANSWER = 'no-store';

/**
 * The device cookie goes only to the sign-in calls (its path), never to script (HttpOnly) or another site (Strict);
 * it outlives logout on purpose: it marks the browser, not a session.
 */
function setDeviceCookie(reply: FastifyReply, value: string, secure: boolean) {
  reply.setCookie(DEVICE_COOKIE, value, {
    httpOnly: true,
    sameSite: 'strict',
    secure,
    path: '/api/users',
    maxAge: Math.floor(DEVICE_COOKIE_TTL_MS / 1000),
  });
}

const route = routeGroup(['auth'], errorAnswers(400, 401, 403, 429));

/** Registration, sign-in, session, password reset and account deletion under /users. */
export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, options) => {
  const { auth, resets, accounts, secureCookies } = options;

  app.post(
    '/users/register',
    route(
      { summary: 'Create an account and sign in', body: RegisterBody },
      { 201: AuthResponse, 409: ErrorResponse },
    ),
    async (request, reply) => {
      const { user, token, deviceCookie } = await auth.register(request.body, requestMeta(request));
      setSessionCookie(reply, token, secureCookies);
      setDeviceCookie(reply, deviceCookie, secureCookies);
      reply.header('cache-control', PRIVATE_ANSWER);
      return reply.status(201).send({ message: 'Registered successfully', user, token });
    },
  );

  app.post(
    '/users/login',
    route({ summary: 'Sign in with e-mail and password', body: LoginBody }, { 200: AuthResponse }),
    async (request, reply) => {
      const { user, token, deviceCookie } = await auth.login(request.body, requestMeta(request));
      setSessionCookie(reply, token, secureCookies);
      setDeviceCookie(reply, deviceCookie, secureCookies);
      reply.header('cache-control', PRIVATE_ANSWER);
      return { message: 'Logged in successfully', user, token };
    },
  );

  app.get(
    '/users/me',
    route({ summary: 'The signed-in user' }, { 200: MeResponse }),
    async (request, reply) => {
      const me = await auth.me(await requireUser(request));
      reply.header('cache-control', PRIVATE_ANSWER);
      return me;
    },
  );

  app.post(
    '/users/logout',
    route({ summary: 'End this session' }, { 200: LogoutResponse }),
    async (request, reply) => {
      await auth.logout(await requireUser(request));
      clearSessionCookie(reply, secureCookies);
      return { message: 'Logged out successfully' };
    },
  );

  app.post(
    '/users/forgot-password',
    route(
      {
        summary: 'Mail a password reset link (same answer whether or not the account exists)',
        body: ForgotPasswordBody,
      },
      { 200: MessageResponse },
    ),
    async (request) => {
      await resets.requestReset(request.body.email, requestMeta(request));
      return { message: 'If an account exists for that email, a reset link has been sent.' };
    },
  );

  app.post(
    '/users/reset-password/:token',
    route(
      {
        summary: 'Set a new password with a mailed reset link; ends every session',
        params: ResetPasswordParams,
        body: ResetPasswordBody,
      },
      { 200: MessageResponse },
    ),
    async (request) => {
      await resets.resetPassword(request.params.token, request.body.password);
      return { message: 'Password has been reset. Please log in.' };
    },
  );

  app.delete(
    '/users/me',
    route(
      {
        summary: 'Delete the account and its personal data (orders stay, anonymised)',
        // Fastify hands an absent body over as null: social accounts may send none.
        body: DeleteAccountBody.nullish(),
      },
      { 200: MessageResponse },
    ),
    async (request, reply) => {
      await accounts.deleteAccount(await requireUser(request), request.body?.password);
      clearSessionCookie(reply, secureCookies);
      return { message: 'Your account and personal data have been deleted' };
    },
  );
};
