import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { AppDb } from '../../db/client';
import {
  artists,
  genres,
  likes,
  orders,
  playlists,
  purchases,
  songs,
  userPreferredGenres,
} from '../../db/schema';
import { purchaseStands } from '../access/entitlement-rules';

/** The lists the User object carries besides the account row. */
export interface ProfileLists {
  purchasedSongs: string[];
  purchasedAlbums: string[];
  likedsong: string[];
  preferredGenres: string[];
  playlist: string[];
  purchaseHistory: string[];
  artistId: string | null;
}

export interface GenreRow {
  id: string;
  name: string;
  slug: string;
}

export class ProfileRepository {
  constructor(private readonly db: AppDb) {}

  async loadLists(userId: string): Promise<ProfileLists> {
    const [purchaseRows, liked, genreNames, playlistRows, paidOrders, artistRows] = await Promise.all([
      this.db
        .select({ songId: purchases.songId, albumId: purchases.albumId })
        .from(purchases)
        .where(and(eq(purchases.userId, userId), purchaseStands))
        .orderBy(asc(purchases.createdAt)),
      this.likedSongIds(userId),
      this.preferredGenreNames(userId),
      this.db
        .select({ id: playlists.id })
        .from(playlists)
        .where(eq(playlists.userId, userId))
        .orderBy(asc(playlists.createdAt)),
      this.db
        .select({ id: orders.id })
        .from(orders)
        .where(and(eq(orders.userId, userId), eq(orders.status, 'paid')))
        .orderBy(asc(orders.createdAt)),
      this.db
        .select({ id: artists.id })
        .from(artists)
        .where(eq(artists.ownerUserId, userId))
        .orderBy(asc(artists.createdAt))
        .limit(1),
    ]);
    return {
      purchasedSongs: purchaseRows.flatMap((row) => (row.songId ? [row.songId] : [])),
      purchasedAlbums: purchaseRows.flatMap((row) => (row.albumId ? [row.albumId] : [])),
      likedsong: liked,
      preferredGenres: genreNames,
      playlist: playlistRows.map((row) => row.id),
      purchaseHistory: paidOrders.map((row) => row.id),
      artistId: artistRows[0]?.id ?? null,
    };
  }

  async preferredGenreNames(userId: string): Promise<string[]> {
    const rows = await this.db
      .select({ name: genres.name })
      .from(userPreferredGenres)
      .innerJoin(genres, eq(genres.id, userPreferredGenres.genreId))
      .where(eq(userPreferredGenres.userId, userId))
      .orderBy(asc(genres.name));
    return rows.map((row) => row.name);
  }

  /** Genres whose lower-cased name or slug is one of the given lower-cased keys. */
  async findGenresByKeys(keys: string[]): Promise<GenreRow[]> {
    if (keys.length === 0) return [];
    return this.db
      .select({ id: genres.id, name: genres.name, slug: genres.slug })
      .from(genres)
      .where(or(inArray(sql`lower(${genres.name})`, keys), inArray(sql`lower(${genres.slug})`, keys)));
  }

  /** Replaces the whole set at once: readers never see a half-written choice. */
  async replacePreferredGenres(userId: string, genreIds: string[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.delete(userPreferredGenres).where(eq(userPreferredGenres.userId, userId));
      if (genreIds.length) {
        await tx.insert(userPreferredGenres).values(genreIds.map((genreId) => ({ userId, genreId })));
      }
    });
  }

  async songExists(songId: string): Promise<boolean> {
    const [row] = await this.db.select({ id: songs.id }).from(songs).where(eq(songs.id, songId)).limit(1);
    return Boolean(row);
  }

  /** Likes the song, or unlikes it when already liked; answers whether it is liked now. */
  async toggleLike(userId: string, songId: string): Promise<boolean> {
    const removed = await this.db
      .delete(likes)
      .where(and(eq(likes.userId, userId), eq(likes.songId, songId)))
      .returning({ songId: likes.songId });
    if (removed.length) return false;
    await this.db.insert(likes).values({ userId, songId }).onConflictDoNothing();
    return true;
  }

  async likedSongIds(userId: string): Promise<string[]> {
    const rows = await this.db
      .select({ songId: likes.songId })
      .from(likes)
      .where(eq(likes.userId, userId))
      .orderBy(asc(likes.createdAt), asc(likes.songId));
    return rows.map((row) => row.songId);
  }
}
