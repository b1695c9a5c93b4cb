import { and, desc, eq, gte, isNull, sql } from 'drizzle-orm';
import type { AppDb } from '../../db/client';
import { albums, itemPlaysRollup, plays, purchases, songs, subscriptions } from '../../db/schema';
import { subscriptionPlaysAt } from '../access';

/** The home page's per-listener reads (ids only; the rows come from the catalogue repositories). */
export class HomeRepository {
  constructor(private readonly db: AppDb) {}

  /** Distinct songs the listener played in full, most recent first (by the (user_id, played_at) index). */
  async recentlyPlayedSongIds(userId: string, limit: number): Promise<string[]> {
    const rows = await this.db
      .select({ songId: plays.songId })
      .from(plays)
      .where(and(eq(plays.userId, userId), eq(plays.kind, 'full')))
      .groupBy(plays.songId)
      .orderBy(desc(sql`max(${plays.playedAt})`), plays.songId)
      .limit(limit);
    return rows.map((row) => row.songId);
  }

  /**
   * The most played songs since `since` (a UTC day): full plays only, from the daily rollup the dashboards keep in
   * the same transaction as each play, so it is current and costs one index range.
   */
  async popularSongIds(since: string, limit: number): Promise<string[]> {
    const total = sql<number>`sum(${itemPlaysRollup.plays})`;
    const rows = await this.db
      .select({ songId: itemPlaysRollup.itemId })
      .from(itemPlaysRollup)
      .where(
        and(
          eq(itemPlaysRollup.itemType, 'song'),
          eq(itemPlaysRollup.grain, 'day'),
          gte(itemPlaysRollup.bucket, since),
        ),
      )
      .groupBy(itemPlaysRollup.itemId)
      .orderBy(desc(total), itemPlaysRollup.itemId)
      .limit(limit);
    return rows.map((row) => row.songId);
  }

  /** Artists the listener backs: a subscription that plays now, or a standing purchase of a song or album. */
  async supportedArtistIds(userId: string, now: Date, limit: number): Promise<string[]> {
    const subscribed = this.db
      .select({ artistId: subscriptions.artistId })
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, userId), subscriptionPlaysAt(now)));
    const boughtSongs = this.db
      .select({ artistId: songs.artistId })
      .from(purchases)
      .innerJoin(songs, eq(songs.id, purchases.songId))
      .where(and(eq(purchases.userId, userId), isNull(purchases.revokedAt)));
    const boughtAlbums = this.db
      .select({ artistId: albums.artistId })
      .from(purchases)
      .innerJoin(albums, eq(albums.id, purchases.albumId))
      .where(and(eq(purchases.userId, userId), isNull(purchases.revokedAt)));
    const rows = await subscribed.union(boughtSongs).union(boughtAlbums).limit(limit);
    return rows.map((row) => row.artistId);
  }
}
