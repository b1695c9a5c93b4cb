import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
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

function requestTo(index: number) {
  const [input, init] = fetchMock.mock.calls[index] ?? [];
  return {
    url: String(input),
    method: init?.method,
    body: init?.body ? JSON.parse(String(init.body)) : null,
  };
}

describe('SongUnlockButton', () => {
  it('shows nothing for a playable song', () => {
    renderWithStore(<SongUnlockButton song={makeSong({ canPlay: true })} />);
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('buys a purchase-only song for the shown price and goes to the checkout', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(201, { order: makeOrder(), checkoutUrl: '/checkout/sandbox/order-1' }),
    );
    renderWithStore(<SongUnlockButton song={makeSong()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Buy song $1.29, Gravel & Grace' }));
    await waitFor(() => expect(screen.getByTestId('path').textContent).toBe('/checkout/sandbox/order-1'));
    expect(requestTo(0)).toEqual({
      url: '/api/payments/sandbox/create-order',
      method: 'POST',
      body: { itemType: 'song', itemId: 'song-1', amount: 129, currency: 'USD' },
    });
  });

  it('sends a guest to /login without ordering', async () => {
    renderWithStore(<SongUnlockButton song={makeSong()} />, { user: null });
    fireEvent.click(screen.getByRole('button', { name: /^Buy song/ }));
    await waitFor(() => expect(screen.getByTestId('path').textContent).toBe('/login'));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("toasts the server's message when the order is refused and stays", async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(400, { message: 'The price changed; reload to see it', code: 'AMOUNT_MISMATCH' }),
    );
    renderWithStore(<SongUnlockButton song={makeSong()} />);
    fireEvent.click(screen.getByRole('button', { name: /^Buy song/ }));
    await waitFor(() => expect(toastMock.error).toHaveBeenCalledWith('The price changed; reload to see it'));
    expect(screen.getByTestId('path').textContent).toBe('/');
  });

  it("prices a premium album's song with the album, once the album is read", async () => {
    const album = makeAlbum();
    fetchMock.mockImplementation((input) =>
      Promise.resolve(
        String(input).startsWith('/api/albums/')
          ? jsonResponse(200, { album })
          : jsonResponse(201, { order: makeOrder(), checkoutUrl: '/checkout/sandbox/order-2' }),
      ),
    );
    const song = makeSong({ album: { _id: album._id, title: album.title, isPremium: true } });
    renderWithStore(<SongUnlockButton song={song} />);
    const waiting = screen.getByRole<HTMLButtonElement>('button', { name: 'Buy album' });
    expect(waiting.disabled).toBe(true);
    const button = await screen.findByRole('button', { name: 'Buy album $12.99, Midnight Protocol' });
    fireEvent.click(button);
    await waitFor(() => expect(screen.getByTestId('path').textContent).toBe('/checkout/sandbox/order-2'));
    expect(requestTo(1).body).toEqual({
      itemType: 'album',
      itemId: 'album-2',
      amount: 1299,
      currency: 'USD',
    });
  });

  it("subscribes to a subscription song's artist at the artist's monthly price", async () => {
    const artist = makeArtist({ _id: 'artist-1', name: 'The Velvet Static', subscriptionPrice: 399 });
    fetchMock.mockImplementation((input) =>
      Promise.resolve(
        String(input).startsWith('/api/artists/')
          ? jsonResponse(200, { artist })
          : jsonResponse(201, {
              order: makeOrder({ itemType: 'subscription', itemId: 'artist-1' }),
              checkoutUrl: '/checkout/sandbox/order-3',
            }),
      ),
    );
    renderWithStore(<SongUnlockButton song={makeSong({ accessType: 'subscription' })} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Subscribe $3.99/month, The Velvet Static' }));
    await waitFor(() => expect(screen.getByTestId('path').textContent).toBe('/checkout/sandbox/order-3'));
    expect(requestTo(1)).toEqual({
      url: '/api/subscriptions/artist/artist-1',
      method: 'POST',
      body: { gateway: 'sandbox', cycle: '1m', amount: 399 },
    });
  });
});
