import { and, asc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
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
import { purchaseStands } from '../access';

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

  /**
   * The lists in one statement (one round trip and one pooled connection per profile read, instead of six in
   * parallel: `/users/me` is read on every page load). Each is an ordered array of ids (`text[]`, which every
   * driver parses), empty when there is none.
   */
  async loadLists(userId: string): Promise<ProfileLists> {
    const ids = (query: SQL) => sql<string[]>`coalesce((${query}), '{}')::text[]`;
    const [row] = await this.db
      .select({
        purchasedSongs: ids(
          sql`select array_agg(${purchases.songId} order by ${purchases.createdAt}) from ${purchases}
              where ${purchases.userId} = ${userId} and ${purchaseStands} and ${purchases.songId} is not null`,
        ),
        purchasedAlbums: ids(
          sql`select array_agg(${purchases.albumId} order by ${purchases.createdAt}) from ${purchases}
              where ${purchases.userId} = ${userId} and ${purchaseStands} and ${purchases.albumId} is not null`,
        ),
        likedsong: ids(
          sql`select array_agg(${likes.songId} order by ${likes.createdAt}, ${likes.songId}) from ${likes}
              where ${likes.userId} = ${userId}`,
        ),
        preferredGenres: ids(
          sql`select array_agg(${genres.name} order by ${genres.name}) from ${userPreferredGenres}
              join ${genres} on ${genres.id} = ${userPreferredGenres.genreId}
              where ${userPreferredGenres.userId} = ${userId}`,
        ),
        playlist: ids(
          sql`select array_agg(${playlists.id} order by ${playlists.createdAt}) from ${playlists}
              where ${playlists.userId} = ${userId}`,
        ),
        purchaseHistory: ids(
          sql`select array_agg(${orders.id} order by ${orders.createdAt}) from ${orders}
              where ${orders.userId} = ${userId} and ${orders.status} = 'paid'`,
        ),
        artistId: sql<string | null>`(select ${artists.id}::text from ${artists}
              where ${artists.ownerUserId} = ${userId} order by ${artists.createdAt} limit 1)`,
      })
      .from(sql`(select 1) as one`);
    return row!;
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
