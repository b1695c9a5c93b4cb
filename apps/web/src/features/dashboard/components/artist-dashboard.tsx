import { Disc3, DollarSign, Music, ReceiptText, UsersRound } from 'lucide-react';
import type { ReactNode } from 'react';
import { EmptyState, QueryErrorState, Section, Skeleton } from '../../../components/ui';
import { formatMoney } from '../../../lib/format';
import {
  useGetPurchasedAlbumsQuery,
  useGetPurchasedSongsQuery,
  useGetRevenueSummaryQuery,
  useGetSubscriberCountQuery,
} from '../dashboard.api';
import type { PurchasedItem } from '../dashboard.types';
import { ArtistSubscribers } from './artist-subscribers';
import { DashboardView } from './dashboard-view';
import { StatCard } from './stat-card';

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

/**
 * One artist's dashboard, for its admin page and for the artist's own account: the SPEC's cards (all-time revenue
 * breakdown and subscribers now), the range's charts, top items and transactions, what sold, and who subscribes.
 */
export function ArtistDashboard({ artistId, canRefund = false }: { artistId: string; canRefund?: boolean }) {
  const revenue = useGetRevenueSummaryQuery(artistId, { refetchOnMountOrArgChange: true });
  const subscribers = useGetSubscriberCountQuery(artistId, { refetchOnMountOrArgChange: true });
  const songs = useGetPurchasedSongsQuery(artistId, { refetchOnMountOrArgChange: true });
  const albums = useGetPurchasedAlbumsQuery(artistId, { refetchOnMountOrArgChange: true });
  const currency = revenue.data?.currency ?? subscribers.data?.currency ?? 'USD';
  const money = (value: number | undefined) =>
    typeof value === 'number' ? formatMoney(value, currency) : '—';

  return (
    <>
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

      <h2 className="mb-3 text-meta font-semibold uppercase tracking-wider text-muted">All time</h2>
      <div className="mb-8 grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-5">
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

      <h2 className="mb-3 text-meta font-semibold uppercase tracking-wider text-muted">In a date range</h2>
      <DashboardView artistId={artistId} canRefund={canRefund} />

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
      <Section title="Subscribers" headingId="artist-subscribers">
        <ArtistSubscribers artistId={artistId} />
      </Section>
    </>
  );
}
