// @vitest-environment jsdom
import { configureStore } from '@reduxjs/toolkit';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authReducer } from './auth.slice';
import { makeUser } from '../../lib/entities.test-fixtures';
import {
  credentialsErrorText,
  fetchProfile,
  login,
  register,
  socialLoginSuccess,
  updateGenres,
} from './auth.thunks';

function jsonResponse(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

const makeStore = () => configureStore({ reducer: { auth: authReducer } });
const form = { name: 'Ada', email: 'ada@example.com', password: 'password1' };

describe('auth thunks', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    localStorage.clear();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('register succeeds only after the profile check', async () => {
    const user = makeUser();
    fetchMock
      .mockResolvedValueOnce(jsonResponse(201, { message: 'Registered', user, token: 'opaque' }))
      .mockResolvedValueOnce(jsonResponse(200, user));
    const store = makeStore();
    const result = await store.dispatch(register(form));
    expect(result.payload).toEqual({ user, message: 'Registered successfully' });
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(['/api/users/register', '/api/users/me']);
    expect(store.getState().auth).toMatchObject({ isAuthenticated: true, status: 'succeeded' });
    // The token in the body is never kept by the client.
    expect(JSON.stringify(localStorage)).not.toContain('opaque');
  });

  it('register without a session token fails with "Authentication failed after registration"', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(201, { message: 'Registered', user: makeUser() }));
    const store = makeStore();
    await store.dispatch(register(form));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(store.getState().auth).toMatchObject({
      status: 'failed',
      error: 'Authentication failed after registration',
      user: null,
    });
  });

  it('register whose profile check fails reports "Token verification failed after registration"', async () => {
    fetchMock
      .mockResolvedValueOnce(jsonResponse(201, { message: 'Registered', user: makeUser(), token: 't' }))
      .mockResolvedValueOnce(jsonResponse(500, { message: 'Internal server error', code: 'INTERNAL' }));
    const store = makeStore();
    await store.dispatch(register(form));
    expect(store.getState().auth).toMatchObject({
      status: 'failed',
      error: 'Token verification failed after registration',
    });
  });

  it.each([
    [{ msg: 'From msg', error: 'From error', message: 'From message' }, 'From msg'],
    [{ error: 'From error', message: 'From message' }, 'From error'],
    [{ message: 'Invalid email or password', code: 'UNAUTHORIZED' }, 'Invalid email or password'],
  ])('login failure text follows msg, error, message (%j)', async (body, expected) => {
    fetchMock.mockResolvedValueOnce(jsonResponse(401, body));
    const store = makeStore();
    await store.dispatch(login({ email: 'ada@example.com', password: 'wrong' }));
    expect(store.getState().auth.error).toBe(expected);
  });

  it('login failure without a server text uses the exception message, then "Login failed"', async () => {
    fetchMock.mockResolvedValueOnce(new Response('', { status: 502 }));
    const store = makeStore();
    await store.dispatch(login({ email: 'ada@example.com', password: 'x' }));
    expect(store.getState().auth.error).toBe('Request failed with status 502');
    expect(credentialsErrorText(new Error(''))).toBe('Login failed');
    expect(credentialsErrorText('not an error')).toBe('Login failed');
  });

  it('social login success carries the new-user message', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(200, makeUser()));
    const store = makeStore();
    const result = await store.dispatch(socialLoginSuccess(true));
    expect(result.payload).toMatchObject({
      isNewUser: true,
      message: 'Social registration successful! Please select your genres.',
    });
    fetchMock.mockResolvedValueOnce(jsonResponse(200, makeUser()));
    const again = await store.dispatch(socialLoginSuccess(false));
    expect(again.payload).toMatchObject({ message: 'Social login successful!' });
  });

  it('social login failure reports "Social login failed"', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(401, { message: 'Authentication failed' }));
    const store = makeStore();
    await store.dispatch(socialLoginSuccess(false));
    expect(store.getState().auth).toMatchObject({ error: 'Social login failed', user: null });
  });

  it('a 401 on the profile fetch clears the stored user', async () => {
    localStorage.setItem('user', JSON.stringify(makeUser()));
    fetchMock.mockResolvedValueOnce(
      jsonResponse(401, { message: 'Authentication token missing. Please login.' }),
    );
    const store = makeStore();
    await store.dispatch(fetchProfile());
    expect(localStorage.getItem('user')).toBeNull();
    expect(store.getState().auth).toMatchObject({
      user: null,
      error: 'Authentication token missing. Please login.',
    });
  });

  it('update genres sends the names and stores the answer', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { message: 'ok', preferredGenres: ['Jazz'] }));
    const store = makeStore();
    const result = await store.dispatch(updateGenres(['Jazz']));
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/users/update-genres');
    expect(init?.method).toBe('PUT');
    expect(init?.body).toBe(JSON.stringify({ genres: ['Jazz'] }));
    expect(result.payload).toEqual({ preferredGenres: ['Jazz'], message: 'Preferred genres updated' });
  });
});
