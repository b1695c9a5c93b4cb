/**
 * Whether an error means the database cannot be reached right now (stopped, restarting, unreachable), as opposed
 * to a bad query. Such failures answer 503 with a message instead of 500: the client may retry, and the server
 * recovers by itself when the database returns (the pool replaces broken connections).
 */

/** SQLSTATE classes and codes of an unavailable server: 08 connection exception, 57P01-57P03 shutdown/startup. */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
const UNAVAILABLE_NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Connection closed',
];

export const DATABASE_UNAVAILABLE = {
  status: 503,
  code: 'DATABASE_UNAVAILABLE',
  message: 'Backbeat cannot reach its database right now. Please try again in a moment.',
  retryAfterSec: 5,
} as const;

export function isDatabaseUnavailable(error: unknown): boolean {
  // Drivers and the ORM wrap the socket error: walk the cause chain (bounded, in case of a cycle).
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current && typeof current === 'object'; depth++) {
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string') {
      if (UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08') || UNAVAILABLE_NETWORK_CODES.has(code)) {
        return true;
      }
    }
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((text) => message.includes(text)))
      return true;
    current = cause;
  }
  return false;
}
