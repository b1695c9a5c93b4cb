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
 * The headers an API answer (JSON, a key, a playlist) needs, from the document set: OWASP's REST guidance
 * (nosniff, frame-ancestors 'none', no framing, no referrer, HSTS when on) with a CSP that allows nothing, since
 * an API answer is never a document. The document-only ones (script and style sources, COOP, DNS prefetch,
 * download options, cross-domain policies, the XSS auditor switch, origin clustering) are left to pages: every
 * header costs each answer its bytes and Node's per-header validation.
 */
export function apiHeaders(documentHeaders: Array<[string, string]>): Array<[string, string]> {
  const keep = new Set([
    'x-content-type-options',
    'referrer-policy',
    'cross-origin-resource-policy',
    'strict-transport-security',
  ]);
  return [
    ['content-security-policy', "default-src 'none'; frame-ancestors 'none'"],
    ['x-frame-options', 'DENY'],
    ...documentHeaders.filter(([name]) => keep.has(name)),
  ];
}

/** API answers: everything under /api except the Swagger UI pages (documents, with their scripts and styles). */
const isApiAnswer = (url: string) => url.startsWith('/api/') && !url.startsWith('/api/docs');

/**
 * helmet's security headers on every response, computed once at start-up: @fastify/helmet rebuilds helmet's
 * middleware for every request (about 10% of the CPU of a small JSON answer). Pages get the full set; API answers
 * the part that applies to them (`apiHeaders`). A route opts out with `helmet: false`.
 */
export const securityHeaders = fp<HelmetOptions>(async (app: FastifyInstance, options) => {
  const headers = helmetHeaders(options);
  const forApi = apiHeaders(headers);
  app.addHook('onRoute', (route) => {
    if (route.helmet === false) route.config = { ...route.config, securityHeaders: false };
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (request.routeOptions.config.securityHeaders !== false) {
      for (const [name, value] of isApiAnswer(request.url) ? forApi : headers) reply.header(name, value);
    }
    done();
  });
});
