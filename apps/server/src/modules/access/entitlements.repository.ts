import { and, desc, eq, inArray, max, sql } from 'drizzle-orm';
import type { AppDb } from '../../db/client';
import { purchases, songs, subscriptions } from '../../db/schema';
import { NO_ENTITLEMENTS, type Entitlements } from './access-policy';
import { purchaseStands, subscriptionPlaysAt, subscriptionToArtistPlays } from './entitlement-rules';

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
  /** The user's standing purchases among `ids` (of songs or of albums); no query for none. */
  const standingPurchases = (column: typeof purchases.songId | typeof purchases.albumId, ids: string[]) =>
    ids.length
      ? db
          .select({ id: column })
          .from(purchases)
          .where(and(eq(purchases.userId, userId), inArray(column, unique(ids)), purchaseStands))
      : [];
  const [songRows, albumRows, subscriptionRows] = await Promise.all([
    standingPurchases(purchases.songId, scope.songIds),
    standingPurchases(purchases.albumId, scope.albumIds),
    scope.artistIds.length
      ? db
          .select({
            artistId: subscriptions.artistId,
            start: subscriptions.currentPeriodStart,
            end: subscriptions.currentPeriodEnd,
          })
          .from(subscriptions)
          .where(
            and(
              eq(subscriptions.userId, userId),
              inArray(subscriptions.artistId, unique(scope.artistIds)),
              subscriptionPlaysAt(now),
            ),
          )
      : [],
  ]);
  const periodEnds = new Map<string, Date>();
  const periodStarts = new Map<string, Date>();
  for (const row of subscriptionRows) {
    const previous = periodEnds.get(row.artistId);
    if (row.end && (!previous || row.end > previous)) {
      periodEnds.set(row.artistId, row.end);
      if (row.start) periodStarts.set(row.artistId, row.start);
      else periodStarts.delete(row.artistId);
    }
  }
  return {
    purchasedSongIds: new Set(songRows.flatMap((r) => (r.id ? [r.id] : []))),
    purchasedAlbumIds: new Set(albumRows.flatMap((r) => (r.id ? [r.id] : []))),
    subscriptionPeriodEnds: periodEnds,
    subscriptionPeriodStarts: periodStarts,
  };
}

/**
 * One viewer's entitlements to the `songs` row of an outer query, as correlated columns: the key endpoint checks
 * access on every key fetch in ONE indexed query. The same rules as `loadEntitlements`.
 */
export function songEntitlementColumns(db: AppDb, userId: string, now: Date) {
  const stands = (match: ReturnType<typeof eq>) =>
    db
      .select({ one: sql`1` })
      .from(purchases)
      .where(and(eq(purchases.userId, userId), match, purchaseStands));
  return {
    songPurchased: sql<boolean>`exists ${stands(eq(purchases.songId, songs.id))}`,
    albumPurchased: sql<boolean>`exists ${stands(eq(purchases.albumId, songs.albumId))}`,
    paidThrough: sql<unknown>`${db
      .select({ end: max(subscriptions.currentPeriodEnd) })
      .from(subscriptions)
      .where(subscriptionToArtistPlays(userId, songs.artistId, now))}`,
    // The start of the period that pays furthest (the one `paidThrough` names): only removed songs ask for it, so
    // the key endpoint's query pays for the lookup only there.
    paidFrom: sql<unknown>`case when ${songs.status} = 'removed' then ${db
      .select({ start: subscriptions.currentPeriodStart })
      .from(subscriptions)
      .where(subscriptionToArtistPlays(userId, songs.artistId, now))
      .orderBy(desc(subscriptions.currentPeriodEnd))
      .limit(1)} end`,
  };
}
