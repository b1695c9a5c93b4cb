import { useState } from 'react';
import { UsersRound } from 'lucide-react';
import { EmptyState, Pager, QueryErrorState, Skeleton } from '../../../components/ui';
import { formatDate } from '../../../lib/format';
import { useGetArtistSubscribersQuery } from '../dashboard.api';

const CYCLES: Record<string, string> = {
  '1m': 'Monthly',
  '3m': 'Every 3 months',
  '6m': 'Every 6 months',
  '12m': 'Yearly',
};

/** The artist's subscribers whose paid period runs now, newest first, with when it renews or ends. */
export function ArtistSubscribers({ artistId }: { artistId: string }) {
  const [page, setPage] = useState(1);
  const query = useGetArtistSubscribersQuery({ artistId, page });
  if (query.isLoading) return <Skeleton className="h-40" />;
  if (query.isError) {
    return <QueryErrorState query={query} fallback="Failed to fetch subscriber count" />;
  }
  const list = query.data?.subscribers ?? [];
  if (list.length === 0) {
    return (
      <EmptyState
        icon={<UsersRound size={22} strokeWidth={1.75} />}
        title="No subscribers right now"
        description="Listeners subscribe from the artist's page; set a subscription price in the Studio to offer it."
      />
    );
  }
  return (
    <>
      <ul className="overflow-hidden rounded-card border border-line" aria-label="Subscribers">
        {list.map((subscriber) => (
          <li
            key={subscriber._id}
            className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 border-b border-line px-4 py-3 last:border-b-0"
          >
            <span className="min-w-0 truncate text-body font-medium">{subscriber.user.name}</span>
            <span className="text-meta text-muted tabular-nums">
              {CYCLES[subscriber.cycle] ?? subscriber.cycle} · since {formatDate(subscriber.since)} ·{' '}
              {subscriber.cancelAtPeriodEnd ? 'ends' : 'renews'} {formatDate(subscriber.currentPeriodEnd)}
            </span>
          </li>
        ))}
      </ul>
      <Pager
        page={page}
        pages={query.data?.pagination.totalPages ?? 1}
        onChange={setPage}
        label="Subscriber pages"
      />
    </>
  );
}
