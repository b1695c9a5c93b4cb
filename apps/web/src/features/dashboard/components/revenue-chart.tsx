import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatMoney } from '../../../lib/format';
import { useGetRevenueSeriesQuery } from '../dashboard.api';
import type { SeriesArgs } from '../dashboard.types';
import { ChartFrame } from './chart-frame';
import {
  CHART_COLORS,
  CHART_GRID,
  CHART_MARGIN,
  CHART_TOOLTIP,
  PERIOD_AXIS,
  VALUE_AXIS,
  compactMoney,
  periodLabel,
} from './chart-format';

/** Revenue over time in the main currency, stacked by songs, albums and subscriptions (refunds already taken off). */
export function RevenueChart({ args }: { args: SeriesArgs }) {
  const query = useGetRevenueSeriesQuery(args);
  const data = query.data;
  const main = data?.series[0];
  const currency = main?.currency ?? data?.currency ?? 'USD';
  const points = (main?.points ?? []).map((point) => ({
    ...point,
    label: periodLabel(point.period, data?.bucket ?? args.bucket),
  }));
  const total = points.reduce((sum, point) => sum + point.totalRevenue, 0);
  const others = (data?.series ?? []).slice(1).map((series) => {
    const sum = series.points.reduce((acc, point) => acc + point.totalRevenue, 0);
    return formatMoney(sum, series.currency);
  });
  const money = (value: number) => formatMoney(value, currency);
  return (
    <ChartFrame
      title="Revenue"
      headline={
        data ? `${money(total)} net${others.length ? ` · also ${others.join(', ')}` : ''}` : undefined
      }
      query={query}
      fallback="Failed to fetch revenue summary"
      empty={points.every((point) => point.sales === 0 && point.refunds === 0)}
      emptyText="Sales, renewals and refunds appear here by day as they happen. Try a longer range."
      table={{
        caption: `Revenue in ${currency} by period`,
        columns: ['Period', 'Songs', 'Albums', 'Subscriptions', 'Refunded', 'Net'],
        rows: points.map((p) => [
          p.label,
          money(p.songRevenue),
          money(p.albumRevenue),
          money(p.subscriptionRevenue),
          money(p.refunded),
          money(p.totalRevenue),
        ]),
      }}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart accessibilityLayer={false} data={points} stackOffset="sign" margin={CHART_MARGIN}>
          <CartesianGrid {...CHART_GRID} />
          <XAxis {...PERIOD_AXIS} />
          <YAxis
            {...VALUE_AXIS}
            width={52}
            tickFormatter={(value: number) => compactMoney(value, currency)}
          />
          <Tooltip {...CHART_TOOLTIP} formatter={(value) => money(Number(value))} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Bar dataKey="songRevenue" name="Songs" stackId="revenue" fill={CHART_COLORS.songs} />
          <Bar dataKey="albumRevenue" name="Albums" stackId="revenue" fill={CHART_COLORS.albums} />
          <Bar
            dataKey="subscriptionRevenue"
            name="Subscriptions"
            stackId="revenue"
            fill={CHART_COLORS.subscriptions}
          />
        </BarChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
