import { and, count, eq, gt, lte, min, sql } from 'drizzle-orm';
import type { AppDb } from '../../db/client';
import { rateLimitHits } from '../../db/schema';

export interface WindowState {
  hits: number;
  oldest: Date | null;
}

/** Sliding-window hit log in PostgreSQL, so limits survive restarts and are shared by every instance. */
export class RateLimitRepository {
  constructor(private readonly db: AppDb) {}

  /**
   * Under a per-key transaction lock (concurrent attempts cannot both slip under the limit): drops the key's hits
   * that left the window, counts the rest, and records a new hit at `now` when `record(state)` says so.
   */
  async inWindow(
    key: string,
    windowStart: Date,
    now: Date,
    record: (state: WindowState) => boolean,
  ): Promise<WindowState> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
      await tx
        .delete(rateLimitHits)
        .where(and(eq(rateLimitHits.key, key), lte(rateLimitHits.at, windowStart)));
      const [row] = await tx
        .select({ hits: count(), oldest: min(rateLimitHits.at) })
        .from(rateLimitHits)
        .where(and(eq(rateLimitHits.key, key), gt(rateLimitHits.at, windowStart)));
      const state: WindowState = { hits: row?.hits ?? 0, oldest: row?.oldest ?? null };
      if (record(state)) await tx.insert(rateLimitHits).values({ key, at: now });
      return state;
    });
  }

  /** Removes hits of keys that were never touched again. */
  async pruneBefore(cutoff: Date): Promise<void> {
    await this.db.delete(rateLimitHits).where(lte(rateLimitHits.at, cutoff));
  }
}
