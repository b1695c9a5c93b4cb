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
import { StatCards, type StatCardEntry } from './stat-card';

/** What sold of one kind (songs or albums): a row per item with its count and revenue, or an empty state. */
function PurchasedSection({
  kind,
  query,
  emptyIcon,
  currency,
}: {
  kind: 'songs' | 'albums';
  query: {
    data?: PurchasedItem[];
    error?: unknown;
    isLoading: boolean;
    isError: boolean;
    refetch: () => unknown;
  };
  emptyIcon: ReactNode;
  currency: string;
}) {
  const items = query.data ?? [];
  return (
    <Section title={`Purchased ${kind}`} headingId={`purchased-${kind}`}>
      {query.isLoading ? (
        <Skeleton className="h-40" />
      ) : query.isError ? (
        <QueryErrorState query={query} fallback={`Failed to fetch purchased ${kind}`} />
      ) : items.length === 0 ? (
        <EmptyState icon={emptyIcon} title={`No ${kind} sold yet`} />
      ) : (
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
      )}
    </Section>
  );
}

/** A failed figure above the cards, with its retry. */
function FigureError({
  query,
  fallback,
}: {
  query: { isError: boolean; error?: unknown; refetch: () => unknown };
  fallback: string;
}) {
  if (!query.isError) return null;
  return (
    <div className="mb-6">
      <QueryErrorState query={query} fallback={fallback} />
    </div>
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

  const cards: StatCardEntry[] = [
    { label: 'Total revenue', Icon: DollarSign, value: money(revenue.data?.totalRevenue) },
    { label: 'Song sales', Icon: Music, value: money(revenue.data?.songRevenue) },
    { label: 'Album sales', Icon: Disc3, value: money(revenue.data?.albumRevenue) },
    { label: 'Subscriptions', Icon: ReceiptText, value: money(revenue.data?.subscriptionRevenue) },
  ].map((card) => ({ ...card, loading: revenue.isLoading }));
  cards.push({
    label: 'Active subscribers',
    Icon: UsersRound,
    loading: subscribers.isLoading,
    value: subscribers.data ? subscribers.data.activeSubscribers.toLocaleString() : '—',
  });

  return (
    <>
      <FigureError query={revenue} fallback="Failed to fetch revenue summary" />
      <FigureError query={subscribers} fallback="Failed to fetch subscriber count" />

      <h2 className="mb-3 text-meta font-semibold uppercase tracking-wider text-muted">All time</h2>
      <StatCards cards={cards} className="mb-8 md:grid-cols-3 xl:grid-cols-5" />

      <h2 className="mb-3 text-meta font-semibold uppercase tracking-wider text-muted">In a date range</h2>
      <DashboardView artistId={artistId} canRefund={canRefund} />

      <div className="grid gap-x-8 xl:grid-cols-2">
        <PurchasedSection
          kind="songs"
          query={songs}
          currency={currency}
          emptyIcon={<Music size={22} strokeWidth={1.75} />}
        />
        <PurchasedSection
          kind="albums"
          query={albums}
          currency={currency}
          emptyIcon={<Disc3 size={22} strokeWidth={1.75} />}
        />
      </div>
      <Section title="Subscribers" headingId="artist-subscribers">
        <ArtistSubscribers artistId={artistId} />
      </Section>
    </>
  );
}
