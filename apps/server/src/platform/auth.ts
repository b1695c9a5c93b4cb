import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Role } from '@backbeat/contract';
import { forbidden, unauthorized } from './errors';
import type { ConfirmedSession, SessionCache } from './session-cache';
import { hashToken } from './session-token';

export interface AuthUser {
  id: string;
  email: string;
  name: string;
  role: Role;
  sessionId: string;
  /** When this session was opened; "recent sign-in" checks use it. */
  sessionCreatedAt: Date;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, or null for a guest. Resolved lazily, once per request. */
    getUser(): Promise<AuthUser | null>;
    /** True when the request carries no session token at all: a guest's, known at once without `getUser`. */
    knownGuest(): boolean;
  }
}

export const SESSION_COOKIE = 'token';
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

function tokenFrom(request: FastifyRequest): { token: string; viaCookie: boolean } | null {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) {
    const token = header.slice(7).trim();
    if (token) return { token, viaCookie: false };
  }
  const cookie = request.cookies[SESSION_COOKIE];
  return cookie ? { token: cookie, viaCookie: true } : null;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A state-changing request authenticated by cookie must come from our own origin, PUBLIC_URL's (SameSite=Lax covers
 * most browsers; this closes the rest). The Host header is not compared: it is whatever the client or a proxy in
 * front says, so an attacker's page reached under another name (a DNS-rebound or mistyped host) would pass as "same
 * origin" with it. Bearer-token clients are not exposed to CSRF and are not checked.
 */
function isCrossSite(request: FastifyRequest, allowedOrigins: Set<string>): boolean {
  const origin = request.headers.origin ?? refererOrigin(request.headers.referer);
  if (!origin) return false; // Non-browser clients send neither; browsers always send Origin on cross-site POSTs.
  return !allowedOrigins.has(origin);
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return 'invalid';
  }
}

/** Reads a session by its token's hash: the user, or null when unknown, revoked or expired (the auth module). */
export type SessionLoader = (tokenHash: string) => Promise<ConfirmedSession | null>;

/** `sessions` remembers confirmed sessions briefly; whatever ends a session must tell it (see SessionCache). */
export const authPlugin = fp<{ loadSession: SessionLoader; publicUrl: string; sessions: SessionCache }>(
  async (app, { loadSession, publicUrl, sessions: sessionCache }) => {
    const allowedOrigins = new Set([new URL(publicUrl).origin]);

    app.decorateRequest('getUser', function (this: FastifyRequest) {
      const cached = (this as unknown as { _user?: Promise<AuthUser | null> })._user;
      if (cached) return cached;
      const pending = resolveUser(this);
      (this as unknown as { _user?: Promise<AuthUser | null> })._user = pending;
      return pending;
    });

    app.decorateRequest('knownGuest', function (this: FastifyRequest) {
      return tokenFrom(this) === null;
    });

    async function resolveUser(request: FastifyRequest): Promise<AuthUser | null> {
      const found = tokenFrom(request);
      if (!found) return null;
      if (found.viaCookie && !SAFE_METHODS.has(request.method) && isCrossSite(request, allowedOrigins)) {
        throw forbidden('Cross-site request refused', 'CSRF');
      }
      const tokenHash = hashToken(found.token);
      return sessionCache.resolve(tokenHash, () => loadSession(tokenHash));
    }
  },
);

/** The signed-in user, or 401 with the message the web client treats as an expired session. */
export async function requireUser(request: FastifyRequest): Promise<AuthUser> {
  const hadToken = Boolean(request.headers.authorization || request.cookies[SESSION_COOKIE]);
  const user = await request.getUser();
  if (!user) {
    throw hadToken
      ? unauthorized('Authentication failed', 'SESSION_INVALID')
      : unauthorized('Authentication token missing. Please login.', 'UNAUTHENTICATED');
  }
  return user;
}

export async function requireRole(request: FastifyRequest, ...roles: Role[]): Promise<AuthUser> {
  const user = await requireUser(request);
  if (!roles.includes(user.role)) throw forbidden('You do not have permission to do this', 'FORBIDDEN_ROLE');
  return user;
}

/**
 * A script-readable flag holding no secret: it only tells the web app that a session cookie exists, so a guest's
 * start-up skips the profile check (which would answer 401) while the token itself stays HttpOnly.
 */
export const SESSION_HINT_COOKIE = 'bb_session';

export function setSessionCookie(reply: FastifyReply, token: string, secure: boolean) {
  const options = { sameSite: 'lax' as const, secure, path: '/', maxAge: Math.floor(SESSION_TTL_MS / 1000) };
  reply.setCookie(SESSION_COOKIE, token, { ...options, httpOnly: true });
  reply.setCookie(SESSION_HINT_COOKIE, '1', { ...options, httpOnly: false });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean) {
  reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', secure, path: '/' });
  reply.clearCookie(SESSION_HINT_COOKIE, { sameSite: 'lax', secure, path: '/' });
}

export type { FastifyInstance };
