import { createApi, type BaseQueryFn } from '@reduxjs/toolkit/query/react';
import { ApiError, apiRequest, serverMessage, type RequestOptions } from './api';

/** What a query's `error` holds: serialisable, with the server body kept for the page's message. */
export interface QueryError {
  status: number;
  code: string;
  message: string;
  body: unknown;
}

export type QueryArgs =
  | string
  | { url: string; method?: RequestOptions['method']; body?: unknown; query?: RequestOptions['query'] };

/** RTK Query over the one API client, so every query shares its timeout and session-expiry handling. */
export const apiBaseQuery: BaseQueryFn<QueryArgs, unknown, QueryError> = async (args, { signal }) => {
  const request = typeof args === 'string' ? { url: args } : args;
  try {
    const data = await apiRequest<unknown>(request.url, {
      method: request.method,
      body: request.body,
      query: request.query,
      signal,
    });
    return { data };
  } catch (error) {
    if (error instanceof ApiError) {
      return { error: { status: error.status, code: error.code, message: error.message, body: error.body } };
    }
    return { error: { status: 0, code: 'UNKNOWN', message: String(error), body: null } };
  }
};

/** The one RTK Query API; features add their endpoints with `backbeatApi.injectEndpoints`. */
export const backbeatApi = createApi({
  reducerPath: 'api',
  baseQuery: apiBaseQuery,
  // Artists, Albums, Songs: catalogue reads, invalidated by the studio's writes. SubscriberCount: one artist's
  // subscriber figures, dropped when that artist is deleted.
  tagTypes: [
    'Purchases',
    'LikedSongs',
    'Subscriptions',
    'Artists',
    'Albums',
    'Songs',
    'Dashboard',
    'SubscriberCount',
    'PaymentsHealth',
  ],
  endpoints: () => ({}),
});

/**
 * The thing asked for by id does not exist: 404, or 400 for an id that cannot be one (a mistyped link). Asking
 * again cannot help, so pages say "not found" once, without a retry.
 */
export function isMissingResource(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('status' in error)) return false;
  const { status, code } = error as QueryError;
  return status === 404 || (status === 400 && code === 'VALIDATION_ERROR');
}

/** The server's message for a failed query, else the SPEC section 8 fallback. */
export function queryErrorText(error: unknown, fallback: string): string {
  if (typeof error === 'object' && error !== null && 'body' in error) {
    return serverMessage((error as QueryError).body) ?? fallback;
  }
  return fallback;
}
