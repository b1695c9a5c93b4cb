import { Disc3, DollarSign, Headphones, Music, ReceiptText, Timer, Undo2, UsersRound } from 'lucide-react';
import { QueryErrorState } from '../../../components/ui';
import { formatMoney, pluralize } from '../../../lib/format';
import { useGetOverviewQuery } from '../dashboard.api';
import type { DashboardScope } from '../dashboard.types';
import { StatCard } from './stat-card';

const icon = (Icon: typeof Music) => <Icon size={18} strokeWidth={1.75} />;

/**
 * The range's figures: net revenue and its kinds in the main currency, refunds, subscribers now, full plays, and
 * the 30-second previews of locked songs (never counted as plays).
 */
export function OverviewCards({ scope }: { scope: DashboardScope }) {
  const query = useGetOverviewQuery(scope);
  if (query.isError) {
    return (
      <div className="mb-6">
        <QueryErrorState
          error={query.error}
          fallback="Failed to fetch revenue summary"
          onRetry={() => void query.refetch()}
        />
      </div>
    );
  }
  const data = query.data;
  const main = data?.revenue[0];
  const currency = main?.currency ?? data?.currency ?? 'USD';
  const money = (value: number | undefined) =>
    typeof value === 'number' ? formatMoney(value, currency) : '—';
  const others = (data?.revenue ?? []).slice(1).filter((entry) => entry.sales || entry.refunds);
  const loading = query.isLoading;
  return (
    <div className="mb-6">
      <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <StatCard
          label="Net revenue"
          icon={icon(DollarSign)}
          loading={loading}
          value={money(main?.totalRevenue)}
        />
        <StatCard label="Songs" icon={icon(Music)} loading={loading} value={money(main?.songRevenue)} />
        <StatCard label="Albums" icon={icon(Disc3)} loading={loading} value={money(main?.albumRevenue)} />
        <StatCard
          label="Subscriptions"
          icon={icon(ReceiptText)}
          loading={loading}
          value={money(main?.subscriptionRevenue)}
        />
        <StatCard
          label="Refunded"
          icon={icon(Undo2)}
          loading={loading}
          value={main ? `${money(main.refunded)}` : '—'}
        />
        <StatCard
          label="Subscribers now"
          icon={icon(UsersRound)}
          loading={loading}
          value={data ? data.activeSubscribers.toLocaleString() : '—'}
        />
        <StatCard
          label="Plays"
          icon={icon(Headphones)}
          loading={loading}
          value={data ? data.plays.toLocaleString() : '—'}
        />
        <StatCard
          label="Preview plays"
          icon={icon(Timer)}
          loading={loading}
          value={data ? data.previewPlays.toLocaleString() : '—'}
        />
      </div>
      {data ? (
        <p className="mt-3 text-meta text-muted tabular-nums">
          {pluralize(main?.sales ?? 0, 'payment')} and {pluralize(main?.refunds ?? 0, 'refund')} in {currency}
          ; {data.newSubscribers.toLocaleString()} new and {data.endedSubscribers.toLocaleString()} ended
          subscriptions.
          {others.length > 0
            ? ` Also paid in ${others
                .map((entry) => `${entry.currency}: ${formatMoney(entry.totalRevenue, entry.currency)} net`)
                .join(', ')} (never added to ${currency}).`
            : ''}
        </p>
      ) : null}
    </div>
  );
}
