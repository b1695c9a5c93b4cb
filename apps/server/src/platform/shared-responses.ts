import type { FastifyInstance } from 'fastify';
import { ErrorResponse } from '@backbeat/contract';

/**
 * Answers any route may give whatever its handler does, documented once here so that the OpenAPI document lists
 * every status a route can answer:
 * - 400 INVALID_TEXT from the text check (NUL, unpaired surrogates: platform/text-input.ts), on every route, since
 *   any request may carry a query string;
 * - 414 when a path parameter is longer than the router accepts (`maxParamLength`), on routes with parameters;
 * - 415 when a body comes in a content type the route does not read, on every method that carries a body;
 * - 503 DATABASE_UNAVAILABLE, on every route (sessions are looked up in the database too).
 * Register before the routes: `onRoute` only sees routes added after it.
 */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function documentSharedResponses(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    const schema = route.schema as
      { response?: Record<string, unknown>; hide?: boolean; params?: unknown; body?: unknown } | undefined;
    if (!schema?.response || schema.hide) return;
    const response = { ...schema.response };
    const add = (status: string) => {
      if (!(status in response)) response[status] = ErrorResponse;
    };
    add('400');
    if (route.url.includes(':') || route.url.includes('*')) add('414');
    const methods = ([] as string[]).concat(route.method);
    if (schema.body || methods.some((method) => BODY_METHODS.has(method))) add('415');
    add('503');
    route.schema = { ...schema, response };
  });
}
