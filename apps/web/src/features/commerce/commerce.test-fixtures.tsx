import { configureStore } from '@reduxjs/toolkit';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import type { User } from '@backbeat/contract';
import { backbeatApi } from '../../lib/api-query';
import { makeAlbum, makeArtist, makeSong, makeUser as makeListener } from '../../lib/entities.test-fixtures';
import { authReducer, createInitialAuthState } from '../auth';
import { streamReducer } from '../player';
// The player's plain reducer (the app registers its persisted wrapper).
import { playerReducer } from '../player/player.slice';
import type { Order } from './commerce.types';

/** A listener who has chosen genres, so the genre picker does not interrupt the screens under test. */
export function makeUser(overrides: Partial<User> = {}): User {
  return makeListener({ preferredGenres: ['Jazz'], ...overrides });
}

export { makeAlbum, makeArtist, makeSong };

export function makeOrder(overrides: Partial<Order> = {}): Order {
  return {
    _id: 'order-1',
    itemType: 'song',
    itemId: 'song-1',
    itemTitle: 'Gravel & Grace',
    amount: 129,
    currency: 'USD',
    gateway: 'sandbox',
    status: 'pending',
    createdAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

export function makeStore(user: User | null) {
  return configureStore({
    reducer: {
      auth: authReducer,
      stream: streamReducer,
      player: playerReducer,
      [backbeatApi.reducerPath]: backbeatApi.reducer,
    },
    preloadedState: { auth: createInitialAuthState(user) },
    middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(backbeatApi.middleware),
  });
}

function CurrentPath() {
  const location = useLocation();
  return <output data-testid="path">{location.pathname}</output>;
}

/** Renders `ui` at `path` (matched by `pattern`) with a store; the current path shows in the "path" test id. */
export function renderWithStore(
  ui: ReactElement,
  {
    user = makeUser(),
    path = '/',
    pattern = '/',
  }: { user?: User | null; path?: string; pattern?: string } = {},
) {
  const store = makeStore(user);
  const view = render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={pattern} element={ui} />
          <Route path="*" element={null} />
        </Routes>
        <CurrentPath />
      </MemoryRouter>
    </Provider>,
  );
  return { store, ...view };
}

/** `GET /api/payments/gateways` when only the demo sandbox is configured. */
export const SANDBOX_GATEWAYS = {
  currency: 'USD',
  gateways: [
    {
      name: 'sandbox',
      label: 'Demo checkout',
      mode: 'demo',
      publishableKey: null,
      scriptUrl: null,
      subscriptions: true,
    },
  ],
};
