import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

declare module 'fastify' {
  interface RouteShorthandOptions {
    /** `false`: no document security headers on this route (media responses set their own `nosniff`). */
    helmet?: false;
  }
  interface FastifyContextConfig {
    securityHeaders?: false;
  }
}

/**
 * The headers helmet sets for these options, found once by running its middleware against a recording response.
 * With static options (no per-request CSP nonces) they are the same for every response.
 */
export function helmetHeaders(options: HelmetOptions): Array<[string, string]> {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value));
    },
    removeHeader(name: string) {
      headers.delete(name.toLowerCase());
    },
  };
  let failure: unknown = null;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    failure = error ?? null;
  });
  if (failure) throw failure;
  return [...headers];
}

/**
 * helmet's security headers on every response, computed once at start-up: @fastify/helmet rebuilds helmet's
 * middleware for every request (about 10% of the CPU of a small JSON answer). A route opts out with
 * `helmet: false`.
 */
export const securityHeaders = fp<HelmetOptions>(async (app: FastifyInstance, options) => {
  const headers = helmetHeaders(options);
  app.addHook('onRoute', (route) => {
    if (route.helmet === false) route.config = { ...route.config, securityHeaders: false };
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (request.routeOptions.config.securityHeaders !== false) {
      for (const [name, value] of headers) reply.header(name, value);
    }
    done();
  });
});
