import { lazy, Suspense, type ComponentType } from 'react';
import { useDashboardRange } from '../dashboard-range';
import type { DashboardScope, SeriesArgs } from '../dashboard.types';
import { ChartFrame } from './chart-frame';
import { DateRangePicker } from './date-range-picker';
import { OverviewCards } from './overview-cards';
import { TopItems } from './top-items';
import { TransactionsPanel } from './transactions-panel';

/**
 * The charts (recharts and its d3 helpers, ~80 KB gzip) load beside the first screen of a dashboard, not before it:
 * until they arrive each shows the frame it shows while its figures load, so nothing moves.
 */
function lazyChart(title: string, load: () => Promise<ComponentType<{ args: SeriesArgs }>>) {
  const Chart = lazy(() => load().then((component) => ({ default: component })));
  const loading = (
    <ChartFrame
      title={title}
      fallback=""
      empty={false}
      emptyText=""
      table={{ caption: title, columns: [], rows: [] }}
    >
      {null}
    </ChartFrame>
  );
  return function LazyChart({ args }: { args: SeriesArgs }) {
    return (
      <Suspense fallback={loading}>
        <Chart args={args} />
      </Suspense>
    );
  };
}

const RevenueChart = lazyChart('Revenue', () => import('./revenue-chart').then((m) => m.RevenueChart));
const SubscribersChart = lazyChart('Subscribers', () =>
  import('./activity-charts').then((m) => m.SubscribersChart),
);
const PlaysChart = lazyChart('Plays', () => import('./activity-charts').then((m) => m.PlaysChart));

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
