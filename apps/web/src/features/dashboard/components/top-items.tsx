import { useState } from 'react';
import { Trophy } from 'lucide-react';
import { EmptyState, QueryErrorState, Skeleton, cx } from '../../../components/ui';
import { formatMoney } from '../../../lib/format';
import { useGetTopItemsQuery } from '../dashboard.api';
import type { DashboardScope } from '../dashboard.types';

const TITLES = { song: 'Top songs', album: 'Top albums', artist: 'Top artists' } as const;

/** The range's best sellers or most played, switchable, with revenue, sales and plays side by side. */
export function TopItems({ scope, type }: { scope: DashboardScope; type: 'song' | 'album' | 'artist' }) {
  const [by, setBy] = useState<'revenue' | 'plays'>('revenue');
  const query = useGetTopItemsQuery({ ...scope, type, by, limit: 5 });
  const headingId = `top-${type}`;
  return (
    <section
      aria-labelledby={headingId}
      className="flex min-w-0 flex-col rounded-card border border-line bg-surface p-4 md:p-5"
    >
      <div className="mb-3 flex items-center justify-between gap-2">
        <h3 id={headingId} className="text-body font-semibold">
          {TITLES[type]}
        </h3>
        <div
          role="group"
          aria-label={`${TITLES[type]} by`}
          className="flex rounded-pill border border-line p-0.5"
        >
          {(['revenue', 'plays'] as const).map((option) => (
            <button
              key={option}
              type="button"
              aria-pressed={by === option}
              onClick={() => setBy(option)}
              className={cx(
                'rounded-pill px-3 py-1 text-meta font-medium transition-colors duration-150',
                by === option ? 'bg-accent text-bg' : 'text-muted hover:text-text',
              )}
            >
              {option === 'revenue' ? 'Revenue' : 'Plays'}
            </button>
          ))}
        </div>
      </div>
      {query.isLoading ? (
        <Skeleton className="h-48" />
      ) : query.isError ? (
        <QueryErrorState query={query} fallback="Something went wrong" />
      ) : !query.data || query.data.items.length === 0 ? (
        <EmptyState
          icon={<Trophy size={22} strokeWidth={1.75} />}
          title={by === 'revenue' ? 'No sales in this range' : 'No plays in this range'}
          description="Pick a longer range above to compare more days."
        />
      ) : (
        <ol className="flex flex-col">
          {query.data.items.map((item, index) => (
            <li key={item._id} className="flex items-center gap-3 border-b border-line py-2 last:border-b-0">
              <span className="w-5 shrink-0 text-meta text-muted tabular-nums">{index + 1}</span>
              <span className="min-w-0 flex-1">
                <span className="block truncate text-body font-medium">{item.title}</span>
                {item.artist ? (
                  <span className="block truncate text-meta text-muted">{item.artist.name}</span>
                ) : null}
              </span>
              <span className="shrink-0 text-right tabular-nums">
                <span className={cx('block text-body', by === 'revenue' && 'font-semibold')}>
                  {formatMoney(item.revenue, query.data.currency)}
                </span>
                <span
                  className={cx('block text-meta text-muted', by === 'plays' && 'font-semibold text-text')}
                >
                  {item.plays.toLocaleString()} plays · {item.sales.toLocaleString()} sold
                </span>
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
