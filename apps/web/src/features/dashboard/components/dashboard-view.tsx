import { useDashboardRange } from '../dashboard-range';
import type { DashboardScope } from '../dashboard.types';
import { PlaysChart, SubscribersChart } from './activity-charts';
import { DateRangePicker } from './date-range-picker';
import { OverviewCards } from './overview-cards';
import { RevenueChart } from './revenue-chart';
import { TopItems } from './top-items';
import { TransactionsPanel } from './transactions-panel';

/**
 * A dashboard over a date range: the range picker, the range's cards, revenue, subscribers and plays over time, the
 * top sellers and the transactions. `artistId` reads one artist (the admin's per-artist page, an artist's own
 * dashboard); without it, an admin reads the whole platform (then top artists and an artist filter are offered).
 */
export function DashboardView({
  artistId,
  artists,
  canRefund = false,
}: {
  artistId?: string;
  artists?: Array<{ _id: string; name: string }>;
  canRefund?: boolean;
}) {
  const range = useDashboardRange();
  const scope: DashboardScope = { artistId, from: range.from, to: range.to };
  const series = { ...scope, bucket: range.bucket };
  return (
    <>
      <DateRangePicker range={range} />
      <OverviewCards scope={scope} />
      <div className="mb-6 grid gap-4 xl:grid-cols-2">
        <div className="xl:col-span-2">
          <RevenueChart args={series} />
        </div>
        <SubscribersChart args={series} />
        <PlaysChart args={series} />
      </div>
      <div className={`mb-10 grid gap-4 ${artistId ? 'lg:grid-cols-2' : 'lg:grid-cols-3'}`}>
        {artistId ? null : <TopItems scope={scope} type="artist" />}
        <TopItems scope={scope} type="song" />
        <TopItems scope={scope} type="album" />
      </div>
      <TransactionsPanel scope={scope} artists={artistId ? undefined : artists} canRefund={canRefund} />
    </>
  );
}
