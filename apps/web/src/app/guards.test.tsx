import { configureStore } from '@reduxjs/toolkit';
import { cleanup, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { User } from '@backbeat/contract';
import { authReducer, createInitialAuthState } from '../features/auth';
import { makeUser } from '../features/auth/auth.test-fixtures';
import { CatchAll, GuestOnly, RequireAdmin, RequireAuth, RequireGenres } from './guards';

const page = (name: string) => <p>{name} page</p>;

/** The guard arrangement of router.tsx with stand-in screens. */
const routes: RouteObject[] = [
  { path: '/', element: page('landing') },
  { element: <GuestOnly />, children: [{ path: '/login', element: page('login') }] },
  {
    element: <RequireAuth />,
    children: [
      { path: '/genres', element: page('genres') },
      { path: '/search', element: page('search') },
      { element: <RequireGenres />, children: [{ path: '/home', element: page('home') }] },
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
  return router;
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
    ['/nowhere', withGenres, 'landing'],
  ] as const)('%s as %o shows the %s page', async (path, user, expected) => {
    renderAt(path, user);
    expect(await screen.findByText(`${expected} page`)).toBeTruthy();
  });
});
