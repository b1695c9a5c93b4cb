import { isSessionExpired } from './session-expiry';

/**
 * The API client of SPEC section 7: root /api, credentials included, 300000 ms timeout, JSON.
 *
 * Hardening over the SPEC: the session lives only in the server's HttpOnly `token` cookie. This client never
 * reads, copies or sends the token itself (no localStorage token, no document.cookie, no Authorization header),
 * so a script injected into the page cannot steal the session.
 */

export const API_ROOT = '/api';
export const REQUEST_TIMEOUT_MS = 300_000;

export type ApiErrorCode = string;

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    /** HTTP status; 0 when no response arrived. */
    readonly status: number,
    message: string,
    readonly code: ApiErrorCode,
    /** The parsed response body (whatever the server sent), or null. */
    readonly body: unknown,
    readonly url: string,
    readonly networkError = false,
  ) {
    super(message);
  }
}

export type SessionExpiredHandler = (error: ApiError) => void;

let sessionExpiredHandler: SessionExpiredHandler | null = null;

/** The app installs what "session expired" does (clear, purge, logout, redirect); see app/session-expiry-handler. */
export function setSessionExpiredHandler(handler: SessionExpiredHandler | null): void {
  sessionExpiredHandler = handler;
}

type Query = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A plain value is sent as JSON; FormData is sent as multipart. */
  body?: unknown;
  query?: Query;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** A 401 here is an answer ("nobody is signed in"), not an expired session: SPEC section 8's handling is skipped. */
  unauthorizedIsAnswer?: boolean;
}

function readString(body: unknown, key: 'message' | 'msg' | 'error'): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[key];
  return typeof value === 'string' && value.trim() ? value : undefined;
}

/** The server's own text: `message`, else `msg`, else `error`. */
export function serverMessage(body: unknown): string | undefined {
  return readString(body, 'message') ?? readString(body, 'msg') ?? readString(body, 'error');
}

export function buildUrl(path: string, query?: Query): string {
  const base =
    path.startsWith('/api/') || path === '/api'
      ? path
      : `${API_ROOT}${path.startsWith('/') ? '' : '/'}${path}`;
  if (!query) return base;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${base}${base.includes('?') ? '&' : '?'}${search}` : base;
}

async function parseBody(response: Response): Promise<unknown> {
  if (response.status === 204) return null;
  const text = await response.text();
  if (!text) return null;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json') || /^[[{]/.test(text.trim())) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/** Applies the session-expiry rules of SPEC section 8 to a failed call; also used by the upload client. */
export function reportFailure(error: ApiError): ApiError {
  if (error.code === 'ABORTED' || error.code === 'TIMEOUT') return error;
  const expired = isSessionExpired({
    url: error.url,
    status: error.status,
    message: error.message,
    body: error.body,
    networkError: error.networkError,
  });
  if (expired) sessionExpiredHandler?.(error);
  return error;
}

const report = (options: RequestOptions, error: ApiError) =>
  options.unauthorizedIsAnswer && error.status === 401 ? error : reportFailure(error);

/** One API call. Resolves with the parsed JSON body; rejects with an ApiError. */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const url = buildUrl(path, options.query);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const forwardAbort = () => controller.abort();
  if (options.signal?.aborted) controller.abort();
  options.signal?.addEventListener('abort', forwardAbort, { once: true });

  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }

  let response: Response;
  try {
    response = await fetch(url, {
      method: options.method ?? 'GET',
      credentials: 'include',
      headers,
      body,
      signal: controller.signal,
    });
  } catch (cause) {
    if (timedOut) throw new ApiError(0, 'The request timed out. Please try again.', 'TIMEOUT', null, url);
    if (controller.signal.aborted) throw new ApiError(0, 'The request was cancelled.', 'ABORTED', null, url);
    const reason = cause instanceof Error && cause.message ? ` (${cause.message})` : '';
    throw report(
      options,
      new ApiError(
        0,
        `Network error: the server could not be reached${reason}`,
        'NETWORK_ERROR',
        null,
        url,
        true,
      ),
    );
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', forwardAbort);
  }

  let parsed: unknown;
  try {
    parsed = await parseBody(response);
  } catch {
    parsed = null;
  }
  if (!response.ok) {
    const code =
      typeof parsed === 'object' && parsed !== null && typeof (parsed as { code?: unknown }).code === 'string'
        ? (parsed as { code: string }).code
        : `HTTP_${response.status}`;
    const message = serverMessage(parsed) ?? `Request failed with status ${response.status}`;
    throw report(options, new ApiError(response.status, message, code, parsed, url));
  }
  return parsed as T;
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'DELETE', body }),
};

/**
 * Text for people: the server's message when the server answered with one, else the given fallback
 * (the SPEC section 8 fallback texts).
 */
export function errorText(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return serverMessage(error.body) ?? fallback;
  if (typeof error === 'object' && error !== null && 'body' in error) {
    return serverMessage((error as { body: unknown }).body) ?? fallback;
  }
  return fallback;
}
