import { and, countDistinct, eq, or, sql } from 'drizzle-orm';
import type { AppDb } from '../../db/client';
import { albums, purchases, songs } from '../../db/schema';
import { purchaseStands } from './entitlement-rules';

/**
 * Who holds what was sold: the catalogue asks before it deletes (a sold song or album is removed from the catalogue
 * but kept for its buyers, an unsold one is deleted), and freezes an album's tracks for its buyers when the album
 * or one of its tracks goes.
 */
export class HoldingsRepository {
  constructor(private readonly db: AppDb) {}

  /** Accounts that bought the song, or the album it is on (and so play it through the album). */
  async countSongHolders(songId: string, albumId: string | null): Promise<number> {
    const bought = albumId
      ? or(eq(purchases.songId, songId), eq(purchases.albumId, albumId))
      : eq(purchases.songId, songId);
    const [row] = await this.db
      .select({ holders: countDistinct(purchases.userId) })
      .from(purchases)
      .where(and(bought, purchaseStands));
    return row?.holders ?? 0;
  }

  async countAlbumHolders(albumId: string): Promise<number> {
    const [row] = await this.db
      .select({ holders: countDistinct(purchases.userId) })
      .from(purchases)
      .where(and(eq(purchases.albumId, albumId), purchaseStands));
    return row?.holders ?? 0;
  }

  /** Accounts holding any song or album of the artist (kept or removed). */
  async countArtistHolders(artistId: string): Promise<number> {
    const [row] = await this.db
      .select({ holders: countDistinct(purchases.userId) })
      .from(purchases)
      .leftJoin(songs, eq(songs.id, purchases.songId))
      .leftJoin(albums, eq(albums.id, purchases.albumId))
      .where(and(purchaseStands, or(eq(songs.artistId, artistId), eq(albums.artistId, artistId))));
    return row?.holders ?? 0;
  }

  /** Whether the account holds the album (a standing purchase). */
  async holdsAlbum(userId: string, albumId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ one: sql`1` })
      .from(purchases)
      .where(and(eq(purchases.userId, userId), eq(purchases.albumId, albumId), purchaseStands))
      .limit(1);
    return Boolean(row);
  }

  /**
   * Records `songIds` as bought by every account holding the album, under its album order (as buying the album
   * records the tracks it holds then): they stay theirs once they leave the album. A track bought on its own stays
   * as it is; one refunded before is given back by the album. A refund of the album order takes them all back.
   */
  async grantTracksToAlbumHolders(albumId: string, songIds: string[]): Promise<void> {
    if (songIds.length === 0) return;
    const holders = await this.db
      .select({ userId: purchases.userId, orderId: purchases.orderId, at: purchases.createdAt })
      .from(purchases)
      .where(and(eq(purchases.albumId, albumId), purchaseStands));
    for (const holder of holders) {
      await this.db
        .insert(purchases)
        .values(
          songIds.map((songId) => ({
            userId: holder.userId,
            songId,
            orderId: holder.orderId,
            grantedByAlbumId: albumId,
            createdAt: holder.at,
          })),
        )
        .onConflictDoUpdate({
          target: [purchases.userId, purchases.songId],
          set: {
            orderId: holder.orderId,
            grantedByAlbumId: albumId,
            revokedAt: null,
            createdAt: holder.at,
          },
          setWhere: sql`${purchases.revokedAt} is not null`,
        });
    }
  }
}
