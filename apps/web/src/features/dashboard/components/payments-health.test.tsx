import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeUser, renderWithStore } from '../../commerce/commerce.test-fixtures';
import { PaymentsHealth } from './payments-health';

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => vi.stubGlobal('fetch', fetchMock));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

const run = (gateway: string, fixes: string[], status = 'succeeded') => ({
  _id: `run-${gateway}`,
  gateway,
  trigger: 'schedule',
  status,
  windowStart: '2026-11-20T07:00:00.000Z',
  windowEnd: '2026-11-20T10:00:00.000Z',
  examined: 12,
  fixed: fixes.length,
  problems: 1,
  fixes,
  error: status === 'failed' ? 'Stripe could not be reached' : null,
  startedAt: '2026-11-20T10:00:00.000Z',
  finishedAt: '2026-11-20T10:00:01.000Z',
});
const issue = {
  _id: 'issue-1',
  gateway: 'paypal',
  kind: 'amount_mismatch',
  externalId: 'CAP123',
  orderId: 'order-1',
  amount: 1099,
  currency: 'USD',
  detail: 'paypal captured 1099 USD for an order of 999 USD; refunding it',
  status: 'open',
  resolution: null,
  createdAt: '2026-11-20T09:00:00.000Z',
  resolvedAt: null,
};
const health = (issues = [issue]) => ({
  gateways: ['stripe', 'razorpay', 'paypal'],
  runs: [
    run('stripe', ['payment_intent.succeeded evt_1: stripe payment pi_1 recorded']),
    run('razorpay', [], 'failed'),
  ],
  issues,
});

const calls = () =>
  fetchMock.mock.calls.map(([input, init]) => ({
    path: new URL(input instanceof Request ? input.url : String(input), 'http://x').pathname,
    method: (input instanceof Request ? input.method : init?.method) ?? 'GET',
  }));

describe('PaymentsHealth (admin)', () => {
  it("shows each gateway's last reconciliation, what it fixed, and the payments that need attention", async () => {
    fetchMock.mockImplementation(async () => jsonResponse(200, health()));
    renderWithStore(<PaymentsHealth />, { user: makeUser({ role: 'admin' }) });
    const runs = await screen.findByRole('list', { name: 'Latest reconciliation of each gateway' });
    const cards = Array.from(runs.children) as HTMLElement[];
    expect(cards).toHaveLength(3);
    expect(within(cards[0]!).getByText('Reconciled')).toBeTruthy();
    expect(within(cards[0]!).getByText('12 read · 1 applied · 1 to look at')).toBeTruthy();
    expect(within(cards[0]!).getByText(/stripe payment pi_1 recorded/)).toBeTruthy();
    expect(within(cards[1]!).getByText('Failed')).toBeTruthy();
    expect(within(cards[1]!).getByText('Stripe could not be reached')).toBeTruthy();
    expect(within(cards[2]!).getByText(/Not reconciled yet/)).toBeTruthy();
    expect(screen.getByText('Captured another amount')).toBeTruthy();
    expect(screen.getByText(/\$10\.99/)).toBeTruthy();
  });

  it('reconciles now on demand and says what it applied', async () => {
    fetchMock.mockImplementation(async (input) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.includes('/reconcile')) return jsonResponse(200, { runs: [run('stripe', ['a', 'b'])] });
      return jsonResponse(200, health([]));
    });
    renderWithStore(<PaymentsHealth />, { user: makeUser({ role: 'admin' }) });
    await screen.findByText('Nothing needs attention');
    fireEvent.click(screen.getByRole('button', { name: 'Reconcile now' }));
    await waitFor(() =>
      expect(calls()).toContainEqual({ path: '/api/admin/payments/reconcile', method: 'POST' }),
    );
    await waitFor(() =>
      expect(calls().filter((call) => call.path === '/api/admin/payments/health')).toHaveLength(2),
    );
  });

  it('marks an issue settled with how it was settled', async () => {
    fetchMock.mockImplementation(async (input) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.includes('/resolve'))
        return jsonResponse(200, { issue: { ...issue, status: 'resolved', resolution: 'refunded by hand' } });
      return jsonResponse(200, health());
    });
    renderWithStore(<PaymentsHealth />, { user: makeUser({ role: 'admin' }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Mark settled' }));
    fireEvent.change(screen.getByLabelText(/How was it settled/), { target: { value: 'refunded by hand' } });
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Mark settled' }));
    await waitFor(() =>
      expect(calls()).toContainEqual({ path: '/api/admin/payments/issues/issue-1/resolve', method: 'POST' }),
    );
  });
});
