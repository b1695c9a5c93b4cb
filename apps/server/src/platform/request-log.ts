import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { stdSerializers } from 'pino';

const REDACTED = '[REDACTED]';
/** Query parameters that carry credentials: stream tokens, OAuth codes and tokens. */
const SECRET_QUERY = /([?&](?:token|code|access_token|id_token|refresh_token)=)[^&#]*/gi;
/**
 * Path segments that carry credentials: the password reset token, both in the API call
 * (/api/users/reset-password/<token>) and in the web page the mail links to (/reset-password/<token>).
 */
const SECRET_PATH = /(\/reset-password\/)[^/?#]+/i;

/** The request URL as it may be written to a log: credential values replaced, everything else kept. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PATH, `$1${REDACTED}`).replace(SECRET_QUERY, `$1${REDACTED}`);
}

/** Fastify's request log fields, with the URL redacted (stream tokens must never reach a log file). */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * Errors as they may be logged: a failed query's bound values (a password hash, an e-mail, a token) are left out.
 * Drizzle puts them in a `params` field and also into the message and the stack (`params: a,b,c`); both are cut,
 * at every level of the cause chain. The SQL text and the driver's message stay.
 */
export function serializeError(error: Error): Record<string, unknown> {
  const needles: string[] = [];
  for (let current: unknown = error, depth = 0; current && depth < 6; depth++) {
    const params = (current as { params?: unknown }).params;
    if (Array.isArray(params) && params.length > 0) needles.push(`params: ${params.map(String).join(',')}`);
    current = (current as { cause?: unknown }).cause;
  }
  const scrub = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') {
      return needles.reduce((text, needle) => text.split(needle).join('params: [REDACTED]'), value);
    }
    if (!value || typeof value !== 'object' || depth > 6) return value;
    if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1));
    const { params: _params, ...rest } = value as Record<string, unknown>;
    return Object.fromEntries(Object.entries(rest).map(([key, item]) => [key, scrub(item, depth + 1)]));
  };
  return scrub(stdSerializers.err(error), 0) as Record<string, unknown>;
}

/**
 * Requests answered by the first start's preparing gate (a page reloading itself every few seconds, 503s): logged
 * at debug, so they do not break the console's progress line.
 */
export const quietRequests = new WeakSet<FastifyRequest>();

/**
 * One access-log line per request, written when it ends (request, status, time; `request errored` with the error),
 * instead of Fastify's two (`incoming request` + `request completed`): every log line costs about as much CPU as
 * answering a small cached JSON request.
 */
export class AccessLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const fields = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...fields, err: error }, 'request errored');
    else if (quietRequests.has(request)) reply.log.debug(fields, 'request completed');
    else reply.log.info(fields, 'request completed');
  }
}
