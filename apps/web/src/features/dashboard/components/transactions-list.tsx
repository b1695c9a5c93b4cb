import { PaymentStatus } from '../../library';
import { formatDate, formatMoney } from '../../../lib/format';
import type { Transaction } from '../dashboard.types';
import { RefundAction } from './refund-action';

function itemText(transaction: Transaction): string {
  const title = transaction.itemTitle ?? transaction.title;
  const type = transaction.itemType
    ? transaction.itemType.charAt(0).toUpperCase() + transaction.itemType.slice(1)
    : 'Payment';
  return title ? `${type}: ${title}` : type;
}

const GATEWAY_LABELS: Record<string, string> = {
  stripe: 'Stripe',
  razorpay: 'Razorpay',
  paypal: 'PayPal',
  sandbox: 'Demo',
};

/**
 * Transactions as stacked rows on narrow screens and a grid on wide ones (the CSV export has the same columns).
 * With `showArtist` (a list over several artists) the artist is a column; with `canRefund` (admins), a paid row
 * offers a refund.
 */
export function TransactionsList({
  transactions,
  canRefund = false,
  showArtist = false,
}: {
  transactions: Transaction[];
  canRefund?: boolean;
  showArtist?: boolean;
}) {
  // Whole class names (Tailwind finds classes by reading the source, not by running it).
  const columns = showArtist
    ? canRefund
      ? 'md:grid-cols-[100px_minmax(0,1.3fr)_minmax(0,0.8fr)_minmax(0,0.9fr)_72px_104px_96px_100px]'
      : 'md:grid-cols-[100px_minmax(0,1.3fr)_minmax(0,0.8fr)_minmax(0,0.9fr)_72px_104px_96px]'
    : canRefund
      ? 'md:grid-cols-[100px_minmax(0,1.3fr)_minmax(0,1fr)_72px_104px_96px_100px]'
      : 'md:grid-cols-[100px_minmax(0,1.3fr)_minmax(0,1fr)_72px_104px_96px]';
  return (
    <div className="overflow-hidden rounded-card border border-line">
      <div
        aria-hidden="true"
        className={`hidden gap-4 border-b border-line bg-surface px-4 py-3 text-meta font-semibold uppercase tracking-wider text-muted md:grid ${columns}`}
      >
        <span>Date</span>
        <span>Item</span>
        {showArtist && <span>Artist</span>}
        <span>Buyer</span>
        <span>Gateway</span>
        <span>Status</span>
        <span className="text-right">Amount</span>
        {canRefund && <span className="text-right">Action</span>}
      </div>
      <ul aria-label="Transactions">
        {transactions.map((transaction) => (
          <li
            key={transaction._id}
            className={`grid grid-cols-[minmax(0,1fr)_auto] gap-x-4 gap-y-1 border-b border-line px-4 py-3 last:border-b-0 md:items-center ${columns}`}
          >
            <span className="order-1 text-meta text-muted tabular-nums md:order-none md:text-body">
              <span className="sr-only">Date: </span>
              {formatDate(transaction.createdAt) || '—'}
            </span>
            <span className="order-first col-span-2 truncate text-body font-medium md:order-none md:col-span-1">
              {itemText(transaction)}
            </span>
            {showArtist && (
              <span className="hidden truncate text-body text-muted md:block">
                {transaction.artist?.name ?? '—'}
              </span>
            )}
            <span className="hidden truncate text-body text-muted md:block">
              {transaction.user?.name ?? transaction.userName ?? transaction.user?.email ?? 'Deleted account'}
            </span>
            <span className="hidden truncate text-meta text-muted md:block">
              {GATEWAY_LABELS[transaction.gateway ?? ''] ?? transaction.gateway ?? '—'}
            </span>
            <span className="order-3 col-span-2 flex md:order-none md:col-span-1">
              <span className="sr-only">Status: </span>
              <PaymentStatus status={transaction.status} />
            </span>
            <span className="order-2 text-right text-body font-semibold tabular-nums md:order-none">
              <span className="sr-only">Amount: </span>
              {typeof transaction.amount === 'number'
                ? formatMoney(transaction.amount, transaction.currency ?? 'USD')
                : '—'}
            </span>
            {canRefund && (
              <span className="order-4 col-span-2 flex md:order-none md:col-span-1 md:justify-end">
                {transaction.status === 'paid' && (
                  <RefundAction transaction={transaction} itemText={itemText(transaction)} />
                )}
              </span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
