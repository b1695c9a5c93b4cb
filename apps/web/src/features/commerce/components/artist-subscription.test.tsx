import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeArtist, makeUser, renderWithStore } from '../commerce.test-fixtures';
import { ArtistSubscription } from './artist-subscription';

const toastMock = vi.hoisted(() => ({ error: vi.fn(), success: vi.fn() }));
vi.mock('sonner', () => ({ toast: toastMock }));

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => vi.stubGlobal('fetch', fetchMock));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  fetchMock.mockReset();
  toastMock.success.mockClear();
});

const subscription = {
  _id: 'sub-1',
  artist: { _id: 'artist-2', name: 'Nova Reyes', image: null },
  status: 'active',
  cycle: '1m',
  gateway: 'sandbox',
  currentPeriodEnd: '2999-01-31T00:00:00.000Z',
  cancelAtPeriodEnd: false,
  price: 499,
  currency: 'USD',
  createdAt: '2025-01-01T00:00:00.000Z',
};

describe('ArtistSubscription', () => {
  it('offers the monthly subscription when the listener has none', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { subscriptions: [] }));
    renderWithStore(<ArtistSubscription artist={makeArtist()} />);
    expect(await screen.findByRole('button', { name: 'Subscribe $4.99/month, Nova Reyes' })).toBeTruthy();
  });

  it('offers nothing to admins', () => {
    renderWithStore(<ArtistSubscription artist={makeArtist()} />, { user: makeUser({ role: 'admin' }) });
    expect(screen.queryByRole('button')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows an active subscription and cancels it after confirming', async () => {
    let cancelled = false;
    fetchMock.mockImplementation((input, init) => {
      if (init?.method === 'DELETE') {
        cancelled = true;
        return Promise.resolve(jsonResponse(200, { message: 'Subscription cancelled' }));
      }
      return Promise.resolve(
        jsonResponse(200, { subscriptions: [{ ...subscription, cancelAtPeriodEnd: cancelled }] }),
      );
    });
    renderWithStore(<ArtistSubscription artist={makeArtist()} />);
    expect(await screen.findByText(/^Subscribed · until/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel subscription' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel your subscription to Nova Reyes?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel subscription' }));
    await waitFor(() => expect(toastMock.success).toHaveBeenCalledWith('Subscription cancelled'));
    expect(
      fetchMock.mock.calls.some(
        ([url, init]) => init?.method === 'DELETE' && url === '/api/subscriptions/artist/artist-2',
      ),
    ).toBe(true);
    expect(await screen.findByText(/^Cancelled · plays until/)).toBeTruthy();
  });
});
