import type { FastifyRequest } from 'fastify';

/** Webhook bodies larger than this are not events from a gateway. */
export const WEBHOOK_BODY_LIMIT = 512 * 1024;

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
