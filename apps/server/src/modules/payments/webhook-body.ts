import type { FastifyRequest } from 'fastify';

/** Webhook bodies larger than this are not events from a gateway. */
export const WEBHOOK_BODY_LIMIT = 512 * 1024;

/**
 * The parser options of every webhook route: the raw bytes, and at most WEBHOOK_BODY_LIMIT of them (413 beyond,
 * instead of buffering the app's general 1 MiB limit from anyone who can reach the URL).
 */
export const WEBHOOK_BODY = { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT } as const;

/**
 * A content-type parser that keeps the body as the exact bytes received: gateways sign those bytes, and parsing and
 * re-serialising JSON would change them. Register it in the webhook route's own plugin scope only.
 */
export function rawBodyParser(
  _request: FastifyRequest,
  body: Buffer | string,
  done: (error: Error | null, body?: unknown) => void,
): void {
  done(null, Buffer.isBuffer(body) ? body : Buffer.from(body));
}
