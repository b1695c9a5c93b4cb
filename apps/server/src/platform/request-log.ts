import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

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
    else reply.log.info(fields, 'request completed');
  }
}
