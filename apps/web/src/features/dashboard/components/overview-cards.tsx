import { Disc3, DollarSign, Headphones, Music, ReceiptText, Timer, Undo2, UsersRound } from 'lucide-react';
import { QueryErrorState } from '../../../components/ui';
import { formatMoney, pluralize } from '../../../lib/format';
import { periodLabel } from './chart-format';
import { useGetOverviewQuery } from '../dashboard.api';
import type { DashboardScope } from '../dashboard.types';
import { daysIn, describeChange } from '../dashboard-change';
import { StatCard, type StatChange } from './stat-card';

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
  // Each card against the period of the same length before the range (the server computes its figures).
  const before = data?.previous.revenue.find((entry) => entry.currency === currency);
  const against = data ? `previous ${pluralize(daysIn(data.previous.range), 'day')}` : '';
  const moneyChange = (
    field: 'totalRevenue' | 'songRevenue' | 'albumRevenue' | 'subscriptionRevenue' | 'refunded',
  ) =>
    main && data
      ? ({
          ...describeChange(main[field], before?.[field] ?? 0, (value) => formatMoney(value, currency)),
          against,
          better: field === 'refunded' ? 'down' : 'up',
        } satisfies StatChange)
      : null;
  const countChange = (
    current: number | undefined,
    previous: number | undefined,
    since = against,
  ): StatChange | null =>
    data && current !== undefined && previous !== undefined
      ? { ...describeChange(current, previous), against: since }
      : null;
  return (
    <div className="mb-6">
      <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <StatCard
          label="Net revenue"
          icon={icon(DollarSign)}
          loading={loading}
          value={money(main?.totalRevenue)}
          change={moneyChange('totalRevenue')}
        />
        <StatCard
          label="Songs"
          icon={icon(Music)}
          loading={loading}
          value={money(main?.songRevenue)}
          change={moneyChange('songRevenue')}
        />
        <StatCard
          label="Albums"
          icon={icon(Disc3)}
          loading={loading}
          value={money(main?.albumRevenue)}
          change={moneyChange('albumRevenue')}
        />
        <StatCard
          label="Subscriptions"
          icon={icon(ReceiptText)}
          loading={loading}
          value={money(main?.subscriptionRevenue)}
          change={moneyChange('subscriptionRevenue')}
        />
        <StatCard
          label="Refunded"
          icon={icon(Undo2)}
          loading={loading}
          value={main ? `${money(main.refunded)}` : '—'}
          change={moneyChange('refunded')}
        />
        <StatCard
          label="Subscribers now"
          icon={icon(UsersRound)}
          loading={loading}
          value={data ? data.activeSubscribers.toLocaleString() : '—'}
          // A count at one moment: against the end of the previous period.
          change={countChange(
            data?.activeSubscribers,
            data?.previous.activeSubscribers,
            data ? periodLabel(data.previous.range.to, 'day') : '',
          )}
        />
        <StatCard
          label="Plays"
          icon={icon(Headphones)}
          loading={loading}
          value={data ? data.plays.toLocaleString() : '—'}
          change={countChange(data?.plays, data?.previous.plays)}
        />
        <StatCard
          label="Preview plays"
          icon={icon(Timer)}
          loading={loading}
          value={data ? data.previewPlays.toLocaleString() : '—'}
          change={countChange(data?.previewPlays, data?.previous.previewPlays)}
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
