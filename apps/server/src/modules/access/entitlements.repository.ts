import { and, eq, gt, inArray, isNotNull } from 'drizzle-orm';
import type { AppDb } from '../../db/client';
import { purchases, subscriptions } from '../../db/schema';
import { NO_ENTITLEMENTS, type Entitlements } from './access-policy';

/**
 * Loads the viewer's entitlements relevant to the given songs in at most three indexed queries.
 * Pass empty lists to skip a query (e.g. no album ids).
 */
export async function loadEntitlements(
  db: AppDb,
  userId: string | null,
  scope: { songIds: string[]; albumIds: string[]; artistIds: string[] },
  now: Date = new Date(),
): Promise<Entitlements> {
  if (!userId) return NO_ENTITLEMENTS;
  const unique = (ids: string[]) => [...new Set(ids)];
  const [songRows, albumRows, subscriptionRows] = await Promise.all([
    scope.songIds.length
      ? db
          .select({ id: purchases.songId })
          .from(purchases)
          .where(and(eq(purchases.userId, userId), inArray(purchases.songId, unique(scope.songIds))))
      : [],
    scope.albumIds.length
      ? db
          .select({ id: purchases.albumId })
          .from(purchases)
          .where(and(eq(purchases.userId, userId), inArray(purchases.albumId, unique(scope.albumIds))))
      : [],
    scope.artistIds.length
      ? db
          .select({ artistId: subscriptions.artistId, end: subscriptions.currentPeriodEnd })
          .from(subscriptions)
          .where(
            and(
              eq(subscriptions.userId, userId),
              inArray(subscriptions.artistId, unique(scope.artistIds)),
              inArray(subscriptions.status, ['active', 'cancelled']),
              isNotNull(subscriptions.currentPeriodEnd),
              gt(subscriptions.currentPeriodEnd, now),
            ),
          )
      : [],
  ]);
  const periodEnds = new Map<string, Date>();
  for (const row of subscriptionRows) {
    const previous = periodEnds.get(row.artistId);
    if (row.end && (!previous || row.end > previous)) periodEnds.set(row.artistId, row.end);
  }
  return {
    purchasedSongIds: new Set(songRows.flatMap((r) => (r.id ? [r.id] : []))),
    purchasedAlbumIds: new Set(albumRows.flatMap((r) => (r.id ? [r.id] : []))),
    subscriptionPeriodEnds: periodEnds,
  };
}
