/**
 * Pure rules of SPEC section 8 (expired session) and section 2 (session-end redirect).
 * The side effects live in app/session-expiry-handler.ts.
 */

export const SESSION_EXPIRY_GUARD_MS = 2000;

const EXPIRED_MESSAGES = new Set(
  [
    'Authentication token missing. Please login.',
    'User not found',
    'Authentication failed',
    'jwt expired',
    'invalid token',
  ].map((message) => message.toLowerCase()),
);
const EXPIRED_MESSAGE_WORDS = ['token', 'authentication', 'unauthorized'];
const NETWORK_FAILURE =
  /network|failed to fetch|load failed|connection refused|econnrefused|host not found|enotfound|err_name_not_resolved|err_connection_refused/i;

export interface FailedRequest {
  /** The request URL or path. */
  url: string;
  /** HTTP status, or 0 when no response arrived. */
  status: number;
  /** The error text shown to people (server message or the exception's). */
  message: string;
  /** The parsed response body, if any. */
  body?: unknown;
  /** True when the request never reached the server (offline, refused, DNS failure). */
  networkError?: boolean;
}

function hasMsgField(body: unknown): boolean {
  return typeof body === 'object' && body !== null && 'msg' in body;
}

/** Whether a failed request means the session is gone (SPEC section 8). */
export function isSessionExpired(request: FailedRequest): boolean {
  if (request.url.includes('/paypal/')) return false;
  if (request.status === 400 && hasMsgField(request.body)) return false;
  if (request.networkError) return true;
  if (request.status === 401) return true;
  const message = request.message.trim().toLowerCase();
  if (!message) return false;
  if (request.status === 0 && NETWORK_FAILURE.test(message)) return true;
  if (EXPIRED_MESSAGES.has(message)) return true;
  return EXPIRED_MESSAGE_WORDS.some((word) => message.includes(word));
}

const STAY_EXACT = new Set([
  '/',
  '/login',
  '/register',
  '/forgot-password',
  '/auth/callback',
  '/privacy-policy',
  '/help',
  '/data-deletion',
]);

/**
 * Where a visitor goes when the session ends: null means "stay on this page" (SPEC section 2).
 * /reset-password/{token} stays as well.
 */
export function sessionEndRedirect(pathname: string): string | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (STAY_EXACT.has(path)) return null;
  if (path === '/reset-password' || path.startsWith('/reset-password/')) return null;
  return '/login';
}

/** A 2000 ms guard so a burst of failing calls handles the expiry once. */
export function createExpiryGuard(now: () => number = Date.now, windowMs = SESSION_EXPIRY_GUARD_MS) {
  let lastHandledAt = Number.NEGATIVE_INFINITY;
  return {
    /** True when the caller should handle the expiry now; records the time when it does. */
    tryEnter(): boolean {
      const time = now();
      if (time - lastHandledAt < windowMs) return false;
      lastHandledAt = time;
      return true;
    },
  };
}
