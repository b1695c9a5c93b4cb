import { z } from 'zod';
import { Id, Pagination, pageQuery } from './common';
import { Gateway, SubscriptionStatus } from './dashboard';

/*
 * The dashboards' figures over time (beside SPEC section 7's /admin/dashboard calls): an overview of a date range,
 * revenue, subscribers and plays per day, week or month, and the top songs, albums and artists. Admins see the
 * whole platform (or one artist with `artistId`); an artist account sees its own artist only. Days are UTC days;
 * `from` and `to` are inclusive dates (YYYY-MM-DD); without them the range is the 30 days ending today.
 *
 * Money is integer minor units per currency: payments less refunds and disputes, each counted on the day it
 * happened, in the currency it was paid in. Several currencies are reported apart, never summed; the main
 * currency (the artist's, or the catalogue's for the platform) always comes first.
 */

export const SeriesBucket = z.enum(['day', 'week', 'month'], { error: 'must be day, week or month' });
export type SeriesBucket = z.infer<typeof SeriesBucket>;

/** At most this many points in one series (400 days by day; longer ranges by week or month). */
export const MAX_SERIES_POINTS = 400;
/** The longest range any dashboard call reads. */
export const MAX_RANGE_DAYS = 3660;
/** The range when neither bound is given: the 30 days ending today. */
export const DEFAULT_RANGE_DAYS = 30;

const DAY_MS = 86_400_000;
const Day = z.iso.date({ error: 'must be a date (YYYY-MM-DD)' });
const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;

/** Points a range has per bucket: days, ISO weeks (Monday first) or calendar months touched by the range. */
export function seriesPointCount(from: string, to: string, bucket: SeriesBucket): number {
  const first = dayNumber(from);
  const last = dayNumber(to);
  if (bucket === 'day') return last - first + 1;
  if (bucket === 'week') {
    // Day 0 (1970-01-01) was a Thursday: Monday-based week numbers.
    const week = (day: number) => Math.floor((day + 3) / 7);
    return week(last) - week(first) + 1;
  }
  const month = (day: string) => Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7));
  return month(to) - month(from) + 1;
}

const rangeFields = {
  artistId: Id.optional(),
  from: Day.optional(),
  to: Day.optional(),
};
const inOrder = (query: { from?: string; to?: string }) => !query.from || !query.to || query.from <= query.to;
const notTooLong = (query: { from?: string; to?: string }) =>
  !query.from || !query.to || dayNumber(query.to) - dayNumber(query.from) < MAX_RANGE_DAYS;

function withRangeChecks<T extends z.ZodType<{ from?: string; to?: string }>>(schema: T) {
  return schema
    .refine(inOrder, { message: 'from must not be after to', path: ['from'] })
    .refine(notTooLong, { message: `the range must be at most ${MAX_RANGE_DAYS} days`, path: ['from'] });
}

/** A date range, for one artist (`artistId`; an artist account's own by default) or the platform (admins). */
export const DashboardRangeQuery = withRangeChecks(z.object(rangeFields));
export type DashboardRangeQuery = z.infer<typeof DashboardRangeQuery>;

export const DashboardSeriesQuery = withRangeChecks(
  z.object({ ...rangeFields, bucket: SeriesBucket.default('day') }),
).refine(
  (query) =>
    !query.from || !query.to || seriesPointCount(query.from, query.to, query.bucket) <= MAX_SERIES_POINTS,
  {
    message: `gives more than ${MAX_SERIES_POINTS} points for this range; choose week or month`,
    path: ['bucket'],
  },
);
export type DashboardSeriesQuery = z.infer<typeof DashboardSeriesQuery>;

export const TopItemType = z.enum(['song', 'album', 'artist'], { error: 'must be song, album or artist' });
export type TopItemType = z.infer<typeof TopItemType>;
export const TopItemsBy = z.enum(['revenue', 'plays'], { error: 'must be revenue or plays' });
export type TopItemsBy = z.infer<typeof TopItemsBy>;

/** The best-selling or most played songs, albums or artists (artists: admins, platform-wide) of a range. */
export const TopItemsQuery = withRangeChecks(
  z.object({
    ...rangeFields,
    type: TopItemType,
    by: TopItemsBy.default('revenue'),
    /** The currency revenue is ranked and reported in; the main currency by default. */
    currency: z
      .string()
      .regex(/^[A-Za-z]{3}$/, 'must be a three-letter currency code')
      .transform((code) => code.toUpperCase())
      .optional(),
    limit: z.coerce
      .number({ error: 'must be a whole number' })
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(50, 'must be at most 50')
      .default(10),
  }),
);
export type TopItemsQuery = z.infer<typeof TopItemsQuery>;

/** The range a figure covers, as the server resolved it (defaults filled in). */
export const DashboardRange = z.object({ from: z.string(), to: z.string() });
export type DashboardRange = z.infer<typeof DashboardRange>;

/** Money of one currency over a period. `totalRevenue` = the three kinds = payments less `refunded`. */
export const RevenueAmounts = z.object({
  currency: z.string(),
  songRevenue: z.number().int(),
  albumRevenue: z.number().int(),
  subscriptionRevenue: z.number().int(),
  totalRevenue: z.number().int(),
  /** Refunds and disputes made in the period (already taken off the amounts above). */
  refunded: z.number().int(),
  /** Succeeded payments (renewals included) and refunds or disputes in the period. */
  sales: z.number().int(),
  refunds: z.number().int(),
});
export type RevenueAmounts = z.infer<typeof RevenueAmounts>;

/** The overview's counts of a period: plays, and subscribers at its end, taken out and ended in it. */
const periodCounts = {
  /** Full plays: listens of the songs themselves. */
  plays: z.number().int(),
  /** 30-second previews of locked songs, never counted in `plays` (nor in rankings by plays). */
  previewPlays: z.number().int(),
  activeSubscribers: z.number().int(),
  newSubscribers: z.number().int(),
  endedSubscribers: z.number().int(),
};

/**
 * The same figures for the period before the range, as long as it and ending the day before it starts: what each
 * card's change is measured against. `activeSubscribers` is the count at the end of that period (the day before the
 * range starts), from the daily subscriber rollup.
 */
export const DashboardOverviewPrevious = z.object({
  range: DashboardRange,
  revenue: z.array(RevenueAmounts),
  ...periodCounts,
});
export type DashboardOverviewPrevious = z.infer<typeof DashboardOverviewPrevious>;

/** The cards of a dashboard: money, plays and subscriber movements in the range; subscribers now. */
export const DashboardOverviewResponse = z.object({
  range: DashboardRange,
  currency: z.string(),
  revenue: z.array(RevenueAmounts),
  ...periodCounts,
  /** The previous period of the same length, for each card's change. */
  previous: DashboardOverviewPrevious,
});
export type DashboardOverviewResponse = z.infer<typeof DashboardOverviewResponse>;

/** `period` is the first day of the day, ISO week (Monday) or month; only days inside the range count. */
export const RevenuePoint = RevenueAmounts.omit({ currency: true }).extend({ period: z.string() });
export type RevenuePoint = z.infer<typeof RevenuePoint>;

export const RevenueSeriesResponse = z.object({
  range: DashboardRange,
  bucket: SeriesBucket,
  currency: z.string(),
  /** One series per currency paid in during the range; the main currency always, first. */
  series: z.array(z.object({ currency: z.string(), points: z.array(RevenuePoint) })),
});
export type RevenueSeriesResponse = z.infer<typeof RevenueSeriesResponse>;

/**
 * Subscribers at the end of each period (the end of `to` for the last one), and subscriptions taken out and ended
 * in it. A subscription is a subscriber from the day it was taken out until the day its paid period ends.
 */
export const SubscriberPoint = z.object({
  period: z.string(),
  activeSubscribers: z.number().int(),
  newSubscribers: z.number().int(),
  endedSubscribers: z.number().int(),
});
export type SubscriberPoint = z.infer<typeof SubscriberPoint>;

export const SubscribersSeriesResponse = z.object({
  range: DashboardRange,
  bucket: SeriesBucket,
  points: z.array(SubscriberPoint),
});
export type SubscribersSeriesResponse = z.infer<typeof SubscribersSeriesResponse>;

/** Full plays (a listen of the song itself) and, apart, previews of locked songs per period. */
export const PlaysSeriesResponse = z.object({
  range: DashboardRange,
  bucket: SeriesBucket,
  points: z.array(z.object({ period: z.string(), plays: z.number().int(), previewPlays: z.number().int() })),
});
export type PlaysSeriesResponse = z.infer<typeof PlaysSeriesResponse>;

/** A ranked song, album or artist: its revenue (in `currency`), sales and plays in the range. */
export const TopItem = z.object({
  _id: z.string(),
  title: z.string(),
  image: z.string().nullable(),
  artist: z.object({ _id: z.string(), name: z.string() }).nullable(),
  revenue: z.number().int(),
  sales: z.number().int(),
  plays: z.number().int(),
});
export type TopItem = z.infer<typeof TopItem>;

export const TopItemsResponse = z.object({
  range: DashboardRange,
  type: TopItemType,
  by: TopItemsBy,
  currency: z.string(),
  items: z.array(TopItem),
});
export type TopItemsResponse = z.infer<typeof TopItemsResponse>;

// ---------------------------------------------------------------------------------------------------------------
// Subscribers of one artist

export const ArtistSubscribersQuery = pageQuery(20);
export type ArtistSubscribersQuery = z.infer<typeof ArtistSubscribersQuery>;

/** A subscription that plays now, newest first. */
export const ArtistSubscriber = z.object({
  _id: z.string(),
  user: z.object({ _id: z.string(), name: z.string() }),
  status: SubscriptionStatus,
  cycle: z.string(),
  gateway: Gateway,
  since: z.string(),
  currentPeriodEnd: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
});
export type ArtistSubscriber = z.infer<typeof ArtistSubscriber>;

export const ArtistSubscribersResponse = z.object({
  subscribers: z.array(ArtistSubscriber),
  pagination: Pagination,
});
export type ArtistSubscribersResponse = z.infer<typeof ArtistSubscribersResponse>;
