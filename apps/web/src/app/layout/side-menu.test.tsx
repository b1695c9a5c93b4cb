import { configureStore } from '@reduxjs/toolkit';
import { cleanup, render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { User } from '@backbeat/contract';
import { authReducer, createInitialAuthState } from '../../features/auth';
import { makeUser } from '../../lib/entities.test-fixtures';
import { SideMenu } from './side-menu';

function renderMenu(user: User) {
  const store = configureStore({
    reducer: { auth: authReducer },
    preloadedState: { auth: createInitialAuthState(user) },
  });
  const router = createMemoryRouter([{ path: '/studio/songs/new', element: <SideMenu /> }], {
    initialEntries: ['/studio/songs/new'],
  });
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return within(screen.getByRole('navigation', { name: 'Account' }));
}

const names = (account: ReturnType<typeof renderMenu>) =>
  account.getAllByRole('link').map((link) => link.textContent);

describe('SideMenu account entries', () => {
  afterEach(cleanup);

  it('gives a listener the payment history only', () => {
    expect(names(renderMenu(makeUser({ role: 'user' })))).toEqual(['Payment history']);
  });

  it('leads an artist to the studio, marked active on its sub-pages', () => {
    const account = renderMenu(makeUser({ role: 'artist' }));
    expect(names(account)).toEqual(['Payment history', 'Your studio']);
    expect(account.getByRole('link', { name: 'Your studio' }).getAttribute('aria-current')).toBe('page');
  });

  it('gives an admin the studio and the dashboard', () => {
    expect(names(renderMenu(makeUser({ role: 'admin' })))).toEqual([
      'Payment history',
      'Your studio',
      'Admin',
    ]);
  });
});
