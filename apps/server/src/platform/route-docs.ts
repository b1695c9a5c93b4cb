/** Route options for groups of routes that share tags, error answers and hooks (guards, caching). */
import { ErrorResponse } from '@backbeat/contract';

type ErrorAnswers<S extends readonly number[]> = { [K in S[number]]: typeof ErrorResponse };

/** `{ 400: ErrorResponse, 401: ErrorResponse, ... }` for the statuses given. */
export function errorAnswers<const S extends readonly number[]>(...statuses: S): ErrorAnswers<S> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorResponse])) as ErrorAnswers<S>;
}

/** What one route documents besides its tags and answers. */
interface RouteParts {
  summary?: string;
  consumes?: string[];
  params?: unknown;
  querystring?: unknown;
  body?: unknown;
}

/**
 * A maker of route options for routes that share their tags, error answers and hooks:
 * `route({ summary, querystring: Query }, { 200: Answer })` gives
 * `{ ...hooks, schema: { tags, summary, querystring: Query, response: { 200: Answer, ...errors } } }`.
 */
export function routeGroup<E extends object, H extends object = object>(
  tags: string[],
  errors: E,
  hooks?: H,
) {
  return <P extends RouteParts, A extends object>(parts: P, answers: A) => ({
    ...(hooks as H),
    schema: { tags, ...parts, response: { ...answers, ...errors } },
  });
}
