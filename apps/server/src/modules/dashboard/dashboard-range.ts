import { DEFAULT_RANGE_DAYS, type SeriesBucket } from '@backbeat/contract';

const DAY_MS = 86_400_000;

/** A UTC day as YYYY-MM-DD. */
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);
export const addDays = (day: string, days: number): string =>
  utcDay(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));
const firstOfMonth = (day: string) => `${day.slice(0, 7)}-01`;
const nextMonth = (day: string): string => {
  const at = new Date(`${firstOfMonth(day)}T00:00:00Z`);
  at.setUTCMonth(at.getUTCMonth() + 1);
  return utcDay(at);
};

/** An inclusive range of UTC days. */
export interface DayRange {
  from: string;
  to: string;
}

/** The range a query asked for, with the defaults: the 30 days ending today, or 30 days from or to a given bound. */
export function resolveRange(query: { from?: string; to?: string }, today: string): DayRange {
  const span = DEFAULT_RANGE_DAYS - 1;
  if (query.from && query.to) return { from: query.from, to: query.to };
  if (query.from) return { from: query.from, to: addDays(query.from, span) };
  const to = query.to ?? today;
  return { from: addDays(to, -span), to };
}

/** How many days an inclusive range holds. */
export const rangeDays = (range: DayRange): number =>
  Math.round((Date.parse(`${range.to}T00:00:00Z`) - Date.parse(`${range.from}T00:00:00Z`)) / DAY_MS) + 1;

/**
 * The period a range is compared with: as many days, ending the day before it starts (30 days: the 30 before;
 * Mar 1-31: Jan 29-Feb 28, the same length, not "the previous month").
 */
export function previousRange(range: DayRange): DayRange {
  return { from: addDays(range.from, -rangeDays(range)), to: addDays(range.from, -1) };
}

/**
 * The rollup rows covering a range with the fewest rows: month rows for the whole months inside it and day rows for
 * the days before and after them. `months` is null when the range holds no whole month.
 */
export interface RangeTiers {
  days: DayRange;
  months: { from: string; toExclusive: string } | null;
}

export function rangeTiers(range: DayRange): RangeTiers {
  const monthStart = range.from === firstOfMonth(range.from) ? range.from : nextMonth(range.from);
  const after = addDays(range.to, 1);
  const monthEnd = after === firstOfMonth(after) ? after : firstOfMonth(range.to);
  return { days: range, months: monthStart < monthEnd ? { from: monthStart, toExclusive: monthEnd } : null };
}

/** The first day of the period holding `day`: the day, its ISO week (Monday) or its month. */
export function periodOf(day: string, bucket: SeriesBucket): string {
  if (bucket === 'day') return day;
  if (bucket === 'month') return firstOfMonth(day);
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay(); // 0 = Sunday
  return addDays(day, -((weekday + 6) % 7));
}

/** Every period of a range, in order (the first may start before `from`). */
export function periodsOf(range: DayRange, bucket: SeriesBucket): string[] {
  const periods: string[] = [];
  let period = periodOf(range.from, bucket);
  while (period <= range.to) {
    periods.push(period);
    period =
      bucket === 'day' ? addDays(period, 1) : bucket === 'week' ? addDays(period, 7) : nextMonth(period);
  }
  return periods;
}

/** The last day of a period that lies in the range. */
export function periodEnd(period: string, bucket: SeriesBucket, range: DayRange): string {
  const next =
    bucket === 'day' ? addDays(period, 1) : bucket === 'week' ? addDays(period, 7) : nextMonth(period);
  const last = addDays(next, -1);
  return last < range.to ? last : range.to;
}
