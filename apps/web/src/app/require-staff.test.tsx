import { configureStore } from '@reduxjs/toolkit';
import { cleanup, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { User } from '@backbeat/contract';
import { authReducer, createInitialAuthState } from '../features/auth';
import { makeUser } from '../lib/entities.test-fixtures';
import { RequireStaff } from './guards';

function renderStudio(user: User | null) {
  const store = configureStore({
    reducer: { auth: authReducer },
    preloadedState: { auth: createInitialAuthState(user) },
  });
  const router = createMemoryRouter(
    [
      { path: '/login', element: <p>login page</p> },
      { path: '/home', element: <p>home page</p> },
      { element: <RequireStaff />, children: [{ path: '/studio', element: <p>studio page</p> }] },
    ],
    { initialEntries: ['/studio'] },
  );
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
}

describe('RequireStaff (the studio)', () => {
  afterEach(cleanup);

  it.each([
    [null, 'login'],
    [makeUser({ role: 'user', preferredGenres: ['Jazz'] }), 'home'],
    [makeUser({ role: 'artist' }), 'studio'],
    [makeUser({ role: 'admin' }), 'studio'],
  ])('sends %o to the %s page', (user, page) => {
    renderStudio(user);
    expect(screen.getByText(`${page} page`)).toBeTruthy();
  });
});
