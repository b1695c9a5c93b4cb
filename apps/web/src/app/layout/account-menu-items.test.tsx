import { configureStore } from '@reduxjs/toolkit';
import { cleanup, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { User } from '@backbeat/contract';
import { authReducer, createInitialAuthState } from '../../features/auth';
import { makeUser } from '../../lib/entities.test-fixtures';
import { AccountMenuItems } from './account-menu-items';

function entriesFor(user: User) {
  const store = configureStore({
    reducer: { auth: authReducer },
    preloadedState: { auth: createInitialAuthState(user) },
  });
  render(
    <Provider store={store}>
      <MemoryRouter>
        <AccountMenuItems user={user} />
      </MemoryRouter>
    </Provider>,
  );
  return screen.getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')]);
}

const everyone = [
  ['Settings', '/settings'],
  ['Your genres', '/genres'],
  ['Playlists', '/playlists'],
  ['Payment history', '/payment-history'],
];
const help = ['Help', '/help'];

describe('AccountMenuItems', () => {
  afterEach(cleanup);

  it('gives a listener the account entries and help, then log out', () => {
    expect(entriesFor(makeUser({ role: 'user' }))).toEqual([...everyone, help]);
    expect(screen.getByRole('button', { name: 'Log out' })).toBeTruthy();
  });

  it('adds the studio and the artist dashboard for an artist', () => {
    expect(entriesFor(makeUser({ role: 'artist' }))).toEqual([
      ...everyone,
      ['Studio', '/studio'],
      ['Your dashboard', '/studio/dashboard'],
      help,
    ]);
  });

  it('adds the studio and the admin dashboard for an admin', () => {
    expect(entriesFor(makeUser({ role: 'admin' }))).toEqual([
      ...everyone,
      ['Studio', '/studio'],
      ['Admin dashboard', '/admin'],
      help,
    ]);
  });
});
