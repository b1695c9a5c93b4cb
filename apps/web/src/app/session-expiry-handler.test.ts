// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fetchProfile } from '../features/auth';
import { makeUser } from '../lib/entities.test-fixtures';
import { api } from '../lib/api';
import { installSessionExpiryHandler } from './session-expiry-handler';
import { persistor, store } from './store';

function unauthorized() {
  return new Response(
    JSON.stringify({ message: 'Authentication token missing. Please login.', code: 'UNAUTHORIZED' }),
    {
      status: 401,
      headers: { 'Content-Type': 'application/json' },
    },
  );
}

describe('session expiry handling', () => {
  const fetchMock = vi.fn<typeof fetch>();
  const navigate = vi.fn();
  let uninstall: () => void = () => undefined;

  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    fetchMock.mockImplementation(() => Promise.resolve(unauthorized()));
  });
  afterEach(() => {
    uninstall();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    navigate.mockReset();
  });

  it('clears storage and readable cookies, logs out, and sends a visitor on /home to /login once', async () => {
    let path = '/home';
    uninstall = installSessionExpiryHandler({ store, persistor, navigate, pathname: () => path });
    store.dispatch(fetchProfile.fulfilled(makeUser({ preferredGenres: ['Jazz'] }), 'r'));
    localStorage.setItem('player-volume', '0.7');
    sessionStorage.setItem('draft', 'x');
    document.cookie = 'theme=dark; path=/';

    await api.get('/songs/liked').catch(() => undefined);

    expect(store.getState().auth.user).toBeNull();
    expect(localStorage.getItem('player-volume')).toBeNull();
    expect(sessionStorage.length).toBe(0);
    expect(document.cookie).not.toContain('theme=dark');
    expect(navigate).toHaveBeenCalledWith('/login');

    // A burst of failing calls inside 2000 ms is handled once.
    path = '/artists';
    await api.get('/artists').catch(() => undefined);
    expect(navigate).toHaveBeenCalledTimes(1);
  });

  it('keeps a visitor on /login in place (a wrong password must not redirect or loop)', async () => {
    uninstall = installSessionExpiryHandler({ store, persistor, navigate, pathname: () => '/login' });
    await api.post('/users/login', { email: 'a@b.c', password: 'wrong' }).catch(() => undefined);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('ignores requests cut off because the page is being left (reload, typed URL)', async () => {
    uninstall = installSessionExpiryHandler({ store, persistor, navigate, pathname: () => '/home' });
    store.dispatch(fetchProfile.fulfilled(makeUser({ preferredGenres: ['Jazz'] }), 'r'));
    fetchMock.mockImplementation(() => Promise.reject(new TypeError('Failed to fetch')));

    window.dispatchEvent(new Event('beforeunload'));
    await api.get('/songs/liked').catch(() => undefined);

    expect(store.getState().auth.user).not.toBeNull();
    expect(navigate).not.toHaveBeenCalled();
  });
});
