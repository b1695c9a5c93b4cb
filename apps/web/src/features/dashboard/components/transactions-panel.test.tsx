import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeUser, renderWithStore } from '../../commerce/commerce.test-fixtures';
import { TransactionsPanel } from './transactions-panel';

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => vi.stubGlobal('fetch', fetchMock));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

const page = (total: number) => ({
  transactions: [
    {
      _id: 'order-1',
      itemType: 'song',
      itemId: 's1',
      itemTitle: 'Low Tide',
      cycle: null,
      amount: 129,
      currency: 'USD',
      gateway: 'stripe',
      status: 'paid',
      user: { _id: 'u1', name: 'Rae Listener' },
      artist: { _id: 'a1', name: 'Nova Reyes' },
      createdAt: '2026-11-20T10:00:00.000Z',
    },
  ],
  pagination: { page: 1, limit: 20, total, totalPages: Math.ceil(total / 20), totalCapped: false },
});
const requested = () =>
  fetchMock.mock.calls.map(
    ([input]) => new URL(input instanceof Request ? input.url : String(input), 'http://x'),
  );

describe('TransactionsPanel', () => {
  it('asks for the filters in the address, and the CSV link carries exactly the same filters and order', async () => {
    fetchMock.mockImplementation(async () => jsonResponse(200, page(41)));
    renderWithStore(
      <TransactionsPanel
        scope={{ from: '2026-11-01', to: '2026-11-30' }}
        artists={[{ _id: 'a1', name: 'Nova Reyes' }]}
      />,
      {
        user: makeUser({ role: 'admin' }),
        path: '/admin?status=paid&sort=-amount&artist=a1',
        pattern: '/admin',
      },
    );
    await screen.findByText('41 transactions');
    const url = requested()[0]!;
    expect(url.pathname).toBe('/api/admin/dashboard/transactions');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      artistId: 'a1',
      from: '2026-11-01',
      to: '2026-11-30',
      status: 'paid',
      sort: '-amount',
      page: '1',
      limit: '20',
    });
    const csv = new URL(screen.getByRole('link', { name: 'Download CSV' }).getAttribute('href')!, 'http://x');
    expect(csv.pathname).toBe('/api/admin/dashboard/transactions.csv');
    expect(Object.fromEntries(csv.searchParams)).toEqual({
      artistId: 'a1',
      from: '2026-11-01',
      to: '2026-11-30',
      status: 'paid',
      sort: '-amount',
    });
    expect(screen.getByText('Song: Low Tide')).toBeTruthy();
  });

  it('changing a filter goes back to the first page', async () => {
    fetchMock.mockImplementation(async () => jsonResponse(200, page(41)));
    renderWithStore(<TransactionsPanel scope={{ from: '2026-11-01', to: '2026-11-30' }} />, {
      user: makeUser({ role: 'admin' }),
      path: '/admin?page=2',
      pattern: '/admin',
    });
    await screen.findByText('41 transactions');
    expect(requested()[0]!.searchParams.get('page')).toBe('2');
    fireEvent.change(screen.getByRole('combobox', { name: 'Gateway' }), { target: { value: 'paypal' } });
    await waitFor(() => expect(requested().at(-1)!.searchParams.get('gateway')).toBe('paypal'));
    expect(requested().at(-1)!.searchParams.get('page')).toBe('1');
  });
});
