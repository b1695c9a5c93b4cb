import { ArrowLeft, Disc3, DollarSign, Music, ReceiptText, UsersRound } from 'lucide-react';
import { Link, useParams } from 'react-router';
import type { ReactNode } from 'react';
import { EmptyState, PageHeader, QueryErrorState, Section, Skeleton, buttonClasses } from '../components/ui';
import { useGetArtistQuery } from '../features/catalog';
import {
  StatCard,
  TransactionsList,
  useGetPurchasedAlbumsQuery,
  useGetPurchasedSongsQuery,
  useGetRevenueSummaryQuery,
  useGetSubscriberCountQuery,
  useGetTransactionsQuery,
  type PurchasedItem,
} from '../features/dashboard';
import { formatMoney } from '../lib/format';

function PurchasedItems({
  items,
  emptyIcon,
  emptyTitle,
  currency,
}: {
  items: PurchasedItem[];
  emptyIcon: ReactNode;
  emptyTitle: string;
  currency: string;
}) {
  if (items.length === 0) return <EmptyState icon={emptyIcon} title={emptyTitle} />;
  return (
    <ul className="overflow-hidden rounded-card border border-line">
      {items.map((item) => {
        const count = item.purchases ?? item.purchaseCount ?? item.count;
        return (
          <li
            key={item._id}
            className="flex items-center justify-between gap-4 border-b border-line px-4 py-3 last:border-b-0"
          >
            <span className="min-w-0 truncate text-body font-medium">
              {item.title ?? item.name ?? 'Untitled'}
            </span>
            <span className="flex shrink-0 gap-4 text-body text-muted tabular-nums">
              {typeof count === 'number' ? <span>{count} sold</span> : null}
              {typeof item.revenue === 'number' ? (
                <span className="font-semibold text-text">
                  {formatMoney(item.revenue, item.currency ?? currency)}
                </span>
              ) : null}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

export default function AdminPaymentsPage() {
  const { artistId = '' } = useParams();
  const artist = useGetArtistQuery(artistId);
  const revenue = useGetRevenueSummaryQuery(artistId, { refetchOnMountOrArgChange: true });
  const subscribers = useGetSubscriberCountQuery(artistId, { refetchOnMountOrArgChange: true });
  const songs = useGetPurchasedSongsQuery(artistId, { refetchOnMountOrArgChange: true });
  const albums = useGetPurchasedAlbumsQuery(artistId, { refetchOnMountOrArgChange: true });
  const transactions = useGetTransactionsQuery(
    { artistId, page: 1, limit: 20 },
    { refetchOnMountOrArgChange: true },
  );
  const currency = revenue.data?.currency ?? subscribers.data?.currency ?? artist.data?.currency ?? 'USD';
  const money = (value: number | undefined) =>
    typeof value === 'number' ? formatMoney(value, currency) : '—';

  return (
    <>
      <title>{`${artist.data?.name ?? 'Artist'} payments · Admin · Backbeat`}</title>
      <Link to="/admin" className={buttonClasses({ variant: 'ghost', size: 'sm', className: 'mb-4 -ml-3' })}>
        <ArrowLeft size={16} strokeWidth={1.75} aria-hidden="true" />
        Dashboard
      </Link>
      <PageHeader
        eyebrow="Artist payments"
        title={artist.data?.name ?? (artist.isLoading ? 'Loading…' : 'Artist')}
        description="Revenue, subscribers and purchases for this artist."
      />

      {revenue.isError ? (
        <div className="mb-6">
          <QueryErrorState
            error={revenue.error}
            fallback="Failed to fetch revenue summary"
            onRetry={() => void revenue.refetch()}
          />
        </div>
      ) : null}
      {subscribers.isError ? (
        <div className="mb-6">
          <QueryErrorState
            error={subscribers.error}
            fallback="Failed to fetch subscriber count"
            onRetry={() => void subscribers.refetch()}
          />
        </div>
      ) : null}

      <div className="mb-10 grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-5">
        <StatCard
          label="Total revenue"
          icon={<DollarSign size={18} strokeWidth={1.75} />}
          loading={revenue.isLoading}
          value={money(revenue.data?.totalRevenue)}
        />
        <StatCard
          label="Song sales"
          icon={<Music size={18} strokeWidth={1.75} />}
          loading={revenue.isLoading}
          value={money(revenue.data?.songRevenue)}
        />
        <StatCard
          label="Album sales"
          icon={<Disc3 size={18} strokeWidth={1.75} />}
          loading={revenue.isLoading}
          value={money(revenue.data?.albumRevenue)}
        />
        <StatCard
          label="Subscriptions"
          icon={<ReceiptText size={18} strokeWidth={1.75} />}
          loading={revenue.isLoading}
          value={money(revenue.data?.subscriptionRevenue)}
        />
        <StatCard
          label="Active subscribers"
          icon={<UsersRound size={18} strokeWidth={1.75} />}
          loading={subscribers.isLoading}
          value={subscribers.data ? subscribers.data.activeSubscribers.toLocaleString() : '—'}
        />
      </div>

      <div className="grid gap-x-8 xl:grid-cols-2">
        <Section title="Purchased songs" headingId="purchased-songs">
          {songs.isLoading ? (
            <Skeleton className="h-40" />
          ) : songs.isError ? (
            <QueryErrorState
              error={songs.error}
              fallback="Failed to fetch purchased songs"
              onRetry={() => void songs.refetch()}
            />
          ) : (
            <PurchasedItems
              items={songs.data ?? []}
              currency={currency}
              emptyIcon={<Music size={22} strokeWidth={1.75} />}
              emptyTitle="No songs sold yet"
            />
          )}
        </Section>
        <Section title="Purchased albums" headingId="purchased-albums">
          {albums.isLoading ? (
            <Skeleton className="h-40" />
          ) : albums.isError ? (
            <QueryErrorState
              error={albums.error}
              fallback="Failed to fetch purchased albums"
              onRetry={() => void albums.refetch()}
            />
          ) : (
            <PurchasedItems
              items={albums.data ?? []}
              currency={currency}
              emptyIcon={<Disc3 size={22} strokeWidth={1.75} />}
              emptyTitle="No albums sold yet"
            />
          )}
        </Section>
      </div>

      <Section title="Transactions" headingId="artist-transactions">
        {transactions.isLoading ? (
          <Skeleton className="h-40" />
        ) : transactions.isError ? (
          <QueryErrorState
            error={transactions.error}
            fallback="Failed to fetch transactions"
            onRetry={() => void transactions.refetch()}
          />
        ) : !transactions.data || transactions.data.length === 0 ? (
          <EmptyState
            icon={<ReceiptText size={22} strokeWidth={1.75} />}
            title="No transactions yet"
            description="Purchases of this artist's songs and albums, and subscriptions to them, are listed here."
          />
        ) : (
          <TransactionsList transactions={transactions.data} canRefund />
        )}
      </Section>
    </>
  );
}
