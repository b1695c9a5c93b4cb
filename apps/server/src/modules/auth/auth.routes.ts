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
import type { AccountService } from './account.service';
import type { AuthService } from './auth.service';
import type { PasswordResetService } from './password-reset.service';
import { requestMeta } from './request-meta';

export interface AuthRoutesOptions {
  auth: AuthService;
  resets: PasswordResetService;
  accounts: AccountService;
  secureCookies: boolean;
}

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 429: ErrorResponse };

/** Registration, sign-in, session, password reset and account deletion under /users. */
export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, options) => {
  const { auth, resets, accounts, secureCookies } = options;
  const tags = ['auth'];

  app.post(
    '/users/register',
    {
      schema: {
        tags,
        summary: 'Create an account and sign in',
        body: RegisterBody,
        response: { 201: AuthResponse, 409: ErrorResponse, ...errors },
      },
    },
    async (request, reply) => {
      const { user, token } = await auth.register(request.body, requestMeta(request));
      setSessionCookie(reply, token, secureCookies);
      return reply.status(201).send({ message: 'Registered successfully', user, token });
    },
  );

  app.post(
    '/users/login',
    {
      schema: {
        tags,
        summary: 'Sign in with e-mail and password',
        body: LoginBody,
        response: { 200: AuthResponse, ...errors },
      },
    },
    async (request, reply) => {
      const { user, token } = await auth.login(request.body, requestMeta(request));
      setSessionCookie(reply, token, secureCookies);
      return { message: 'Logged in successfully', user, token };
    },
  );

  app.get(
    '/users/me',
    { schema: { tags, summary: 'The signed-in user', response: { 200: MeResponse, ...errors } } },
    async (request) => auth.me(await requireUser(request)),
  );

  app.post(
    '/users/logout',
    { schema: { tags, summary: 'End this session', response: { 200: LogoutResponse, ...errors } } },
    async (request, reply) => {
      await auth.logout(await requireUser(request));
      clearSessionCookie(reply, secureCookies);
      return { message: 'Logged out successfully' };
    },
  );

  app.post(
    '/users/forgot-password',
    {
      schema: {
        tags,
        summary: 'Mail a password reset link (same answer whether or not the account exists)',
        body: ForgotPasswordBody,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request) => {
      await resets.requestReset(request.body.email, requestMeta(request));
      return { message: 'If an account exists for that email, a reset link has been sent.' };
    },
  );

  app.post(
    '/users/reset-password/:token',
    {
      schema: {
        tags,
        summary: 'Set a new password with a mailed reset link; ends every session',
        params: ResetPasswordParams,
        body: ResetPasswordBody,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request) => {
      await resets.resetPassword(request.params.token, request.body.password);
      return { message: 'Password has been reset. Please log in.' };
    },
  );

  app.delete(
    '/users/me',
    {
      schema: {
        tags,
        summary: 'Delete the account and its personal data (orders stay, anonymised)',
        // Fastify hands an absent body over as null: social accounts may send none.
        body: DeleteAccountBody.nullish(),
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request, reply) => {
      await accounts.deleteAccount(await requireUser(request), request.body?.password);
      clearSessionCookie(reply, secureCookies);
      return { message: 'Your account and personal data have been deleted' };
    },
  );
};
