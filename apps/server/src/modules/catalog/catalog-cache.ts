import { and, eq, gt, inArray, min } from 'drizzle-orm';
import type { AppDb } from '../../db/client';
import { subscriptions } from '../../db/schema';
import { ResponseCache } from '../../platform/response-cache';

/**
 * The cache of public catalogue answers (song lists, artists, albums, genres). The catalogue clears it after
 * every committed write and every finished transcode; the commerce module calls `invalidateUser(userId)` when an
 * account's purchases or subscriptions change (or `invalidate()` for changes touching many accounts).
 *
 * A signed-in listener's `canPlay` also changes when a paid subscription period ends, without any write: their
 * cached answers expire at the end of their earliest running paid period.
 */
export function createCatalogCache(db: AppDb): ResponseCache {
  return new ResponseCache({
    viewerValidUntil: async (userId) => {
      const now = new Date();
      const [row] = await db
        .select({ end: min(subscriptions.currentPeriodEnd) })
        .from(subscriptions)
        .where(
          and(
            eq(subscriptions.userId, userId),
            inArray(subscriptions.status, ['active', 'cancelled']),
            gt(subscriptions.currentPeriodEnd, now),
          ),
        );
      return row?.end ? row.end.getTime() : Number.POSITIVE_INFINITY;
    },
  });
}
