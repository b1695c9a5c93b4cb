import { and, eq, ne, sql, type SQL } from 'drizzle-orm';
import { queryRows, type AppDb } from '../../db/client';
import {
  itemPlaysRollup,
  itemRevenueRollup,
  PLATFORM_SCOPE,
  playsRollup,
  revenueRollup,
} from '../../db/schema';
import type { RangeTiers } from './dashboard-range';

export type RollupTable =
  typeof revenueRollup | typeof itemRevenueRollup | typeof playsRollup | typeof itemPlaysRollup;

/** What a ranking reads: a rollup, its ranked key, the ranked value, its bound, and the filter of the ranked rows. */
export interface RankingSource {
  table: RollupTable;
  key: SQL;
  /** What the list is ranked by (revenue net of refunds, or plays). */
  value: SQL;
  /**
   * A column never negative and never below the value's sum over any set of days of its bucket (gross for revenue:
   * net <= gross, and gross only adds up; plays themselves), which the month rows' index orders best first.
   */
  bound: SQL;
  where: SQL;
}

export interface RankedRow {
  id: string;
  value: number;
}

/** Heads of at most this many rows in all are read before falling back to summing every row of the range. */
const MAX_HEAD_ROWS = 6000;

const firstOfMonth = (day: string) => `${day.slice(0, 7)}-01`;
const nextMonthOf = (month: string) => {
  const at = new Date(`${month}T00:00:00Z`);
  at.setUTCMonth(at.getUTCMonth() + 1);
  return at.toISOString().slice(0, 10);
};

/** The months a range touches (its first and last may hold days outside it). */
export function coveringMonths(tiers: RangeTiers): string[] {
  const months: string[] = [];
  for (let month = firstOfMonth(tiers.days.from); month <= tiers.days.to; month = nextMonthOf(month)) {
    months.push(month);
  }
  return months;
}

/** The range as at most three runs of rollup rows: days before the whole months, the months, days after them. */
export function tierParts(tiers: RangeTiers): Array<{ grain: 'day' | 'month'; from: string; to: string }> {
  const { days, months } = tiers;
  if (!months) return [{ grain: 'day', from: days.from, to: days.to }];
  const parts: Array<{ grain: 'day' | 'month'; from: string; to: string }> = [];
  const before = new Date(Date.parse(`${months.from}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  const after = months.toExclusive;
  if (days.from < months.from) parts.push({ grain: 'day', from: days.from, to: before });
  const lastMonth = new Date(Date.parse(`${after}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  parts.push({ grain: 'month', from: months.from, to: firstOfMonth(lastMonth) });
  if (after <= days.to) parts.push({ grain: 'day', from: after, to: days.to });
  return parts;
}

/** The ranking sources the dashboards use: songs or albums (one artist's when `artistId`), or artists. */
export const rankingSources = {
  itemRevenue(type: 'song' | 'album', currency: string, artistId: string | null): RankingSource {
    const t = itemRevenueRollup;
    return {
      table: t,
      key: sql`${t.itemId}`,
      value: sql`${t.net}`,
      bound: sql`${t.gross}`,
      where: and(
        eq(t.itemType, type),
        eq(t.currency, currency),
        artistId ? eq(t.artistId, artistId) : undefined,
      )!,
    };
  },
  itemPlays(type: 'song' | 'album', artistId: string | null): RankingSource {
    const t = itemPlaysRollup;
    return {
      table: t,
      key: sql`${t.itemId}`,
      value: sql`${t.plays}`,
      bound: sql`${t.plays}`,
      where: and(eq(t.itemType, type), artistId ? eq(t.artistId, artistId) : undefined)!,
    };
  },
  artistRevenue(currency: string): RankingSource {
    const t = revenueRollup;
    return {
      table: t,
      key: sql`${t.scope}`,
      value: sql`${t.net}`,
      bound: sql`${t.gross}`,
      where: and(ne(t.scope, PLATFORM_SCOPE), eq(t.currency, currency))!,
    };
  },
  artistPlays(): RankingSource {
    const t = playsRollup;
    return {
      table: t,
      key: sql`${t.scope}`,
      value: sql`${t.plays}`,
      bound: sql`${t.plays}`,
      where: ne(t.scope, PLATFORM_SCOPE),
    };
  },
};

const byValueThenId = (a: RankedRow, b: RankedRow) =>
  b.value - a.value || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The best `limit` of a ranking, exactly, without summing every row of a long range (threshold algorithm over the
 * months the range touches). Each of those months' rows is read best first by `bound`, `depth` rows deep: an item
 * outside a month's head has at most that head's last bound there, so an item outside every head has at most the
 * sum of those last bounds over the whole range. Candidates (items in a head) are summed exactly over the range's
 * own rows (days and whole months), most promising first, until no candidate left can reach the `limit`-th sum.
 * When the `limit`-th sum beats the outsiders' bound the list is exact; else the heads are read deeper, and past
 * MAX_HEAD_ROWS `full` sums every row. Day rows are never read as heads: a day's rows are flat (many items sold
 * once, at one of a few prices), so a bound made of day heads stays high however deep they are read.
 */
export async function rankByBound(
  db: AppDb,
  source: RankingSource,
  tiers: RangeTiers,
  limit: number,
  full: () => Promise<RankedRow[]>,
): Promise<RankedRow[]> {
  const months = coveringMonths(tiers);
  const parts = tierParts(tiers);
  const exact = new Map<string, number>();
  for (let depth = Math.max(4 * limit, 32); months.length * depth <= MAX_HEAD_ROWS; depth *= 4) {
    // One index descent per month ("nulls last" as the indexes order, so the head is read in index order).
    const heads = await queryRows<{ month: string; id: string; v: string | number }>(
      db,
      sql`select m.month::text as month, h.id, h.v
          from unnest(array[${sql.join(
            months.map((month) => sql`${month}`),
            sql`, `,
          )}]::date[]) as m(month)
          cross join lateral (
            select ${source.key} as id, ${source.bound} as v from ${source.table}
            where ${source.where} and grain = 'month' and bucket = m.month
            order by ${source.bound} desc nulls last limit ${depth}
          ) h`,
    );
    const last = new Map<string, number>();
    const counts = new Map<string, number>();
    const seen = new Map<string, Map<string, number>>();
    for (const row of heads) {
      const v = Number(row.v);
      counts.set(row.month, (counts.get(row.month) ?? 0) + 1);
      last.set(row.month, v);
      const entry = seen.get(row.id) ?? new Map<string, number>();
      entry.set(row.month, v);
      seen.set(row.id, entry);
    }
    // An outsider's share of a month: nothing when the head holds all of the month's rows.
    const outside = (month: string) => (counts.get(month) === depth ? Math.max(last.get(month)!, 0) : 0);
    const outsiders = months.reduce((sum, month) => sum + outside(month), 0);
    const candidates = [...seen]
      .map(([id, entry]) => ({
        id,
        upper: months.reduce((sum, month) => sum + (entry.get(month) ?? outside(month)), 0),
      }))
      .sort((a, b) => b.upper - a.upper);
    // The limit-th best exact sum so far: a candidate whose bound is below it cannot make the list.
    const floor = () => {
      const values = [...exact.values()].filter((value) => value > 0).sort((a, b) => b - a);
      return values.length >= limit ? values[limit - 1]! : Number.NEGATIVE_INFINITY;
    };
    let next = 0;
    let batch = Math.max(2 * limit, 32);
    while (next < candidates.length && candidates[next]!.upper >= floor()) {
      const threshold = floor();
      const ids: string[] = [];
      for (; next < candidates.length && ids.length < batch; next += 1) {
        const candidate = candidates[next]!;
        if (candidate.upper < threshold) break;
        if (!exact.has(candidate.id)) ids.push(candidate.id);
      }
      for (const [id, value] of await sumsOver(db, source, parts, ids)) exact.set(id, value);
      batch = Number.POSITIVE_INFINITY;
    }
    const ranked = [...exact]
      .map(([id, value]) => ({ id, value }))
      .filter((row) => row.value > 0)
      .sort(byValueThenId);
    // Strictly: an outsider tied with the limit-th could come first by its id.
    if (outsiders <= 0 || (ranked.length >= limit && ranked[limit - 1]!.value > outsiders)) {
      return ranked.slice(0, limit);
    }
  }
  return full();
}

/** Exact sums of the value over the range's rows, one primary-key range scan per candidate and run of rows. */
async function sumsOver(
  db: AppDb,
  source: RankingSource,
  parts: ReturnType<typeof tierParts>,
  ids: string[],
): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const runs = sql.join(
    parts.map(
      (part) =>
        sql`select ${source.value} as v from ${source.table}
            where ${source.where} and ${source.key} = c.id and grain = ${sql.raw(`'${part.grain}'`)}
              and bucket >= ${part.from} and bucket <= ${part.to}`,
    ),
    sql` union all `,
  );
  const sums = await queryRows<{ id: string; v: string | number }>(
    db,
    sql`select c.id::text as id, (select coalesce(sum(r.v), 0) from (${runs}) r) as v
        from unnest(array[${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )}]::uuid[]) as c(id)`,
  );
  return new Map(sums.map((row) => [row.id, Number(row.v)]));
}
