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

/**
 * The first characters that make a spreadsheet read a cell as a formula or split it: OWASP's CSV injection list
 * (=, +, -, @, tab, carriage return), the semicolon (a field separator for spreadsheets in locales that use it, so
 * `;=cmd|...` starts a formula in the next cell), line feed, and the full-width forms of = + - @ that some
 * spreadsheets normalise.
 */
const FORMULA_START = /^[=+\-@\t\r\n;\uFF1D\uFF0B\uFF0D\uFF20]/;

/** A text cell a spreadsheet shows as text: one leading apostrophe (OWASP's advice) when it could start a formula. */
export function defuseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

function record(row: TransactionRow, withEmail: boolean): Record<string, string | number> {
  return {
    date: row.createdAt.toISOString(),
    orderId: row.id,
    type: ITEM_TYPES[row.itemType],
    // Free text typed by artists and buyers; the other columns are the app's own words, ids and numbers.
    item: defuseFormula(row.itemTitle),
    artist: defuseFormula(row.artistName ?? ''),
    buyer: row.userName === null ? 'Deleted account' : defuseFormula(row.userName),
    ...(withEmail ? { email: defuseFormula(row.userEmail ?? '') } : {}),
    gateway: row.gateway,
    status: row.status,
    amount: decimalAmount(row.amount, row.currency),
    currency: row.currency,
  };
}

/**
 * The matching orders as CSV, streamed: keyset batches of BATCH rows in the list's order, each written as soon as it
 * is read, so memory stays flat however many rows match. Text cells that a spreadsheet would run as a formula are
 * prefixed with a quote (see `defuseFormula`).
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
          { columns: header.map((column) => column.key) },
        );
      }
      if (rows.length < batch) return;
      const last = rows[rows.length - 1]!;
      cursor = { createdAt: last.cursorAt, amount: last.amount, id: last.id };
    }
  }
  return Readable.from(lines(), { objectMode: false });
}
