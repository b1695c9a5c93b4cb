import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { isStorageFull, STORAGE_FULL } from './storage-full';
import { DATABASE_UNAVAILABLE, isDatabaseUnavailable } from './database-unavailable';

/** An error whose message is safe to show to the caller. */
export class AppError extends Error {
  /** When set (a rate limit), the answer carries `Retry-After` with this many seconds. */
  declare readonly retryAfterSeconds?: number;

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, code = 'BAD_REQUEST') => new AppError(400, code, message);
export const unauthorized = (
  message = 'Authentication token missing. Please login.',
  code = 'UNAUTHORIZED',
) => new AppError(401, code, message);
export const forbidden = (
  message = 'You do not have permission to do this',
  code = 'FORBIDDEN',
  extra = {},
) => new AppError(403, code, message, extra);
export const notFound = (message: string, code = 'NOT_FOUND') => new AppError(404, code, message);
export const conflict = (message: string, code = 'CONFLICT') => new AppError(409, code, message);

const statusCodes: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE',
  429: 'RATE_LIMITED',
};

function describeZodIssues(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>, where?: string) {
  const first = issues[0];
  if (!first) return 'Invalid request';
  const field = first.path.map(String).join('.');
  return field ? `${field}: ${first.message}` : `${where ? `${where}: ` : ''}${first.message}`;
}

/** The single error handler: every failure leaves as `{ message, code }` with the right status, never a stack. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError | ZodError, request, reply) => {
    if (error instanceof AppError) {
      // A 5xx the app chose (a gateway unreachable): the buyer reads the message, the log keeps what went wrong.
      if (error.status >= 500)
        request.log.error({ err: error.cause ?? error, code: error.code }, error.message);
      if (error.status === 413) drainRefusedBody(request, reply); // an upload over its limit
      if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
      return reply.status(error.status).send({ message: error.message, code: error.code, ...error.extra });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((v) => ({
        path: v.instancePath.split('/').filter(Boolean),
        message: v.message ?? 'is invalid',
      }));
      return reply
        .status(400)
        .send({ message: describeZodIssues(issues, error.validationContext), code: 'VALIDATION_ERROR' });
    }
    if (error instanceof ZodError) {
      return reply.status(400).send({ message: describeZodIssues(error.issues), code: 'VALIDATION_ERROR' });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return reply.status(500).send({ message: 'Internal server error', code: 'INTERNAL' });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ code: 'code' in error ? error.code : undefined }, 'database unavailable');
      return reply
        .status(DATABASE_UNAVAILABLE.status)
        .header('retry-after', String(DATABASE_UNAVAILABLE.retryAfterSec))
        .send({ message: DATABASE_UNAVAILABLE.message, code: DATABASE_UNAVAILABLE.code });
    }
    if (isStorageFull(error)) {
      request.log.error({ err: error }, 'storage full: an upload was refused');
      drainRefusedBody(request, reply); // the rest of the upload, so that the browser reads the answer
      return reply
        .status(STORAGE_FULL.status)
        .send({ message: STORAGE_FULL.message, code: STORAGE_FULL.code });
    }
    if (isMalformedMultipart(error)) {
      return reply.status(400).send({
        message: 'The upload form is incomplete or malformed. Please send it again.',
        code: 'MALFORMED_FORM',
      });
    }
    const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'unhandled error');
      return reply.status(500).send({ message: 'Internal server error', code: 'INTERNAL' });
    }
    // Fastify's own 4xx errors (bad JSON, body too large, unsupported content type, rate limit...).
    const code = statusCodes[status] ?? ('code' in error && error.code ? String(error.code) : 'ERROR');
    if (status === 413) drainRefusedBody(request, reply);
    return reply.status(status).send({ message: error.message, code });
  });
}

/** busboy's parse errors (a form cut short, a missing boundary, a broken part header) are the sender's fault. */
const MALFORMED_MULTIPART = [
  'Unexpected end of multipart data',
  'Unexpected end of form',
  'Multipart: Boundary not found',
  'Malformed part header',
  'Malformed urlencoded form',
];

function isMalformedMultipart(error: { message?: string; statusCode?: number }): boolean {
  if (typeof error.statusCode === 'number' && error.statusCode < 500) return false;
  return MALFORMED_MULTIPART.some((text) => error.message?.includes(text));
}

/** How much of a refused body is read and thrown away so that its sender gets the answer; beyond it, cut off. */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * Fastify answers a body over the limit with `Connection: close`: the socket closes while the client is still
 * uploading, and a browser reports a connection reset instead of the 413 and its message. Instead the rest of the
 * body is read and discarded (up to a limit, then the connection is cut), and the connection stays usable. The
 * same holds for an upload refused half-way because the disk is full (507).
 */
function drainRefusedBody(request: FastifyRequest, reply: FastifyReply) {
  const raw = request.raw;
  if (raw.complete || raw.destroyed) return;
  reply.removeHeader('connection');
  let discarded = 0;
  raw.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DRAIN_LIMIT_BYTES) raw.socket.destroy();
  });
  raw.resume();
}

export const apiNotFound = (method: string, url: string) => ({
  message: `Route ${method} ${url.split('?')[0]} not found`,
  code: 'NOT_FOUND',
});

/** Fastify's refusals before routing (`frameworkErrors`), in the app's `{ message, code }` shape. */
export function frameworkErrorReply(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  let answer: { status: number; message: string; code: string };
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    answer = { status: 414, message: 'A part of the address is too long', code: 'URI_TOO_LONG' };
  } else if (error.code === 'FST_ERR_BAD_URL') {
    answer = { status: 400, message: 'The address is not valid', code: 'BAD_URL' };
  } else {
    const status = typeof error.statusCode === 'number' && error.statusCode < 500 ? error.statusCode : 400;
    answer = { status, message: error.message, code: statusCodes[status] ?? 'BAD_REQUEST' };
  }
  void reply.status(answer.status).send({ message: answer.message, code: answer.code });
}
