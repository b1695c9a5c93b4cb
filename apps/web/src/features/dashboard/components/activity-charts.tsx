import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { pluralize } from '../../../lib/format';
import { useGetPlaysSeriesQuery, useGetSubscribersSeriesQuery } from '../dashboard.api';
import type { SeriesArgs } from '../dashboard.types';
import { ChartFrame } from './chart-frame';
import {
  CHART_COLORS,
  CHART_GRID,
  CHART_MARGIN,
  CHART_TOOLTIP,
  GRID_COLOR,
  PERIOD_AXIS,
  VALUE_AXIS,
  compactNumber,
  periodLabel,
} from './chart-format';

/** Subscribers at the end of each period, with how many started and ended. */
export function SubscribersChart({ args }: { args: SeriesArgs }) {
  const query = useGetSubscribersSeriesQuery(args);
  const points = (query.data?.points ?? []).map((point) => ({
    ...point,
    label: periodLabel(point.period, args.bucket),
  }));
  const last = points.at(-1);
  return (
    <ChartFrame
      title="Subscribers"
      headline={last ? `${last.activeSubscribers.toLocaleString()} at the end of the range` : undefined}
      query={query}
      fallback="Failed to fetch subscriber count"
      empty={points.every(
        (p) => p.activeSubscribers === 0 && p.newSubscribers === 0 && p.endedSubscribers === 0,
      )}
      emptyText="Listeners who subscribe to an artist are counted here for as long as their paid period runs."
      table={{
        caption: 'Subscribers by period',
        columns: ['Period', 'Subscribers at the end', 'New', 'Ended'],
        rows: points.map((p) => [p.label, p.activeSubscribers, p.newSubscribers, p.endedSubscribers]),
      }}
    >
      <ResponsiveContainer width="100%" height="100%">
        <AreaChart accessibilityLayer={false} data={points} margin={CHART_MARGIN}>
          <CartesianGrid {...CHART_GRID} />
          <XAxis {...PERIOD_AXIS} />
          <YAxis {...VALUE_AXIS} width={40} allowDecimals={false} tickFormatter={compactNumber} />
          <Tooltip {...CHART_TOOLTIP} cursor={{ stroke: GRID_COLOR }} />
          <Area
            type="stepAfter"
            dataKey="activeSubscribers"
            name="Subscribers"
            stroke={CHART_COLORS.subscriptions}
            fill={CHART_COLORS.subscriptions}
            fillOpacity={0.2}
          />
        </AreaChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}

/** Full plays per period, and beside them the previews of locked songs (not plays: a figure of their own). */
export function PlaysChart({ args }: { args: SeriesArgs }) {
  const query = useGetPlaysSeriesQuery(args);
  const points = (query.data?.points ?? []).map((point) => ({
    ...point,
    label: periodLabel(point.period, args.bucket),
  }));
  const total = points.reduce((sum, point) => sum + point.plays, 0);
  const previews = points.reduce((sum, point) => sum + point.previewPlays, 0);
  return (
    <ChartFrame
      title="Plays"
      headline={
        query.data ? `${total.toLocaleString()} in the range · ${pluralize(previews, 'preview')}` : undefined
      }
      query={query}
      fallback="Something went wrong"
      empty={total === 0 && previews === 0}
      emptyText="Full listens are counted here on the day they were played, previews of locked songs beside them."
      table={{
        caption: 'Plays and preview plays by period',
        columns: ['Period', 'Plays', 'Preview plays'],
        rows: points.map((p) => [p.label, p.plays, p.previewPlays]),
      }}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart accessibilityLayer={false} data={points} margin={CHART_MARGIN}>
          <CartesianGrid {...CHART_GRID} />
          <XAxis {...PERIOD_AXIS} />
          <YAxis {...VALUE_AXIS} width={40} allowDecimals={false} tickFormatter={compactNumber} />
          <Tooltip {...CHART_TOOLTIP} />
          <Bar dataKey="plays" name="Plays" fill={CHART_COLORS.albums} />
          <Bar dataKey="previewPlays" name="Preview plays" fill={CHART_COLORS.subscriptions} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
        </BarChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
