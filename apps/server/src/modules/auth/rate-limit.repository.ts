import { and, count, eq, gt, lte, min, sql } from 'drizzle-orm';
import type { AppDb } from '../../db/client';
import { rateLimitHits } from '../../db/schema';

export interface WindowState {
  hits: number;
  oldest: Date | null;
}

/** One sliding window to count an attempt against. */
export interface WindowCheck {
  key: string;
  limit: number;
  windowStart: Date;
}

/** Sliding-window hit log in PostgreSQL, so limits survive restarts and are shared by every instance. */
export class RateLimitRepository {
  constructor(private readonly db: AppDb) {}

  /**
   * Counts one attempt at `now` against every window, or against none: under per-key transaction locks (taken in
   * key order, so concurrent attempts queue instead of all slipping under the limit), drops the hits that left each
   * window and counts the rest. Returns the first window already at its limit (nothing recorded), else null.
   */
  async reserve(checks: WindowCheck[], now: Date): Promise<{ index: number; state: WindowState } | null> {
    return this.db.transaction(async (tx) => {
      for (const key of [...new Set(checks.map((check) => check.key))].sort()) {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
      }
      for (const [index, { key, limit, windowStart }] of checks.entries()) {
        await tx
          .delete(rateLimitHits)
          .where(and(eq(rateLimitHits.key, key), lte(rateLimitHits.at, windowStart)));
        const [row] = await tx
          .select({ hits: count(), oldest: min(rateLimitHits.at) })
          .from(rateLimitHits)
          .where(and(eq(rateLimitHits.key, key), gt(rateLimitHits.at, windowStart)));
        const state: WindowState = { hits: row?.hits ?? 0, oldest: row?.oldest ?? null };
        if (state.hits >= limit) return { index, state };
      }
      await tx.insert(rateLimitHits).values(checks.map(({ key }) => ({ key, at: now })));
      return null;
    });
  }

  /** Takes back one hit per key recorded at `at`: an attempt that turned out not to count. */
  async release(keys: string[], at: Date): Promise<void> {
    for (const key of keys) {
      await this.db.execute(sql`
        delete from ${rateLimitHits} where ctid = (
          select ctid from ${rateLimitHits} where ${rateLimitHits.key} = ${key} and ${rateLimitHits.at} = ${at}
          limit 1)`);
    }
  }

  /** Removes hits of keys that were never touched again. */
  async pruneBefore(cutoff: Date): Promise<void> {
    await this.db.delete(rateLimitHits).where(lte(rateLimitHits.at, cutoff));
  }
}
