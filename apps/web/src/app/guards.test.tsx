import { configureStore } from '@reduxjs/toolkit';
import { act, cleanup, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider, useLocation, type RouteObject } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { User } from '@backbeat/contract';
import { authReducer, createInitialAuthState, fetchProfile, logout } from '../features/auth';
import { makeUser } from '../lib/entities.test-fixtures';
import { CatchAll, GuestOnly, notFoundPathOf, RequireAdmin, RequireAuth, RequireGenres } from './guards';

const page = (name: string) => <p>{name} page</p>;

/** The guard arrangement of router.tsx with stand-in screens. */
function Landing() {
  const location = useLocation();
  const missing = notFoundPathOf(location.state);
  return missing ? <p>not found: {missing}</p> : page('landing');
}

const routes: RouteObject[] = [
  { path: '/', element: <Landing /> },
  { element: <GuestOnly />, children: [{ path: '/login', element: page('login') }] },
  {
    element: <RequireAuth />,
    children: [
      { path: '/genres', element: page('genres') },
      { path: '/search', element: page('search') },
      {
        element: <RequireGenres />,
        children: [
          { path: '/home', element: page('home') },
          { path: '/artist/:id', element: page('artist') },
        ],
      },
      { element: <RequireAdmin />, children: [{ path: '/admin', element: page('admin') }] },
    ],
  },
  { path: '*', element: <CatchAll /> },
];

function renderAt(path: string, user: User | null) {
  const store = configureStore({
    reducer: { auth: authReducer },
    preloadedState: { auth: createInitialAuthState(user) },
  });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { router, store };
}

/** What a successful sign-in does to the store (the profile check after login). */
function signIn(store: ReturnType<typeof renderAt>['store'], user: User) {
  act(() => {
    store.dispatch(fetchProfile.fulfilled(user, 'request'));
  });
}

const withGenres = makeUser({ preferredGenres: ['Jazz'] });
const withoutGenres = makeUser();
const admin = makeUser({ role: 'admin', preferredGenres: ['Jazz'] });

describe('route guards', () => {
  afterEach(cleanup);

  it.each([
    ['/login', null, 'login'],
    ['/login', withGenres, 'home'],
    ['/login', withoutGenres, 'genres'],
    ['/genres', null, 'login'],
    ['/genres', withoutGenres, 'genres'],
    ['/home', null, 'login'],
    ['/home', withoutGenres, 'genres'],
    ['/home', withGenres, 'home'],
    ['/search', withoutGenres, 'search'],
    ['/admin', null, 'login'],
    ['/admin', withGenres, 'home'],
    ['/admin', admin, 'admin'],
    ['/nowhere', null, 'login'],
    ['/nowhere', withGenres, 'not found: /nowhere'],
  ] as const)('%s as %o shows the %s page', async (path, user, expected) => {
    renderAt(path, user);
    const text = expected.startsWith('not found') ? expected : `${expected} page`;
    expect(await screen.findByText(text)).toBeTruthy();
  });
});

describe('deep links survive signing in', () => {
  afterEach(() => {
    cleanup();
    window.sessionStorage.clear();
  });

  it('returns a guest to where they were going once they sign in', async () => {
    const { router, store } = renderAt('/search?q=jazz', null);
    expect(await screen.findByText('login page')).toBeTruthy();
    signIn(store, withGenres);
    expect(await screen.findByText('search page')).toBeTruthy();
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/search?q=jazz');
    // Taken once: a later visit to /login goes home as the SPEC says.
    expect(window.sessionStorage.length).toBe(0);
  });

  it('takes an account without genres through /genres first, keeping the way back', async () => {
    const { router, store } = renderAt('/artist/7', null);
    expect(await screen.findByText('login page')).toBeTruthy();
    signIn(store, withoutGenres);
    expect(await screen.findByText('genres page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/genres');
    expect(window.sessionStorage.getItem('backbeat.returnTo')).toBe('/artist/7');
  });

  it('shows "not found" at / for a signed-in listener on an unknown path, and carries the path', async () => {
    const { router } = renderAt('/nowhere/at-all?x=1', withGenres);
    expect(await screen.findByText('not found: /nowhere/at-all?x=1')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
  });

  it('sends a signed-in visit to /login home, whatever was remembered before', async () => {
    window.sessionStorage.setItem('backbeat.returnTo', '/search');
    const { router } = renderAt('/login', withGenres);
    expect(await screen.findByText('home page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/home');
  });

  it('remembers nothing when the person on the screen logs out', async () => {
    const { router, store } = renderAt('/home', withGenres);
    expect(await screen.findByText('home page')).toBeTruthy();
    act(() => {
      store.dispatch(logout.fulfilled('Logged out successfully', 'request'));
    });
    expect(await screen.findByText('login page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
    expect(window.sessionStorage.getItem('backbeat.returnTo')).toBeNull();
  });
});
