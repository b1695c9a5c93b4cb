import { Disc3, DollarSign, Headphones, Music, ReceiptText, Timer, Undo2, UsersRound } from 'lucide-react';
import { QueryErrorState } from '../../../components/ui';
import { formatMoney, pluralize } from '../../../lib/format';
import { periodLabel } from './chart-format';
import { useGetOverviewQuery } from '../dashboard.api';
import type { DashboardScope } from '../dashboard.types';
import { daysIn, describeChange } from '../dashboard-change';
import { StatCards, type StatCardEntry, type StatChange } from './stat-card';

/**
 * The range's figures: net revenue and its kinds in the main currency, refunds, subscribers now, full plays, and
 * the 30-second previews of locked songs (never counted as plays).
 */
export function OverviewCards({ scope }: { scope: DashboardScope }) {
  const query = useGetOverviewQuery(scope);
  if (query.isError) {
    return (
      <div className="mb-6">
        <QueryErrorState query={query} fallback="Failed to fetch revenue summary" />
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
  const moneyCard = (
    label: string,
    Icon: StatCardEntry['Icon'],
    field: Parameters<typeof moneyChange>[0],
  ) => ({
    label,
    Icon,
    loading,
    value: money(main?.[field]),
    change: moneyChange(field),
  });
  const countCard = (
    label: string,
    Icon: StatCardEntry['Icon'],
    field: 'activeSubscribers' | 'plays' | 'previewPlays',
    since = against,
  ) => ({
    label,
    Icon,
    loading,
    value: data ? data[field].toLocaleString() : '—',
    change: data
      ? ({ ...describeChange(data[field], data.previous[field]), against: since } satisfies StatChange)
      : null,
  });
  const cards: StatCardEntry[] = [
    moneyCard('Net revenue', DollarSign, 'totalRevenue'),
    moneyCard('Songs', Music, 'songRevenue'),
    moneyCard('Albums', Disc3, 'albumRevenue'),
    moneyCard('Subscriptions', ReceiptText, 'subscriptionRevenue'),
    moneyCard('Refunded', Undo2, 'refunded'),
    // A count at one moment: against the end of the previous period.
    countCard(
      'Subscribers now',
      UsersRound,
      'activeSubscribers',
      data ? periodLabel(data.previous.range.to, 'day') : '',
    ),
    countCard('Plays', Headphones, 'plays'),
    countCard('Preview plays', Timer, 'previewPlays'),
  ];
  return (
    <div className="mb-6">
      <StatCards cards={cards} className="md:grid-cols-4" />
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
