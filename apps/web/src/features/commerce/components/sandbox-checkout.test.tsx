import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fetchSongStream, playFromList } from '../../player';
import { SANDBOX_CHECKOUT_LABEL } from '../commerce.constants';
import { jsonResponse, makeOrder, makeSong, makeUser, renderWithStore } from '../commerce.test-fixtures';
import { SandboxCheckout } from './sandbox-checkout';

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

type Handler = (init: RequestInit | undefined) => Response;

/** Answers by "METHOD path"; anything else fails the test loudly. */
function serve(routes: Record<string, Handler>) {
  fetchMock.mockImplementation((input, init) => {
    const key = `${init?.method ?? 'GET'} ${String(input)}`;
    const handler = routes[key];
    if (!handler) return Promise.reject(new Error(`unexpected request ${key}`));
    return Promise.resolve(handler(init));
  });
}

const ORDER_URL = '/api/payments/sandbox/orders/order-1';

function renderCheckout() {
  return renderWithStore(<SandboxCheckout orderId="order-1" />, {
    path: '/checkout/sandbox/order-1',
    pattern: '/checkout/sandbox/:orderId',
  });
}

describe('SandboxCheckout', () => {
  it('labels the demo checkout and shows the item and its price', async () => {
    serve({ [`GET ${ORDER_URL}`]: () => jsonResponse(200, { order: makeOrder() }) });
    renderCheckout();
    expect(await screen.findByRole('heading', { name: 'Gravel & Grace' })).toBeTruthy();
    expect(screen.getByText(SANDBOX_CHECKOUT_LABEL)).toBeTruthy();
    expect(screen.getByTestId('checkout-price').textContent).toBe('$1.29');
    expect(screen.getByRole('button', { name: 'Pay $1.29' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Decline' })).toBeTruthy();
  });

  it('pays, refreshes the user and the player, and lands on /payment-success', async () => {
    const paid = makeOrder({ status: 'paid' });
    let confirmBody: unknown = null;
    serve({
      [`GET ${ORDER_URL}`]: () => jsonResponse(200, { order: makeOrder() }),
      [`POST ${ORDER_URL}/confirm`]: (init) => {
        confirmBody = JSON.parse(String(init?.body));
        return jsonResponse(200, { order: paid, message: 'Payment complete' });
      },
      'GET /api/users/me': () => jsonResponse(200, makeUser({ purchasedSongs: ['song-1'] })),
      'GET /api/stream/song/song-1': () =>
        jsonResponse(403, { message: 'no', code: 'FORBIDDEN', reason: 'song_purchase_required' }),
    });
    const { store } = renderCheckout();
    // The listener pressed play on this song before the purchase, and the server refused it.
    store.dispatch(playFromList({ songs: [makeSong()], index: 0, context: { type: 'all' } }));
    await store.dispatch(fetchSongStream({ songId: 'song-1' }));
    expect(store.getState().stream.error?.songId).toBe('song-1');
    expect(store.getState().player.isPlaying).toBe(true);

    fireEvent.click(await screen.findByRole('button', { name: 'Pay $1.29' }));
    await waitFor(() => expect(screen.getByTestId('path').textContent).toBe('/payment-success'));
    expect(confirmBody).toEqual({ outcome: 'pay' });
    expect(store.getState().stream.error).toBeNull();
    // Back on the album the song waits for play instead of starting on its own.
    expect(store.getState().player.isPlaying).toBe(false);
    expect(store.getState().auth.user?.purchasedSongs).toEqual(['song-1']);
    expect(fetchMock.mock.calls.some(([input]) => String(input) === '/api/users/me')).toBe(true);
  });

  it('declines and lands on /payment-fail without touching the user', async () => {
    serve({
      [`GET ${ORDER_URL}`]: () => jsonResponse(200, { order: makeOrder() }),
      [`POST ${ORDER_URL}/confirm`]: () =>
        jsonResponse(200, { order: makeOrder({ status: 'failed' }), message: 'Payment declined' }),
    });
    const { store } = renderCheckout();
    fireEvent.click(await screen.findByRole('button', { name: 'Decline' }));
    await waitFor(() => expect(screen.getByTestId('path').textContent).toBe('/payment-fail'));
    expect(store.getState().auth.user?.purchasedSongs).toEqual([]);
  });

  it('shows an order decided earlier with a link on, and no Pay button', async () => {
    serve({ [`GET ${ORDER_URL}`]: () => jsonResponse(200, { order: makeOrder({ status: 'paid' }) }) });
    renderCheckout();
    expect(await screen.findByText('This order is paid.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to your purchases' }).getAttribute('href')).toBe(
      '/purchases',
    );
    expect(screen.queryByRole('button', { name: /^Pay/ })).toBeNull();
  });

  it("toasts the server's message when the order was decided elsewhere, then shows its state", async () => {
    let status: 'pending' | 'failed' = 'pending';
    serve({
      [`GET ${ORDER_URL}`]: () => jsonResponse(200, { order: makeOrder({ status }) }),
      [`POST ${ORDER_URL}/confirm`]: () => {
        status = 'failed';
        return jsonResponse(409, { message: 'This order is already decided', code: 'ORDER_ALREADY_DECIDED' });
      },
    });
    renderCheckout();
    fireEvent.click(await screen.findByRole('button', { name: 'Pay $1.29' }));
    await waitFor(() => expect(toastMock.error).toHaveBeenCalledWith('This order is already decided'));
    expect(await screen.findByText('This payment was declined. Nothing was charged.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Backbeat' })).toBeTruthy();
  });

  it('shows a subscription per month and an unknown order as unavailable', async () => {
    serve({
      [`GET ${ORDER_URL}`]: () =>
        jsonResponse(200, {
          order: makeOrder({ itemType: 'subscription', itemTitle: 'Nova Reyes', amount: 499, cycle: '1m' }),
        }),
    });
    renderCheckout();
    expect(await screen.findByRole('button', { name: 'Pay $4.99/month' })).toBeTruthy();
    cleanup();
    serve({
      [`GET ${ORDER_URL}`]: () => jsonResponse(404, { message: 'Order not found', code: 'NOT_FOUND' }),
    });
    renderCheckout();
    expect(await screen.findByText('Order not found')).toBeTruthy();
  });

  it('offers the way back, not a retry, for a malformed or unknown order id', async () => {
    serve({
      [`GET ${ORDER_URL}`]: () =>
        jsonResponse(400, { message: 'id: Invalid UUID', code: 'VALIDATION_ERROR' }),
    });
    renderCheckout();
    expect(await screen.findByText('Order not found')).toBeTruthy();
    expect(screen.queryByText('id: Invalid UUID')).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to Backbeat' }).getAttribute('href')).toBe('/home');
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    cleanup();
    serve({ [`GET ${ORDER_URL}`]: () => jsonResponse(503, { message: 'Try later', code: 'UNAVAILABLE' }) });
    renderCheckout();
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
