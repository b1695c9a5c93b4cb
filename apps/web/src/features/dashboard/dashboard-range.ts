import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { SeriesBucket } from './dashboard.types';

const DAY_MS = 86_400_000;

/** Days are UTC days, as the server counts them. */
export const utcToday = (): string => new Date().toISOString().slice(0, 10);
export const addDays = (day: string, days: number): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const isDay = (value: string | null): value is string =>
  value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value));
export const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;

export const RANGE_PRESETS = [
  { id: '7d', label: 'Last 7 days', days: 7 },
  { id: '30d', label: 'Last 30 days', days: 30 },
  { id: '90d', label: 'Last 90 days', days: 90 },
  { id: '12m', label: 'Last 12 months', days: 365 },
] as const;
export type RangePresetId = (typeof RANGE_PRESETS)[number]['id'] | 'custom';

/** The bucket that keeps a chart readable: days up to two months, weeks up to a year, then months. */
export function defaultBucket(from: string, to: string): SeriesBucket {
  const days = daysBetween(from, to);
  return days <= 62 ? 'day' : days <= 400 ? 'week' : 'month';
}

export interface DashboardRangeState {
  from: string;
  to: string;
  preset: RangePresetId;
  bucket: SeriesBucket;
  setPreset(preset: Exclude<RangePresetId, 'custom'>): void;
  setCustom(from: string, to: string): void;
  setBucket(bucket: SeriesBucket): void;
}

/**
 * The dashboard's date range and chart bucket, kept in the address (`?range=30d`, or `?from=&to=`, and
 * `?bucket=`) so a view can be shared and the back button works. Changing the range goes back to the first page of
 * the transactions.
 */
export function useDashboardRange(): DashboardRangeState {
  const [params, setParams] = useSearchParams();
  const today = utcToday();
  const custom =
    isDay(params.get('from')) && isDay(params.get('to')) && params.get('from')! <= params.get('to')!;
  const presetParam = params.get('range');
  const preset = RANGE_PRESETS.find((entry) => entry.id === presetParam) ?? RANGE_PRESETS[1];
  const from = custom ? params.get('from')! : addDays(today, -(preset.days - 1));
  const to = custom ? params.get('to')! : today;
  const bucketParam = params.get('bucket');
  const bucket: SeriesBucket =
    bucketParam === 'day' || bucketParam === 'week' || bucketParam === 'month'
      ? bucketParam
      : defaultBucket(from, to);
  // Too many points for a day chart (the server refuses more than 400): fall back to the readable bucket.
  const safeBucket = bucket === 'day' && daysBetween(from, to) > 400 ? defaultBucket(from, to) : bucket;

  const update = useCallback(
    (change: (next: URLSearchParams) => void) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          change(next);
          next.delete('page');
          return next;
        },
        { replace: false },
      ),
    [setParams],
  );

  return useMemo(
    () => ({
      from,
      to,
      preset: custom ? 'custom' : preset.id,
      bucket: safeBucket,
      setPreset: (id) =>
        update((next) => {
          next.delete('from');
          next.delete('to');
          next.delete('bucket');
          next.set('range', id);
        }),
      setCustom: (start, end) =>
        update((next) => {
          next.delete('range');
          next.delete('bucket');
          next.set('from', start <= end ? start : end);
          next.set('to', start <= end ? end : start);
        }),
      setBucket: (value) => update((next) => next.set('bucket', value)),
    }),
    [from, to, custom, preset.id, safeBucket, update],
  );
}
