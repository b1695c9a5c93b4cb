import { and, eq, gt, inArray, isNull, type Column, type SQL } from 'drizzle-orm';
import { purchases, subscriptions } from '../../db/schema';

/**
 * The statuses in which a subscription plays while its paid period runs: active, past due (a renewal failed; the
 * period already paid for still plays) and cancelled (will not renew). Pending (never paid), expired and revoked
 * (refunded or disputed) never play.
 */
export const PLAYING_SUBSCRIPTION_STATUSES = ['active', 'past_due', 'cancelled'] as const;

/** The one "subscription still paid" rule: a playing status and a paid period that has not ended at `now`. */
export function subscriptionPlaysAt(now: Date): SQL {
  return and(
    inArray(subscriptions.status, [...PLAYING_SUBSCRIPTION_STATUSES]),
    gt(subscriptions.currentPeriodEnd, now),
  )!;
}

/** `userId`'s subscription to the artist (an id, or a column of the outer query) while it plays at `now`. */
export function subscriptionToArtistPlays(userId: string, artistId: string | Column, now: Date): SQL {
  return and(
    eq(subscriptions.userId, userId),
    eq(subscriptions.artistId, artistId),
    subscriptionPlaysAt(now),
  )!;
}

/** A purchase counts until a refund or dispute revokes it. */
export const purchaseStands: SQL = isNull(purchases.revokedAt);
