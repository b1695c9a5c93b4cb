import { useState } from 'react';
import { ReceiptText } from 'lucide-react';
import { Button, Modal } from '../../../components/ui';
import { formatDate, formatMoney } from '../../../lib/format';
import type { PaymentHistoryEntry } from '../library.types';
import { PaymentStatus } from './payment-status';

const GATEWAYS: Record<string, string> = {
  stripe: 'Stripe',
  razorpay: 'Razorpay',
  paypal: 'PayPal',
  sandbox: 'Demo',
};

const TYPES: Record<string, string> = { song: 'Song', album: 'Album', subscription: 'Subscription' };

/** One line of the history: a payment (purchase, subscription, renewal) or money given back (refund, dispute). */
interface HistoryRow {
  key: string;
  entry: PaymentHistoryEntry;
  label: string;
  date: string;
  status: string;
  amount: number | null;
  currency: string;
  refund?: NonNullable<PaymentHistoryEntry['refunds']>[number];
}

function rowsOf(entries: PaymentHistoryEntry[]): HistoryRow[] {
  const rows: HistoryRow[] = [];
  for (const entry of entries) {
    const title = entry.title ?? entry.itemTitle ?? '';
    const type = entry.renewal ? 'Renewal' : (TYPES[entry.itemType ?? ''] ?? 'Payment');
    rows.push({
      key: entry._id,
      entry,
      label: title ? `${type}: ${title}` : type,
      date: entry.createdAt ?? '',
      status: entry.status ?? 'pending',
      amount: typeof entry.amount === 'number' ? entry.amount : null,
      currency: entry.currency ?? 'USD',
    });
    for (const refund of entry.refunds ?? []) {
      rows.push({
        key: refund._id,
        entry,
        label: `${REFUND_LABELS[refund.kind]}: ${title}`,
        date: refund.createdAt,
        status: refund.kind === 'dispute' ? 'disputed' : refund.kind === 'reversal' ? 'paid' : 'refunded',
        amount: -refund.amount,
        currency: refund.currency,
        refund,
      });
    }
  }
  return rows.sort((a, b) => b.date.localeCompare(a.date));
}

/** A reversal is a dispute the seller won: the money came back (its amount is negative, shown as a payment). */
const REFUND_LABELS = { refund: 'Refund', dispute: 'Dispute', reversal: 'Dispute won' } as const;

/**
 * Every order, renewal and refund, newest first, each with its receipt: a table-like grid on wide screens,
 * stacked rows on narrow ones (no sideways scroll).
 */
export function PaymentHistoryList({ entries }: { entries: PaymentHistoryEntry[] }) {
  const [receipt, setReceipt] = useState<HistoryRow | null>(null);
  const rows = rowsOf(entries);
  return (
    <div className="overflow-hidden rounded-card border border-line">
      <div
        aria-hidden="true"
        className="hidden grid-cols-[110px_minmax(0,1fr)_90px_120px_100px_90px] gap-4 border-b border-line bg-surface px-4 py-3 text-meta font-semibold uppercase tracking-wider text-muted md:grid"
      >
        <span>Date</span>
        <span>Item</span>
        <span>Method</span>
        <span>Status</span>
        <span className="text-right">Amount</span>
        <span className="text-right">Receipt</span>
      </div>
      <ul aria-label="Payments">
        {rows.map((row) => (
          <li
            key={row.key}
            className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-4 gap-y-1 border-b border-line px-4 py-3 last:border-b-0 md:grid-cols-[110px_minmax(0,1fr)_90px_120px_100px_90px] md:items-center"
          >
            <span className="order-2 text-meta text-muted tabular-nums md:order-none md:text-body">
              <span className="sr-only">Date: </span>
              {formatDate(row.date) || '—'}
            </span>
            <span className="order-1 col-span-2 truncate text-body font-medium md:order-none md:col-span-1">
              {row.label}
            </span>
            <span className="hidden text-body text-muted md:block">
              {row.entry.gateway ? (GATEWAYS[row.entry.gateway] ?? row.entry.gateway) : '—'}
            </span>
            <span className="order-4 flex md:order-none">
              <span className="sr-only">Status: </span>
              <PaymentStatus status={row.status} />
            </span>
            <span className="order-3 text-right text-body font-semibold tabular-nums md:order-none">
              <span className="sr-only">Amount: </span>
              {row.amount === null ? '—' : formatMoney(row.amount, row.currency)}
            </span>
            <span className="order-5 flex justify-end md:order-none">
              {row.status === 'paid' || row.refund ? (
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => setReceipt(row)}
                  aria-label={`Receipt for ${row.label}`}
                  icon={<ReceiptText size={16} strokeWidth={1.75} aria-hidden="true" />}
                >
                  Receipt
                </Button>
              ) : null}
            </span>
          </li>
        ))}
      </ul>
      <Modal
        open={receipt !== null}
        title="Receipt"
        icon={<ReceiptText size={20} strokeWidth={1.75} />}
        onClose={() => setReceipt(null)}
      >
        {receipt ? <Receipt row={receipt} onClose={() => setReceipt(null)} /> : null}
      </Modal>
    </div>
  );
}

function Receipt({ row, onClose }: { row: HistoryRow; onClose: () => void }) {
  const lines: Array<[string, string]> = [
    ['Item', row.entry.itemTitle ?? row.entry.title ?? '—'],
    ['Kind', row.label.split(':')[0] ?? ''],
    ['Amount', row.amount === null ? '—' : formatMoney(row.amount, row.currency)],
    ['Paid with', row.entry.gateway ? (GATEWAYS[row.entry.gateway] ?? row.entry.gateway) : '—'],
    ['Date', formatDate(row.date) || '—'],
    ['Order', row.entry._id],
    ...(row.refund ? ([['Refund', row.refund._id]] as Array<[string, string]>) : []),
  ];
  return (
    <div className="flex flex-col gap-4">
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2 text-body">
        {lines.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-muted">{label}</dt>
            <dd className="truncate text-right tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={() => window.print()}>
          Print
        </Button>
        <Button onClick={onClose}>Close</Button>
      </div>
    </div>
  );
}
