import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import type { TransactionSort } from '@backbeat/contract';
import type {
  DashboardRepository,
  TransactionCursor,
  TransactionFilter,
  TransactionRow,
} from './dashboard.repository';

/** Orders per database round trip: big enough to stream fast, small enough to hold little memory. */
const BATCH = 500;

const ITEM_TYPES = { song: 'Song', album: 'Album', subscription: 'Subscription' } as const;

/** Minor units as a decimal amount in the currency's own precision (1299 USD -> 12.99, 500 JPY -> 500). */
export function decimalAmount(minorUnits: number, currency: string): string {
  let digits = 2;
  try {
    digits =
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ??
      2;
  } catch {
    // An unknown code keeps two decimals.
  }
  return (minorUnits / 10 ** digits).toFixed(digits);
}

/** The columns of the dashboard's transactions table, plus ids (and buyers' e-mail for admins). */
function columns(withEmail: boolean): Array<{ key: string; header: string }> {
  return [
    { key: 'date', header: 'Date (UTC)' },
    { key: 'orderId', header: 'Order' },
    { key: 'type', header: 'Type' },
    { key: 'item', header: 'Item' },
    { key: 'artist', header: 'Artist' },
    { key: 'buyer', header: 'Buyer' },
    ...(withEmail ? [{ key: 'email', header: 'Buyer e-mail' }] : []),
    { key: 'gateway', header: 'Gateway' },
    { key: 'status', header: 'Status' },
    { key: 'amount', header: 'Amount' },
    { key: 'currency', header: 'Currency' },
  ];
}

function record(row: TransactionRow, withEmail: boolean): Record<string, string | number> {
  return {
    date: row.createdAt.toISOString(),
    orderId: row.id,
    type: ITEM_TYPES[row.itemType],
    item: row.itemTitle,
    artist: row.artistName ?? '',
    buyer: row.userName ?? 'Deleted account',
    ...(withEmail ? { email: row.userEmail ?? '' } : {}),
    gateway: row.gateway,
    status: row.status,
    amount: decimalAmount(row.amount, row.currency),
    currency: row.currency,
  };
}

/**
 * The matching orders as CSV, streamed: keyset batches of BATCH rows in the list's order, each written as soon as it
 * is read, so memory stays flat however many rows match. Text cells that a spreadsheet would run as a formula (=, +,
 * -, @, tab, carriage return first) are prefixed with a quote.
 */
export function transactionsCsv(
  repo: Pick<DashboardRepository, 'transactionBatch'>,
  filter: TransactionFilter,
  sort: TransactionSort,
  withEmail: boolean,
  batch = BATCH,
): Readable {
  const header = columns(withEmail);
  async function* lines(): AsyncGenerator<string> {
    yield stringify([header.map((column) => column.header)]);
    let cursor: TransactionCursor | null = null;
    for (;;) {
      const rows = await repo.transactionBatch(filter, sort, cursor, batch);
      if (rows.length > 0) {
        yield stringify(
          rows.map((row) => record(row, withEmail)),
          { columns: header.map((column) => column.key), escape_formulas: true },
        );
      }
      if (rows.length < batch) return;
      const last = rows[rows.length - 1]!;
      cursor = { createdAt: last.cursorAt, amount: last.amount, id: last.id };
    }
  }
  return Readable.from(lines(), { objectMode: false });
}
