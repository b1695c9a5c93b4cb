import { useId } from 'react';
import { Download, ReceiptText } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { EmptyState, Pager, QueryErrorState, Skeleton, buttonClasses } from '../../../components/ui';
import { buildUrl } from '../../../lib/api';
import { useGetTransactionsPageQuery } from '../dashboard.api';
import type { DashboardScope, TransactionFilters, TransactionSort } from '../dashboard.types';
import { TransactionsList } from './transactions-list';

const PAGE_SIZE = 20;
const fieldClass =
  'h-10 w-full rounded-control border border-line bg-surface-2 px-3 text-body text-text focus-visible:outline-2 focus-visible:outline-accent';

const SORTS: Array<{ value: TransactionSort; label: string }> = [
  { value: '-createdAt', label: 'Newest first' },
  { value: 'createdAt', label: 'Oldest first' },
  { value: '-amount', label: 'Amount, high to low' },
  { value: 'amount', label: 'Amount, low to high' },
];
const capitalise = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);
/** The filters kept in the address under `param`, each with its "any" choice. */
const FILTERS: Array<{
  param: string;
  label: string;
  all: string;
  options: ReadonlyArray<readonly [string, string]>;
}> = [
  {
    param: 'status',
    label: 'Status',
    all: 'Any status',
    options: ['paid', 'pending', 'failed', 'cancelled', 'refunded', 'disputed', 'expired'].map(
      (status) => [status, capitalise(status)] as const,
    ),
  },
  {
    param: 'gateway',
    label: 'Gateway',
    all: 'Any gateway',
    options: [
      ['stripe', 'Stripe'],
      ['razorpay', 'Razorpay'],
      ['paypal', 'PayPal'],
      ['sandbox', 'Demo gateway'],
    ],
  },
  {
    param: 'type',
    label: 'Kind',
    all: 'Everything',
    options: [
      ['song', 'Songs'],
      ['album', 'Albums'],
      ['subscription', 'Subscriptions'],
    ],
  },
];

function Select({
  label,
  value,
  onChange,
  options,
  all,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: ReadonlyArray<readonly [string, string]>;
  all?: string;
}) {
  const id = useId();
  return (
    <label htmlFor={id} className="flex min-w-0 flex-col gap-1 text-meta text-muted">
      {label}
      <select id={id} className={fieldClass} value={value} onChange={(event) => onChange(event.target.value)}>
        {all ? <option value="">{all}</option> : null}
        {options.map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * The transactions of the dashboard's range: filters (artist for admins, status, gateway, kind), order and pages in
 * the address, and a CSV of exactly the rows the filters select, in the same order.
 */
export function TransactionsPanel({
  scope,
  artists,
  canRefund = false,
}: {
  scope: DashboardScope;
  /** Admins on the platform view pick an artist here. */
  artists?: Array<{ _id: string; name: string }>;
  canRefund?: boolean;
}) {
  const [params, setParams] = useSearchParams();
  const sort = (SORTS.find((entry) => entry.value === params.get('sort'))?.value ??
    '-createdAt') as TransactionSort;
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const artistParam = artists ? (params.get('artist') ?? '') : '';
  const filters: TransactionFilters = {
    artistId: scope.artistId ?? (artistParam || undefined),
    from: scope.from,
    to: scope.to,
    status: params.get('status') || undefined,
    gateway: params.get('gateway') || undefined,
    itemType: params.get('type') || undefined,
    sort,
    page,
    limit: PAGE_SIZE,
  };
  const query = useGetTransactionsPageQuery(filters);
  const set = (name: string, value: string) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (value) next.set(name, value);
      else next.delete(name);
      if (name !== 'page') next.delete('page');
      return next;
    });
  const { page: _page, limit: _limit, ...csvFilters } = filters;
  void _page;
  void _limit;
  const csvHref = buildUrl(
    '/admin/dashboard/transactions.csv',
    Object.fromEntries(Object.entries(csvFilters).filter(([, value]) => value !== undefined)) as Record<
      string,
      string
    >,
  );
  const pagination = query.data?.pagination;

  return (
    // Busy while new filters load: the previous rows stay on screen (dimmed) instead of a skeleton flash, and
    // assistive technology and tests know the count shown is not yet the new one.
    <section aria-labelledby="dashboard-transactions" aria-busy={query.isFetching} className="mb-10">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h2 id="dashboard-transactions" className="text-h3 font-semibold tracking-tight">
          Transactions
        </h2>
        <a href={csvHref} download className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
          <Download size={16} strokeWidth={1.75} aria-hidden="true" />
          Download CSV
        </a>
      </div>
      <div className="mb-4 grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-5">
        {artists ? (
          <Select
            label="Artist"
            value={artistParam}
            onChange={(value) => set('artist', value)}
            options={artists.map((artist) => [artist._id, artist.name] as const)}
            all="All artists"
          />
        ) : null}
        {FILTERS.map((filter) => (
          <Select
            key={filter.param}
            label={filter.label}
            value={params.get(filter.param) ?? ''}
            onChange={(value) => set(filter.param, value)}
            options={filter.options}
            all={filter.all}
          />
        ))}
        <Select
          label="Order"
          value={sort}
          onChange={(value) => set('sort', value === '-createdAt' ? '' : value)}
          options={SORTS.map((entry) => [entry.value, entry.label] as const)}
        />
      </div>
      {query.isLoading ? (
        <div className="flex flex-col gap-2" aria-hidden="true">
          {Array.from({ length: 6 }, (_, index) => (
            <Skeleton key={index} className="h-14" />
          ))}
        </div>
      ) : query.isError ? (
        <QueryErrorState query={query} fallback="Failed to fetch transactions" />
      ) : !query.data || query.data.transactions.length === 0 ? (
        <EmptyState
          icon={<ReceiptText size={22} strokeWidth={1.75} />}
          title="No transactions match"
          description="Widen the date range or clear a filter: every purchase, renewal and subscription is listed here."
        />
      ) : (
        <div className={query.isFetching ? 'opacity-60 transition-opacity' : 'transition-opacity'}>
          <p className="mb-2 text-meta text-muted tabular-nums" aria-live="polite">
            {pagination!.totalCapped
              ? `More than ${pagination!.total.toLocaleString()} transactions: narrow the filters or download the CSV for all of them`
              : `${pagination!.total.toLocaleString()} transaction${pagination!.total === 1 ? '' : 's'}`}
          </p>
          <TransactionsList
            transactions={query.data.transactions}
            canRefund={canRefund}
            showArtist={!scope.artistId}
          />
          <Pager
            page={page}
            pages={pagination!.totalPages}
            onChange={(next) => set('page', next === 1 ? '' : String(next))}
            label="Transaction pages"
          />
        </div>
      )}
    </section>
  );
}
