import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeUser, renderWithStore } from '../../commerce/commerce.test-fixtures';
import type { Transaction } from '../dashboard.types';
import { TransactionsList } from './transactions-list';

const toastMock = vi.hoisted(() => ({ error: vi.fn(), success: vi.fn() }));
vi.mock('sonner', () => ({ toast: toastMock }));

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => vi.stubGlobal('fetch', fetchMock));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  fetchMock.mockReset();
  toastMock.error.mockClear();
  toastMock.success.mockClear();
});

const paid: Transaction = {
  _id: 'order-1',
  itemType: 'album',
  itemTitle: 'Midnight Protocol',
  amount: 1299,
  currency: 'USD',
  gateway: 'stripe',
  status: 'paid',
  user: { _id: 'u1', name: 'Rae Listener' },
  createdAt: '2026-11-20T10:00:00.000Z',
};
const pending: Transaction = { ...paid, _id: 'order-2', status: 'pending' };

const admin = makeUser({ role: 'admin' });

describe('TransactionsList', () => {
  it('offers no refund without canRefund', () => {
    renderWithStore(<TransactionsList transactions={[paid]} />, { user: admin });
    expect(screen.queryByRole('button', { name: /Refund/ })).toBeNull();
  });

  it('offers a refund on paid rows only, asks first, and refunds through the server', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(200, { order: { _id: 'order-1', status: 'refunded' }, message: 'Payment refunded' }),
    );
    renderWithStore(<TransactionsList transactions={[paid, pending]} canRefund />, { user: admin });
    const buttons = screen.getAllByRole('button', { name: /^Refund / });
    expect(buttons).toHaveLength(1);
    fireEvent.click(
      screen.getByRole('button', { name: 'Refund Album: Midnight Protocol, $12.99 to Rae Listener' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Refund $12.99 to Rae Listener?' });
    expect(dialog.textContent).toContain('The money goes back through Stripe.');
    expect(dialog.textContent).toContain('it no longer plays for them');
    expect(fetchMock).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund' }));
    await waitFor(() => expect(toastMock.success).toHaveBeenCalledWith('Payment refunded'));
    const [input, init] = fetchMock.mock.calls[0]!;
    const url = input instanceof Request ? input.url : String(input);
    expect(url).toContain('/api/admin/orders/order-1/refund');
    expect(input instanceof Request ? input.method : init?.method).toBe('POST');
  });

  it("shows the server's message when the refund is refused", async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(409, {
        message: 'Only a paid order can be refunded (this one is refunded)',
        code: 'NOT_REFUNDABLE',
      }),
    );
    renderWithStore(<TransactionsList transactions={[paid]} canRefund />, { user: admin });
    fireEvent.click(screen.getByRole('button', { name: /^Refund / }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund' }));
    await waitFor(() =>
      expect(toastMock.error).toHaveBeenCalledWith(
        'Only a paid order can be refunded (this one is refunded)',
      ),
    );
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});
