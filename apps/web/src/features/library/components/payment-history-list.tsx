import { formatDate, formatMoney } from '../../../lib/format';
import type { PaymentHistoryEntry } from '../library.types';
import { PaymentStatus } from './payment-status';

function describe(entry: PaymentHistoryEntry): string {
  const title = entry.title ?? entry.itemTitle;
  const type = entry.itemType ? entry.itemType.charAt(0).toUpperCase() + entry.itemType.slice(1) : 'Payment';
  return title ? `${type}: ${title}` : type;
}

const GATEWAYS: Record<string, string> = {
  stripe: 'Stripe',
  razorpay: 'Razorpay',
  paypal: 'PayPal',
  sandbox: 'Demo',
};

/** Payments, newest first: a table-like grid on wide screens, stacked rows on narrow ones (no sideways scroll). */
export function PaymentHistoryList({ entries }: { entries: PaymentHistoryEntry[] }) {
  const sorted = [...entries].sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? ''));
  return (
    <div className="overflow-hidden rounded-card border border-line">
      <div
        aria-hidden="true"
        className="hidden grid-cols-[120px_minmax(0,1fr)_110px_120px_110px] gap-4 border-b border-line bg-surface px-4 py-3 text-meta font-semibold uppercase tracking-wider text-muted md:grid"
      >
        <span>Date</span>
        <span>Item</span>
        <span>Method</span>
        <span>Status</span>
        <span className="text-right">Amount</span>
      </div>
      <ul aria-label="Payments">
        {sorted.map((entry) => (
          <li
            key={entry._id}
            className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-4 gap-y-1 border-b border-line px-4 py-3 last:border-b-0 md:grid-cols-[120px_minmax(0,1fr)_110px_120px_110px] md:items-center"
          >
            <span className="order-2 text-meta text-muted tabular-nums md:order-none md:text-body">
              <span className="sr-only">Date: </span>
              {formatDate(entry.createdAt) || '—'}
            </span>
            <span className="order-1 col-span-2 truncate text-body font-medium md:order-none md:col-span-1">
              {describe(entry)}
            </span>
            <span className="hidden text-body text-muted md:block">
              {entry.gateway ? (GATEWAYS[entry.gateway] ?? entry.gateway) : '—'}
            </span>
            <span className="order-4 col-span-2 flex md:order-none md:col-span-1">
              <span className="sr-only">Status: </span>
              <PaymentStatus status={entry.status} />
            </span>
            <span className="order-3 text-right text-body font-semibold tabular-nums md:order-none">
              <span className="sr-only">Amount: </span>
              {typeof entry.amount === 'number' ? formatMoney(entry.amount, entry.currency ?? 'USD') : '—'}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
