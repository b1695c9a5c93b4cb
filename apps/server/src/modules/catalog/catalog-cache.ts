import { and, eq, min } from 'drizzle-orm';
import type { AppDb } from '../../db/client';
import { subscriptions } from '../../db/schema';
import { ResponseCache } from '../../platform/response-cache';
import { subscriptionPlaysAt } from '../access';

/**
 * The cache of public catalogue answers (song lists, artists, albums, genres). The catalogue clears it after
 * every committed write and every finished transcode; it drops an account's answers when the access module
 * reports that the account's entitlements changed (`EntitlementEvents`).
 *
 * A signed-in listener's `canPlay` also changes when a paid subscription period ends, without any write: their
 * cached answers expire at the end of their earliest running paid period.
 */
export function createCatalogCache(db: AppDb, clock: () => Date = () => new Date()): ResponseCache {
  return new ResponseCache({
    now: () => clock().getTime(),
    viewerValidUntil: async (userId) => {
      const now = clock();
      const [row] = await db
        .select({ end: min(subscriptions.currentPeriodEnd) })
        .from(subscriptions)
        .where(and(eq(subscriptions.userId, userId), subscriptionPlaysAt(now)));
      return row?.end ? row.end.getTime() : Number.POSITIVE_INFINITY;
    },
  });
}
