import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  SANDBOX_GATEWAYS,
  jsonResponse,
  makeAlbum,
  makeArtist,
  makeOrder,
  makeSong,
  renderWithStore,
} from '../commerce.test-fixtures';
import { SongUnlockButton } from './song-unlock-button';

const toastMock = vi.hoisted(() => ({ error: vi.fn(), success: vi.fn() }));
vi.mock('sonner', () => ({ toast: toastMock }));

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => vi.stubGlobal('fetch', fetchMock));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  fetchMock.mockReset();
  toastMock.error.mockClear();
});

/** Answers by path prefix; the gateways list is always the sandbox alone. */
function serve(routes: Record<string, () => Response>) {
  fetchMock.mockImplementation((input) => {
    const url = String(input);
    if (url.startsWith('/api/payments/gateways')) return Promise.resolve(jsonResponse(200, SANDBOX_GATEWAYS));
    const match = Object.keys(routes).find((prefix) => url.startsWith(prefix));
    return Promise.resolve(
      match ? routes[match]!() : jsonResponse(404, { message: 'Not found', code: 'NOT_FOUND' }),
    );
  });
}

function requestsTo(prefix: string) {
  return fetchMock.mock.calls
    .filter(([input]) => String(input).startsWith(prefix))
    .map(([input, init]) => ({
      url: String(input),
      method: init?.method,
      body: init?.body ? JSON.parse(String(init.body)) : null,
    }));
}

const continueToDemo = async () =>
  fireEvent.click(await screen.findByRole('button', { name: 'Continue to the demo checkout' }));

describe('SongUnlockButton', () => {
  it('shows nothing for a playable song', () => {
    renderWithStore(<SongUnlockButton song={makeSong({ canPlay: true })} />);
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('opens the checkout with the configured gateways and buys the song for the shown price', async () => {
    serve({
      '/api/payments/sandbox/create-order': () =>
        jsonResponse(201, { order: makeOrder(), checkoutUrl: '/checkout/sandbox/order-1' }),
    });
    renderWithStore(<SongUnlockButton song={makeSong()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Buy song $1.29, Gravel & Grace' }));
    expect(await screen.findByRole('dialog', { name: 'Buy Gravel & Grace' })).toBeTruthy();
    expect(screen.getByText(/Demo payment - no money moves/)).toBeTruthy();
    await continueToDemo();
    await waitFor(() => expect(screen.getByTestId('path').textContent).toBe('/checkout/sandbox/order-1'));
    expect(requestsTo('/api/payments/sandbox/create-order')).toEqual([
      {
        url: '/api/payments/sandbox/create-order',
        method: 'POST',
        body: { itemType: 'song', itemId: 'song-1', amount: 129, currency: 'USD' },
      },
    ]);
  });

  it('sends a guest to /login without ordering', async () => {
    renderWithStore(<SongUnlockButton song={makeSong()} />, { user: null });
    fireEvent.click(screen.getByRole('button', { name: /^Buy song/ }));
    await waitFor(() => expect(screen.getByTestId('path').textContent).toBe('/login'));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("toasts the server's message when the order is refused and stays", async () => {
    serve({
      '/api/payments/sandbox/create-order': () =>
        jsonResponse(400, { message: 'The price changed; reload to see it', code: 'AMOUNT_MISMATCH' }),
    });
    renderWithStore(<SongUnlockButton song={makeSong()} />);
    fireEvent.click(screen.getByRole('button', { name: /^Buy song/ }));
    await continueToDemo();
    await waitFor(() => expect(toastMock.error).toHaveBeenCalledWith('The price changed; reload to see it'));
    expect(screen.getByTestId('path').textContent).toBe('/');
  });

  it("prices a premium album's song with the album, once the album is read", async () => {
    const album = makeAlbum();
    serve({
      '/api/albums/': () => jsonResponse(200, { album }),
      '/api/payments/sandbox/create-order': () =>
        jsonResponse(201, { order: makeOrder(), checkoutUrl: '/checkout/sandbox/order-2' }),
    });
    const song = makeSong({ album: { _id: album._id, title: album.title, isPremium: true } });
    renderWithStore(<SongUnlockButton song={song} />);
    const waiting = screen.getByRole<HTMLButtonElement>('button', { name: 'Buy album' });
    expect(waiting.disabled).toBe(true);
    fireEvent.click(await screen.findByRole('button', { name: 'Buy album $12.99, Midnight Protocol' }));
    await continueToDemo();
    await waitFor(() => expect(screen.getByTestId('path').textContent).toBe('/checkout/sandbox/order-2'));
    expect(requestsTo('/api/payments/sandbox/create-order')[0]?.body).toEqual({
      itemType: 'album',
      itemId: 'album-2',
      amount: 1299,
      currency: 'USD',
    });
  });

  it('subscribes for the cycle the listener picks, at the monthly price times its months', async () => {
    const artist = makeArtist({ _id: 'artist-1', name: 'The Velvet Static', subscriptionPrice: 399 });
    serve({
      '/api/artists/': () => jsonResponse(200, { artist }),
      '/api/subscriptions/artist/': () =>
        jsonResponse(201, {
          transactionId: 'order-3',
          gateway: 'sandbox',
          cycle: '3m',
          order: makeOrder({ itemType: 'subscription', itemId: 'artist-1' }),
          checkoutUrl: '/checkout/sandbox/order-3',
        }),
    });
    renderWithStore(<SongUnlockButton song={makeSong({ accessType: 'subscription' })} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Subscribe $3.99/month, The Velvet Static' }));
    const threeMonths = await screen.findByRole('radio', { name: /Every 3 months/ });
    expect(threeMonths.closest('label')?.textContent).toContain('$11.97 every 3 months');
    fireEvent.click(threeMonths);
    await continueToDemo();
    await waitFor(() => expect(screen.getByTestId('path').textContent).toBe('/checkout/sandbox/order-3'));
    expect(requestsTo('/api/subscriptions/artist/')).toEqual([
      {
        url: '/api/subscriptions/artist/artist-1',
        method: 'POST',
        body: { gateway: 'sandbox', cycle: '3m', amount: 1197 },
      },
    ]);
  });
});
