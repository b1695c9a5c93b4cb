// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, REQUEST_TIMEOUT_MS, api, apiRequest, errorText, setSessionExpiredHandler } from './api';

function jsonResponse(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

describe('apiRequest', () => {
  const fetchMock = vi.fn<typeof fetch>();
  const expired = vi.fn();

  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    setSessionExpiredHandler(expired);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
    fetchMock.mockReset();
    expired.mockReset();
    setSessionExpiredHandler(null);
  });

  it('calls /api with credentials and JSON, and never sends an Authorization header', async () => {
    localStorage.setItem('token', 'should-never-be-sent');
    fetchMock.mockResolvedValue(jsonResponse(200, { ok: true }));
    await expect(api.post('/users/login', { email: 'a@b.c', password: 'x' })).resolves.toEqual({ ok: true });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/users/login');
    expect(init?.credentials).toBe('include');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe(JSON.stringify({ email: 'a@b.c', password: 'x' }));
    const headers = init?.headers as Record<string, string>;
    expect(headers['Content-Type']).toBe('application/json');
    expect(Object.keys(headers).map((name) => name.toLowerCase())).not.toContain('authorization');
    localStorage.clear();
  });

  it('adds query parameters and skips empty ones', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, {}));
    await api.get('/songs/liked', { query: { page: 2, limit: 20, q: '' } });
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/songs/liked?page=2&limit=20');
  });

  it.each([
    [{ message: 'From message', msg: 'From msg', error: 'From error' }, 'From message'],
    [{ msg: 'From msg', error: 'From error' }, 'From msg'],
    [{ error: 'From error' }, 'From error'],
  ])('turns error bodies into ApiError with the server text (%j)', async (body, message) => {
    fetchMock.mockResolvedValue(jsonResponse(409, { ...body, code: 'CONFLICT' }));
    const error = await apiRequest('/users/register').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, message, code: 'CONFLICT' });
    expect((error as ApiError).body).toMatchObject(body);
  });

  it('reports an expired session on 401', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(401, { message: 'Authentication token missing. Please login.', code: 'UNAUTHORIZED' }),
    );
    await expect(api.get('/users/me')).rejects.toBeInstanceOf(ApiError);
    expect(expired).toHaveBeenCalledTimes(1);
  });

  it('reports an expired session when the server cannot be reached', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const error = await api.get('/songs').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 0, code: 'NETWORK_ERROR', networkError: true });
    expect(expired).toHaveBeenCalledTimes(1);
  });

  it('does not report PayPal calls, a 400 with msg, or ordinary errors', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(401, { message: 'nope' }));
    await api.post('/payments/paypal/capture-order', {}).catch(() => undefined);
    fetchMock.mockResolvedValueOnce(jsonResponse(400, { msg: 'invalid token' }));
    await api.post('/users/login', {}).catch(() => undefined);
    fetchMock.mockResolvedValueOnce(jsonResponse(404, { message: 'Album not found', code: 'NOT_FOUND' }));
    await api.get('/albums/x').catch(() => undefined);
    expect(expired).not.toHaveBeenCalled();
  });

  it('times out after 300000 ms without treating it as an expired session', async () => {
    vi.useFakeTimers();
    fetchMock.mockImplementation(
      (_url, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
        }),
    );
    const pending = api.get('/songs').catch((caught: unknown) => caught);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(fetchMock.mock.calls[0]![1]?.signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(pending).resolves.toMatchObject({ code: 'TIMEOUT', status: 0 });
    expect(expired).not.toHaveBeenCalled();
  });

  it('errorText prefers the server message and otherwise uses the fallback', () => {
    const withServer = new ApiError(
      404,
      'Album not found',
      'NOT_FOUND',
      { message: 'Album not found' },
      '/api/albums/1',
    );
    const network = new ApiError(0, 'Network error', 'NETWORK_ERROR', null, '/api/albums/1', true);
    expect(errorText(withServer, 'Failed to fetch album')).toBe('Album not found');
    expect(errorText(network, 'Failed to fetch album')).toBe('Failed to fetch album');
  });
});
