import type { SeriesBucket } from '../dashboard.types';

/** Chart colours from the design tokens: accent, accent-2, and a cool third that stays apart from both. */
export const CHART_COLORS = {
  songs: '#ff5a36',
  albums: '#ffb020',
  subscriptions: '#8c8cff',
  line: '#ff5a36',
};
export const AXIS_COLOR = '#a1a1b0';
export const GRID_COLOR = '#2a2a36';

/**
 * What every dashboard chart shares: its margins, the horizontal grid lines, the period axis and the value axis's
 * look (spread as props).
 */
export const CHART_MARGIN = { top: 4, right: 4, bottom: 0, left: 0 };
export const CHART_GRID = { stroke: GRID_COLOR, vertical: false } as const;
export const PERIOD_AXIS = {
  dataKey: 'label',
  stroke: AXIS_COLOR,
  fontSize: 12,
  tickLine: false,
  minTickGap: 16,
} as const;
export const VALUE_AXIS = { stroke: AXIS_COLOR, fontSize: 12, tickLine: false, axisLine: false } as const;
/**
 * Every chart's tooltip: "Albums: $0.00" (recharts' own separator is " : "), on the surface colour, text in the
 * design's colours.
 */
export const CHART_TOOLTIP = {
  separator: ': ',
  cursor: { fill: 'rgba(255,255,255,0.04)' },
  contentStyle: { background: '#15151c', border: '1px solid #2a2a36', borderRadius: 10 },
  labelStyle: { color: '#f4f4f6', fontWeight: 600 },
} as const;

/** A period's label: "Mar 4" for a day or a week (its Monday), "Mar 2025" for a month. UTC, as the server. */
export function periodLabel(period: string, bucket: SeriesBucket): string {
  const date = new Date(`${period}T00:00:00Z`);
  return new Intl.DateTimeFormat(undefined, {
    timeZone: 'UTC',
    ...(bucket === 'month' ? { month: 'short', year: 'numeric' } : { month: 'short', day: 'numeric' }),
  }).format(date);
}

/** Minor units as a short money label for an axis: "$1.2K". */
export function compactMoney(minorUnits: number, currency: string): string {
  try {
    const format = new Intl.NumberFormat(undefined, { style: 'currency', currency, notation: 'compact' });
    const digits =
      new Intl.NumberFormat(undefined, { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits ?? 2;
    return format.format(minorUnits / 10 ** digits);
  } catch {
    return String(minorUnits / 100);
  }
}

export const compactNumber = (value: number) =>
  new Intl.NumberFormat(undefined, { notation: 'compact' }).format(value);
