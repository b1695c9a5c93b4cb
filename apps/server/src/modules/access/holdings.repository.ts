import { and, countDistinct, eq, or, sql } from 'drizzle-orm';
import type { AppDb } from '../../db/client';
import { albums, artists, purchases, songs } from '../../db/schema';
import type { Entitlements } from './access-policy';
import { loadEntitlements } from './entitlements.repository';
import { grantPurchases } from './entitlement-grants.repository';
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
      const { userId, orderId, at } = holder;
      await grantPurchases(this.db, 'songId', songIds, {
        userId,
        orderId,
        grantedByAlbumId: albumId,
        createdAt: at,
      });
    }
  }
}

/** An album with its artist, as streams and downloads of it read it. */
export interface HeldAlbum {
  id: string;
  title: string;
  cover: string | null;
  isPremium: boolean;
  releaseDate: Date;
  artistId: string;
  artistName: string;
  artistOwnerUserId: string | null;
  /** Deleted after it was sold: it plays and downloads for its buyers only, as the tracks it held then. */
  deletedAt: Date | null;
  deletedTrackIds: string[] | null;
}

/**
 * The reads of a module that serves what its viewers hold (streams, downloads), which their repositories extend:
 * the viewer's entitlements, and albums by id, deleted ones included (their buyers keep them).
 */
export class HeldItemsReader {
  constructor(protected readonly db: AppDb) {}

  /** The viewer's entitlements for a batch of songs, albums and artists: the access module's loader. */
  loadEntitlements(
    userId: string,
    scope: { songIds: string[]; albumIds: string[]; artistIds: string[] },
    now: Date,
  ): Promise<Entitlements> {
    return loadEntitlements(this.db, userId, scope, now);
  }

  /** The album by id with its artist, deleted ones included (see HeldAlbum.deletedAt; albumTracks lists its songs). */
  async findAlbum(albumId: string): Promise<HeldAlbum | null> {
    const [row] = await this.db
      .select({
        id: albums.id,
        title: albums.title,
        cover: albums.cover,
        isPremium: albums.isPremium,
        releaseDate: albums.releaseDate,
        artistId: albums.artistId,
        artistName: artists.name,
        artistOwnerUserId: artists.ownerUserId,
        deletedAt: albums.deletedAt,
        deletedTrackIds: albums.deletedTrackIds,
      })
      .from(albums)
      .innerJoin(artists, eq(artists.id, albums.artistId))
      .where(eq(albums.id, albumId))
      .limit(1);
    return row ?? null;
  }
}
