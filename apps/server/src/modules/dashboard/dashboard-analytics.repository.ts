/**
 * Over 400 lines on purpose for now: every rollup query of the dashboards (revenue, plays and subscribers over a
 * range of month and day rows, per item and per artist) shares the tier helpers and row shapes at the top; split it
 * when a second reader of the rollups appears.
 */
import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  gte,
  inArray,
  isNull,
  lt,
  lte,
  ne,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { AppDb } from '../../db/client';
import {
  albums,
  artists,
  itemPlaysRollup,
  itemRevenueRollup,
  PLATFORM_SCOPE,
  playsRollup,
  revenueRollup,
  songs,
  subscriberRollup,
  subscriptions,
  users,
} from '../../db/schema';
import type { PageWindow, Paged } from '../../platform/pagination';
import { subscriptionPlaysAt } from '../access';
import type { DayRange, RangeTiers } from './dashboard-range';
import { rankByBound, type RankedRow, type RankingSource, type RollupTable } from './dashboard-ranking';

export type { RankedRow };

export { PLATFORM_SCOPE };

/** Integer sums arrive as bigint (a string from node-postgres); amounts in minor units fit a JS number. */
const total = (expression: SQL) => sql<number>`coalesce(sum(${expression}), 0)`.mapWith(Number);

/** Money of one currency in one rollup bucket (day or month). */
export interface MoneyRow {
  bucket: string;
  currency: string;
  songGross: number;
  albumGross: number;
  subscriptionGross: number;
  songRefunded: number;
  albumRefunded: number;
  subscriptionRefunded: number;
  sales: number;
  refunds: number;
}

export interface ItemFigures {
  id: string;
  revenue: number;
  sales: number;
  plays: number;
}

export interface ItemDetails {
  id: string;
  title: string;
  image: string | null;
  artistId: string | null;
  artistName: string | null;
}

export interface SubscriberRow {
  id: string;
  userId: string;
  userName: string;
  status: (typeof subscriptions.$inferSelect)['status'];
  cycle: string;
  gateway: (typeof subscriptions.$inferSelect)['gateway'];
  createdAt: Date;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
}

/** The rows of `tiers`: month rows for whole months, day rows for the days around them. */
function tierRows(table: RollupTable, tiers: RangeTiers): SQL {
  const { days, months } = tiers;
  const dayRows = (from: string, toInclusive: string) =>
    and(eq(table.grain, 'day'), gte(table.bucket, from), lte(table.bucket, toInclusive));
  if (!months) return dayRows(days.from, days.to)!;
  return or(
    and(eq(table.grain, 'month'), gte(table.bucket, months.from), lt(table.bucket, months.toExclusive)),
    and(eq(table.grain, 'day'), gte(table.bucket, days.from), lt(table.bucket, months.from)),
    and(eq(table.grain, 'day'), gte(table.bucket, months.toExclusive), lte(table.bucket, days.to)),
  )!;
}

/** The rows a series reads per bucket: all of `tiers` when it shows months (`byMonth`), else their day rows only. */
const bucketRows = (table: RollupTable, tiers: RangeTiers, byMonth: boolean): SQL =>
  tierRows(table, byMonth ? tiers : { days: tiers.days, months: null });

const moneyColumns = {
  currency: revenueRollup.currency,
  songGross: total(sql`${revenueRollup.songGross}`),
  albumGross: total(sql`${revenueRollup.albumGross}`),
  subscriptionGross: total(sql`${revenueRollup.subscriptionGross}`),
  songRefunded: total(sql`${revenueRollup.songRefunded}`),
  albumRefunded: total(sql`${revenueRollup.albumRefunded}`),
  subscriptionRefunded: total(sql`${revenueRollup.subscriptionRefunded}`),
  sales: total(sql`${revenueRollup.sales}`),
  refunds: total(sql`${revenueRollup.refunds}`),
};

export interface PlayCounts {
  plays: number;
  previewPlays: number;
}

const playColumns = {
  plays: total(sql`${playsRollup.plays}`),
  previewPlays: total(sql`${playsRollup.previewPlays}`),
};

/**
 * The dashboards' figures over time, read from the rollups (schema/dashboard.ts) that triggers keep in the
 * transactions writing the ledger and the plays. Every read touches at most a few hundred rows per scope.
 */
export class DashboardAnalyticsRepository {
  constructor(private readonly db: AppDb) {}

  /** Money per currency over the range (month rows for whole months). */
  async revenueTotals(scope: string, tiers: RangeTiers): Promise<MoneyRow[]> {
    const rows = await this.db
      .select(moneyColumns)
      .from(revenueRollup)
      .where(and(eq(revenueRollup.scope, scope), tierRows(revenueRollup, tiers)))
      .groupBy(revenueRollup.currency);
    return rows.map((row) => ({ ...row, bucket: tiers.days.from }));
  }

  /** Money per rollup bucket and currency: day rows only (`byMonth`: month rows for whole months). */
  revenueBuckets(scope: string, tiers: RangeTiers, byMonth: boolean): Promise<MoneyRow[]> {
    return this.db
      .select({ bucket: revenueRollup.bucket, ...moneyColumns })
      .from(revenueRollup)
      .where(and(eq(revenueRollup.scope, scope), bucketRows(revenueRollup, tiers, byMonth)))
      .groupBy(revenueRollup.grain, revenueRollup.bucket, revenueRollup.currency)
      .orderBy(asc(revenueRollup.bucket));
  }

  /** Full plays and, apart, previews of locked songs over the range. */
  async playsTotal(scope: string, tiers: RangeTiers): Promise<PlayCounts> {
    const [row] = await this.db
      .select(playColumns)
      .from(playsRollup)
      .where(and(eq(playsRollup.scope, scope), tierRows(playsRollup, tiers)));
    return { plays: row?.plays ?? 0, previewPlays: row?.previewPlays ?? 0 };
  }

  playsBuckets(
    scope: string,
    tiers: RangeTiers,
    byMonth: boolean,
  ): Promise<Array<PlayCounts & { bucket: string }>> {
    return this.db
      .select({ bucket: playsRollup.bucket, ...playColumns })
      .from(playsRollup)
      .where(and(eq(playsRollup.scope, scope), bucketRows(playsRollup, tiers, byMonth)))
      .groupBy(playsRollup.grain, playsRollup.bucket)
      .orderBy(asc(playsRollup.bucket));
  }

  /** Subscriptions started minus ended on the days before `day`: the subscribers at the start of that day. */
  async subscribersBefore(scope: string, day: string): Promise<number> {
    const [row] = await this.db
      .select({ net: total(sql`${subscriberRollup.starts} - ${subscriberRollup.ends}`) })
      .from(subscriberRollup)
      .where(and(eq(subscriberRollup.scope, scope), lt(subscriberRollup.day, day)));
    return row?.net ?? 0;
  }

  /** Starts and ends per day of the range. */
  subscriberDays(
    scope: string,
    range: DayRange,
  ): Promise<Array<{ day: string; starts: number; ends: number }>> {
    return this.db
      .select({ day: subscriberRollup.day, starts: subscriberRollup.starts, ends: subscriberRollup.ends })
      .from(subscriberRollup)
      .where(
        and(
          eq(subscriberRollup.scope, scope),
          gte(subscriberRollup.day, range.from),
          lte(subscriberRollup.day, range.to),
        ),
      )
      .orderBy(asc(subscriberRollup.day));
  }

  /** Subscribers whose subscription plays at `now`, of one artist or (PLATFORM_SCOPE) of every artist. */
  async subscribersNow(scope: string, now: Date): Promise<number> {
    // The platform counts subscriptions (one listener subscribed to two artists is two subscribers); an artist
    // counts accounts, as the SPEC's subscriber-count does.
    const distinct =
      scope === PLATFORM_SCOPE
        ? sql<number>`count(*)::int`
        : sql<number>`count(distinct ${subscriptions.userId})::int`;
    const [row] = await this.db
      .select({ total: distinct })
      .from(subscriptions)
      .where(
        and(
          scope === PLATFORM_SCOPE ? undefined : eq(subscriptions.artistId, scope),
          subscriptionPlaysAt(now),
        ),
      );
    return row?.total ?? 0;
  }

  /** The artist's subscriptions that play now, newest first. */
  async subscribersOf(artistId: string, now: Date, window: PageWindow): Promise<Paged<SubscriberRow>> {
    const where = and(eq(subscriptions.artistId, artistId), subscriptionPlaysAt(now));
    const [rows, [counted]] = await Promise.all([
      this.db
        .select({
          id: subscriptions.id,
          userId: users.id,
          userName: users.name,
          status: subscriptions.status,
          cycle: subscriptions.cycle,
          gateway: subscriptions.gateway,
          createdAt: subscriptions.createdAt,
          currentPeriodEnd: subscriptions.currentPeriodEnd,
          cancelAtPeriodEnd: subscriptions.cancelAtPeriodEnd,
        })
        .from(subscriptions)
        .innerJoin(users, eq(users.id, subscriptions.userId))
        .where(where)
        .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id))
        .limit(window.limit)
        .offset(window.offset),
      this.db.select({ total: count() }).from(subscriptions).where(where),
    ]);
    return { rows, total: counted?.total ?? 0 };
  }

  /** The best `limit` of a ranking, exactly (see rankByBound); `full` sums every row when the bound cannot tell. */
  rankBounded(
    source: RankingSource,
    tiers: RangeTiers,
    limit: number,
    full: () => Promise<RankedRow[]>,
  ): Promise<RankedRow[]> {
    return rankByBound(this.db, source, tiers, limit, full);
  }

  // -------------------------------------------------------------------------------------------------------------
  // Rankings of songs, albums or artists (platform-wide). Rows of deleted items stay in the rollups (history); the
  // service drops them by their missing details and asks for more when it must.

  /** Songs or albums by revenue in `currency` (positive only), highest first; one artist's when `artistId`. */
  rankItemsByRevenue(
    type: 'song' | 'album',
    tiers: RangeTiers,
    currency: string,
    artistId: string | null,
    limit: number,
  ): Promise<RankedRow[]> {
    const t = itemRevenueRollup;
    const value = total(sql`${t.gross} - ${t.refunded}`);
    return this.db
      .select({ id: t.itemId, value })
      .from(t)
      .where(
        and(
          eq(t.itemType, type),
          eq(t.currency, currency),
          artistId ? eq(t.artistId, artistId) : undefined,
          tierRows(t, tiers),
        ),
      )
      .groupBy(t.itemId)
      .having(gt(value, 0))
      .orderBy(desc(value), asc(t.itemId))
      .limit(limit);
  }

  rankItemsByPlays(type: 'song' | 'album', tiers: RangeTiers, artistId: string | null, limit: number) {
    const t = itemPlaysRollup;
    const value = total(sql`${t.plays}`);
    return this.db
      .select({ id: t.itemId, value })
      .from(t)
      .where(and(eq(t.itemType, type), artistId ? eq(t.artistId, artistId) : undefined, tierRows(t, tiers)))
      .groupBy(t.itemId)
      .having(gt(value, 0))
      .orderBy(desc(value), asc(t.itemId))
      .limit(limit);
  }

  rankArtistsByRevenue(tiers: RangeTiers, currency: string, limit: number): Promise<RankedRow[]> {
    const t = revenueRollup;
    const value = total(
      sql`${t.songGross} + ${t.albumGross} + ${t.subscriptionGross} - ${t.songRefunded} - ${t.albumRefunded} - ${t.subscriptionRefunded}`,
    );
    return this.db
      .select({ id: t.scope, value })
      .from(t)
      .where(and(ne(t.scope, PLATFORM_SCOPE), eq(t.currency, currency), tierRows(t, tiers)))
      .groupBy(t.scope)
      .having(gt(value, 0))
      .orderBy(desc(value), asc(t.scope))
      .limit(limit);
  }

  rankArtistsByPlays(tiers: RangeTiers, limit: number): Promise<RankedRow[]> {
    const t = playsRollup;
    const value = total(sql`${t.plays}`);
    return this.db
      .select({ id: t.scope, value })
      .from(t)
      .where(and(ne(t.scope, PLATFORM_SCOPE), tierRows(t, tiers)))
      .groupBy(t.scope)
      .having(gt(value, 0))
      .orderBy(desc(value), asc(t.scope))
      .limit(limit);
  }

  /** Revenue (in `currency`), sales and plays of the given songs or albums over the range. */
  async itemFigures(
    type: 'song' | 'album',
    ids: string[],
    tiers: RangeTiers,
    currency: string,
  ): Promise<Map<string, ItemFigures>> {
    const figures = new Map(ids.map((id) => [id, { id, revenue: 0, sales: 0, plays: 0 }]));
    if (ids.length === 0) return figures;
    const r = itemRevenueRollup;
    const p = itemPlaysRollup;
    const [money, plays] = await Promise.all([
      this.db
        .select({
          id: r.itemId,
          revenue: total(sql`${r.gross} - ${r.refunded}`),
          sales: total(sql`${r.sales}`),
        })
        .from(r)
        .where(
          and(eq(r.itemType, type), inArray(r.itemId, ids), eq(r.currency, currency), tierRows(r, tiers)),
        )
        .groupBy(r.itemId),
      this.db
        .select({ id: p.itemId, plays: total(sql`${p.plays}`) })
        .from(p)
        .where(and(eq(p.itemType, type), inArray(p.itemId, ids), tierRows(p, tiers)))
        .groupBy(p.itemId),
    ]);
    for (const row of money) Object.assign(figures.get(row.id)!, { revenue: row.revenue, sales: row.sales });
    for (const row of plays) figures.get(row.id)!.plays = row.plays;
    return figures;
  }

  /** Revenue (in `currency`), sales and plays of the given artists over the range. */
  async artistFigures(ids: string[], tiers: RangeTiers, currency: string): Promise<Map<string, ItemFigures>> {
    const figures = new Map(ids.map((id) => [id, { id, revenue: 0, sales: 0, plays: 0 }]));
    if (ids.length === 0) return figures;
    const r = revenueRollup;
    const [money, plays] = await Promise.all([
      this.db
        .select({
          id: r.scope,
          revenue: total(
            sql`${r.songGross} + ${r.albumGross} + ${r.subscriptionGross} - ${r.songRefunded} - ${r.albumRefunded} - ${r.subscriptionRefunded}`,
          ),
          sales: total(sql`${r.sales}`),
        })
        .from(r)
        .where(and(inArray(r.scope, ids), eq(r.currency, currency), tierRows(r, tiers)))
        .groupBy(r.scope),
      this.db
        .select({ id: playsRollup.scope, plays: total(sql`${playsRollup.plays}`) })
        .from(playsRollup)
        .where(and(inArray(playsRollup.scope, ids), tierRows(playsRollup, tiers)))
        .groupBy(playsRollup.scope),
    ]);
    for (const row of money) Object.assign(figures.get(row.id)!, { revenue: row.revenue, sales: row.sales });
    for (const row of plays) figures.get(row.id)!.plays = row.plays;
    return figures;
  }

  /** Titles, pictures and artists of ranked items. */
  async itemDetails(type: 'song' | 'album' | 'artist', ids: string[]): Promise<Map<string, ItemDetails>> {
    if (ids.length === 0) return new Map();
    let rows: ItemDetails[];
    if (type === 'artist') {
      rows = await this.db
        .select({
          id: artists.id,
          title: artists.name,
          image: artists.image,
          artistId: sql<string | null>`null`,
          artistName: sql<string | null>`null`,
        })
        .from(artists)
        .where(inArray(artists.id, ids));
    } else if (type === 'album') {
      rows = await this.db
        .select({
          id: albums.id,
          title: albums.title,
          image: albums.cover,
          artistId: artists.id,
          artistName: artists.name,
        })
        .from(albums)
        .innerJoin(artists, eq(artists.id, albums.artistId))
        // Deleted albums (sold, then deleted) left the catalogue: like a deleted item, they drop out of rankings.
        .where(and(inArray(albums.id, ids), isNull(albums.deletedAt)));
    } else {
      rows = await this.db
        .select({
          id: songs.id,
          title: songs.title,
          image: sql<string | null>`coalesce(${songs.coverImage}, ${albums.cover})`,
          artistId: artists.id,
          artistName: artists.name,
        })
        .from(songs)
        .innerJoin(artists, eq(artists.id, songs.artistId))
        .leftJoin(albums, eq(albums.id, songs.albumId))
        .where(and(inArray(songs.id, ids), ne(songs.status, 'removed')));
    }
    return new Map(rows.map((row) => [row.id, row]));
  }
}
