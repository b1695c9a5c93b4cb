import { ApiError, REQUEST_TIMEOUT_MS, buildUrl, reportFailure, serverMessage } from '../../lib/api';

/** How far a multipart upload has got, overall and per file field (each 0..1). */
export interface UploadProgress {
  loaded: number;
  total: number;
  /** 0..1 for the whole request. */
  fraction: number;
  /** 0..1 for each file field in the form, by field name. */
  files: Record<string, number>;
}

export interface UploadRequest {
  /** API path, e.g. `/songs` or `/songs/:id`. */
  url: string;
  method: 'POST' | 'PUT';
  form: FormData;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Injected in tests; the browser's XMLHttpRequest otherwise. */
  createRequest?: () => XMLHttpRequest;
}

/** The non-empty files of a form in the order the browser sends them. */
function filesOf(form: FormData): Array<{ field: string; size: number }> {
  const files: Array<{ field: string; size: number }> = [];
  form.forEach((value, field) => {
    if (typeof value !== 'string' && value.size > 0) files.push({ field, size: value.size });
  });
  return files;
}

/**
 * Splits the request's byte count over the files. The text fields go first (see `buildForm`), so everything
 * before the files is the overhead `total - sum(sizes)` (boundaries and text fields, a few hundred bytes).
 */
export function fileProgress(
  files: ReadonlyArray<{ field: string; size: number }>,
  loaded: number,
  total: number,
): Record<string, number> {
  const sizes = files.reduce((sum, file) => sum + file.size, 0);
  let offset = Math.max(0, total - sizes);
  const progress: Record<string, number> = {};
  for (const file of files) {
    const sent = loaded - offset;
    progress[file.field] = file.size === 0 ? 1 : Math.min(1, Math.max(0, sent / file.size));
    offset += file.size;
  }
  return progress;
}

function parseBody(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function errorCode(body: unknown, status: number): string {
  const code = typeof body === 'object' && body !== null ? (body as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : `HTTP_${status}`;
}

/**
 * A multipart upload with progress (fetch cannot report upload progress). Same contract as `apiRequest`: the
 * session cookie is sent, a 300000 ms timeout applies, it resolves with the parsed JSON body and rejects with an
 * `ApiError` carrying the server's `{ message, code }`.
 */
export function uploadRequest<T>(request: UploadRequest): Promise<T> {
  const url = buildUrl(request.url);
  const files = filesOf(request.form);
  return new Promise<T>((resolve, reject) => {
    const xhr = request.createRequest?.() ?? new XMLHttpRequest();
    const fail = (error: ApiError) => {
      request.signal?.removeEventListener('abort', onAbort);
      reject(error);
    };
    const onAbort = () => xhr.abort();

    xhr.open(request.method, url);
    xhr.withCredentials = true;
    xhr.timeout = request.timeoutMs ?? REQUEST_TIMEOUT_MS;
    xhr.setRequestHeader('Accept', 'application/json');

    xhr.upload.onprogress = (event) => {
      if (!event.lengthComputable || event.total <= 0) return;
      request.onProgress?.({
        loaded: event.loaded,
        total: event.total,
        fraction: Math.min(1, event.loaded / event.total),
        files: fileProgress(files, event.loaded, event.total),
      });
    };
    xhr.onload = () => {
      request.signal?.removeEventListener('abort', onAbort);
      const body = parseBody(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(body as T);
        return;
      }
      const message = serverMessage(body) ?? `Request failed with status ${xhr.status}`;
      // The same session-expiry rules as every other call (a 401 on an upload ends the session).
      reject(reportFailure(new ApiError(xhr.status, message, errorCode(body, xhr.status), body, url)));
    };
    xhr.onerror = () =>
      fail(
        reportFailure(
          new ApiError(0, 'Network error: the server could not be reached', 'NETWORK_ERROR', null, url, true),
        ),
      );
    xhr.ontimeout = () =>
      fail(new ApiError(0, 'The request timed out. Please try again.', 'TIMEOUT', null, url));
    xhr.onabort = () => fail(new ApiError(0, 'The upload was cancelled.', 'ABORTED', null, url));

    if (request.signal?.aborted) {
      fail(new ApiError(0, 'The upload was cancelled.', 'ABORTED', null, url));
      return;
    }
    request.signal?.addEventListener('abort', onAbort, { once: true });
    xhr.send(request.form);
  });
}
