import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeStore, makeUser } from '../features/commerce/commerce.test-fixtures';
import { setSessionExpiredHandler } from '../lib/api';
import { SessionBootstrap } from './session-bootstrap';

const fetchMock = vi.fn<typeof fetch>();
const expired = vi.fn();
beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  setSessionExpiredHandler(expired);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  fetchMock.mockReset();
  expired.mockReset();
  setSessionExpiredHandler(null);
});

const meCalls = () => fetchMock.mock.calls.filter(([input]) => String(input).includes('/api/users/me'));

function renderBootstrap(store = makeStore(null)) {
  render(
    <Provider store={store}>
      <SessionBootstrap>
        <p>app</p>
      </SessionBootstrap>
    </Provider>,
  );
  return store;
}

describe('SessionBootstrap (SPEC section 2 start-up)', () => {
  it('with no user in memory asks the server once, even without any readable cookie, and signs the user in', async () => {
    const user = makeUser();
    fetchMock.mockResolvedValue(jsonResponse(200, user));
    const store = renderBootstrap();
    expect(screen.queryByText('app')).toBeNull(); // the loading animation until it settles
    await screen.findByText('app');
    expect(meCalls()).toHaveLength(1);
    expect(store.getState().auth.user?.email).toBe(user.email);
  });

  it("takes a guest's 401 as an answer: renders, and runs no session-expiry handling", async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(401, { message: 'Authentication token missing. Please login.' }),
    );
    renderBootstrap();
    await screen.findByText('app');
    expect(meCalls()).toHaveLength(1);
    await waitFor(() => expect(expired).not.toHaveBeenCalled());
  });

  it('renders at once for a user in memory, without asking', () => {
    renderBootstrap(makeStore(makeUser()));
    expect(screen.getByText('app')).toBeTruthy();
    expect(meCalls()).toHaveLength(0);
  });
});
