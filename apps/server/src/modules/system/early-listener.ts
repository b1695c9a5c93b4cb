import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyServerOptions } from 'fastify';
import { waitingPage } from './waiting-page';

/** Seconds between the starting page's reloads (and the 503s' Retry-After). */
const STARTING_RETRY_AFTER_SEC = 2;

export const STARTING = 'STARTING';

/** What the page says while the database opens. */
export interface StartingState {
  step: string;
}

/**
 * The port, taken as the process starts: opening a fresh embedded database (PGlite's initdb in WebAssembly) and
 * migrating it takes seconds on a quiet machine and up to half a minute on a busy one, and a browser pointed at
 * the address should meet a page saying so rather than a refused connection. Until the app exists every page is
 * "Starting Backbeat" (reloading itself) and every API call a 503 `STARTING` with Retry-After; then `serverFactory`
 * gives this same server to Fastify and `handOver()` switches its requests to the app, without a moment closed.
 */
/** How long a shutdown lets requests in flight finish (under the 30 s an orchestrator usually waits). */
export const SHUTDOWN_GRACE_MS = 20_000;

export async function listenEarly(options: { port: number; host: string; state: StartingState }) {
  const answerStarting = (request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const headers = {
      'cache-control': 'no-store',
      'retry-after': String(STARTING_RETRY_AFTER_SEC),
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    };
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !path.startsWith('/api') &&
      !/\.[a-z0-9]+$/i.test(path);
    if (isPage) {
      response.writeHead(503, { ...headers, 'content-type': 'text/html; charset=utf-8' });
      response.end(
        request.method === 'HEAD'
          ? undefined
          : waitingPage({
              title: 'Starting',
              headline: 'Starting Backbeat',
              step: options.state.step,
              note: 'The server is getting ready. This page reloads by itself and opens Backbeat when it can.',
              refreshSec: STARTING_RETRY_AFTER_SEC,
            }),
      );
    } else {
      response.writeHead(503, { ...headers, 'content-type': 'application/json; charset=utf-8' });
      response.end(
        JSON.stringify({
          message: `Backbeat is starting (${options.state.step}); try again in a moment.`,
          code: STARTING,
        }),
      );
    }
    // Drain whatever body came with it, so the connection stays usable.
    request.resume();
  };

  const server = http.createServer(answerStarting);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });

  let appHandler: http.RequestListener | null = null;
  const serverFactory: NonNullable<FastifyServerOptions['serverFactory']> = (handler, fastifyOptions) => {
    appHandler = handler as http.RequestListener;
    // What Fastify sets on a server it creates itself (its resolved options carry its defaults).
    const settings = fastifyOptions as {
      keepAliveTimeout?: number;
      requestTimeout?: number;
      connectionTimeout?: number;
    };
    if (settings.keepAliveTimeout !== undefined) server.keepAliveTimeout = settings.keepAliveTimeout;
    if (settings.requestTimeout !== undefined) server.requestTimeout = settings.requestTimeout;
    server.setTimeout(settings.connectionTimeout ?? 0);
    return server;
  };

  return {
    server,
    serverFactory,
    /** From now on the app answers (call after `app.ready()`). */
    handOver() {
      if (!appHandler) throw new Error('the app was not built with this serverFactory');
      server.off('request', answerStarting);
      server.on('request', appHandler);
    },
    /**
     * Stops listening and ends idle connections at once; requests in flight get `graceMs` to finish, then every
     * connection left is closed. Without the bound, a connection that had sent part of a request (or nothing yet)
     * held the shutdown until the server's 60 s headers timeout, past an orchestrator's usual 30 s before SIGKILL.
     */
    close: (graceMs = SHUTDOWN_GRACE_MS) =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        server.closeIdleConnections();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
      }),
  };
}
