import { and, count, desc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import { albumTracks, trackOrder } from '../../db/album-tracks';
import type { AppDb } from '../../db/client';
import { likes, songs } from '../../db/schema';
import { countRows, pageByIds, type PageWindow, type Paged } from '../../platform/pagination';
import { NO_COUNT_CACHE, type CountSource } from './count-cache';

/*
 * Correlated subqueries are written with explicit aliases: drizzle leaves columns unqualified in single-table
 * selects, and an unqualified name inside a subquery binds to the inner table first.
 */
const artistOfSong = <T>(column: string) =>
  sql<T>`(select ${sql.raw(`a.${column}`)} from artists a where a.id = "songs"."artist_id")`;
const albumOfSong = <T>(column: string) =>
  sql<T>`(select ${sql.raw(`al.${column}`)} from albums al where al.id = "songs"."album_id")`;

/**
 * Everything a song list needs. Related names come from scalar subqueries (one primary-key lookup each per
 * returned row) rather than joins: a four-table join costs more to plan than a page of songs costs to read.
 */
export const songListColumns = {
  id: songs.id,
  title: songs.title,
  singer: songs.singer,
  coverImage: songs.coverImage,
  durationSec: songs.durationSec,
  accessType: songs.accessType,
  freeToStream: songs.freeToStream,
  price: songs.price,
  currency: songs.currency,
  status: songs.status,
  createdAt: songs.createdAt,
  artistId: songs.artistId,
  artistName: artistOfSong<string>('name'),
  artistOwnerUserId: artistOfSong<string | null>('owner_user_id'),
  artistAllowsSubscriberDownloads: artistOfSong<boolean>('allow_subscriber_downloads'),
  albumId: songs.albumId,
  albumTitle: albumOfSong<string | null>('title'),
  albumIsPremium: albumOfSong<boolean | null>('is_premium'),
  albumCover: albumOfSong<string | null>('cover'),
  genreName: sql<string | null>`(select g.name from genres g where g.id = "songs"."genre_id")`,
  previewStartSec: songs.previewStartSec,
  deletedAt: songs.deletedAt,
};

export interface SongRow {
  id: string;
  title: string;
  singer: string;
  coverImage: string | null;
  durationSec: number;
  accessType: 'subscription' | 'purchase-only';
  freeToStream: boolean;
  price: number;
  currency: string;
  /** `removed`: deleted by its artist after it was sold; only its holders see it (see holdsSong). */
  status: 'processing' | 'ready' | 'failed' | 'removed';
  createdAt: Date;
  artistId: string;
  artistName: string;
  artistOwnerUserId: string | null;
  artistAllowsSubscriberDownloads: boolean;
  albumId: string | null;
  albumTitle: string | null;
  albumIsPremium: boolean | null;
  albumCover: string | null;
  genreName: string | null;
  previewStartSec: number | null;
  deletedAt: Date | null;
}

/** Columns the write side needs beyond the list view. */
export interface SongRecord extends SongRow {
  genreId: string | null;
  trackNumber: number | null;
  failureReason: string | null;
  sourceKey: string | null;
  hlsPrefix: string | null;
}

export type NewSong = typeof songs.$inferInsert;
export type SongChanges = Partial<Omit<NewSong, 'id' | 'createdAt'>>;

const ready = eq(songs.status, 'ready');
const newestFirst = [desc(songs.createdAt), desc(songs.id)];

export class SongRepository {
  constructor(
    private readonly db: AppDb,
    private readonly counts: CountSource = NO_COUNT_CACHE,
  ) {}

  private selectSongs() {
    return this.db.select(songListColumns).from(songs);
  }

  /** Ready songs matching `where`, newest first; the total is cached under `countKey` (see CountCache). */
  private pageOfReady(where: SQL | undefined, window: PageWindow, countKey: string): Promise<Paged<SongRow>> {
    const condition = where ? and(ready, where) : ready;
    return pageByIds({
      db: this.db,
      table: songs,
      id: songs.id,
      where: condition,
      order: newestFirst,
      window,
      rows: (inPage) =>
        this.selectSongs()
          .where(inPage)
          .orderBy(...newestFirst),
      total: () => this.counts.get(countKey, () => countRows(this.db, songs, condition)),
    });
  }

  listReady(window: PageWindow) {
    return this.pageOfReady(undefined, window, 'songs');
  }

  listByArtist(artistId: string, window: PageWindow) {
    return this.pageOfReady(eq(songs.artistId, artistId), window, `songs:artist:${artistId}`);
  }

  listByGenres(genreIds: string[], window: PageWindow) {
    if (genreIds.length === 0) return Promise.resolve({ rows: [], total: 0 });
    const ids = [...genreIds].sort();
    return this.pageOfReady(
      ids.length === 1 ? eq(songs.genreId, ids[0]!) : inArray(songs.genreId, ids),
      window,
      `songs:genres:${ids.join(',')}`,
    );
  }

  /**
   * Ready songs free to stream, those in `genreIds` first, then newest (the partial index on free songs keeps this
   * to the free ones whatever the catalogue's size).
   */
  listFreeToStream(genreIds: string[], limit: number): Promise<SongRow[]> {
    const order = genreIds.length
      ? [sql`(${inArray(songs.genreId, genreIds)}) desc`, ...newestFirst]
      : newestFirst;
    return this.selectSongs()
      .where(and(ready, eq(songs.freeToStream, true)))
      .orderBy(...order)
      .limit(limit);
  }

  /**
   * An album's songs in track order (songs without a number last, oldest first): its ready songs, or for an album
   * deleted after it was sold, the tracks it held then, in their order, removed ones included (its buyers hold
   * them all; SongView drops what a viewer does not hold).
   */
  listByAlbum(album: { id: string; deletedTrackIds: string[] | null }): Promise<SongRow[]> {
    const tracks = albumTracks(album);
    if (!tracks) return Promise.resolve([]);
    return this.selectSongs()
      .where(tracks.where)
      .orderBy(...tracks.orderBy);
  }

  /** The ids of an album's songs in track order (any status): the tracks it holds at this moment. */
  async listTrackIds(albumId: string): Promise<string[]> {
    const rows = await this.db
      .select({ id: songs.id })
      .from(songs)
      .where(eq(songs.albumId, albumId))
      .orderBy(...trackOrder());
    return rows.map((row) => row.id);
  }

  /**
   * Takes a sold song out of the catalogue and keeps it for its holders: status `removed`, off its album, the
   * current HLS version kept (an upload still waiting to be transcoded is dropped: `sourceKey` goes).
   */
  async markRemoved(id: string, at: Date): Promise<void> {
    await this.db
      .update(songs)
      .set({
        status: 'removed',
        deletedAt: at,
        searchText: '',
        albumId: null,
        trackNumber: null,
        sourceKey: null,
        failureReason: null,
        updatedAt: at,
      })
      .where(eq(songs.id, id));
  }

  /** The user's liked songs that are playable, most recently liked first. */
  async listLiked(userId: string, window: PageWindow): Promise<Paged<SongRow>> {
    const condition = and(eq(likes.userId, userId), ready);
    const [rows, [totals]] = await Promise.all([
      this.selectSongs()
        .innerJoin(likes, eq(likes.songId, songs.id))
        .where(condition)
        .orderBy(desc(likes.createdAt), desc(likes.songId))
        .limit(window.limit)
        .offset(window.offset),
      this.db
        .select({ total: count() })
        .from(likes)
        .innerJoin(songs, eq(songs.id, likes.songId))
        .where(condition),
    ]);
    return { rows, total: totals?.total ?? 0 };
  }

  /** Several songs by id (any status), in no particular order. */
  listByIds(ids: string[]): Promise<SongRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.selectSongs().where(inArray(songs.id, ids));
  }

  async findById(id: string): Promise<SongRecord | null> {
    const [row] = await this.db
      .select({
        ...songListColumns,
        genreId: songs.genreId,
        trackNumber: songs.trackNumber,
        failureReason: songs.failureReason,
        sourceKey: songs.sourceKey,
        hlsPrefix: songs.hlsPrefix,
      })
      .from(songs)
      .where(eq(songs.id, id))
      .limit(1);
    return row ?? null;
  }

  /**
   * Ids and artists of songs, to check that an album's track list belongs to one artist. Removed songs are not
   * among them: they left the catalogue and go on no album again.
   */
  listOwnership(ids: string[]): Promise<Array<{ id: string; artistId: string; albumId: string | null }>> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .select({ id: songs.id, artistId: songs.artistId, albumId: songs.albumId })
      .from(songs)
      .where(and(inArray(songs.id, ids), ne(songs.status, 'removed')));
  }

  /** Media-store prefixes of an artist's songs, collected before a cascade delete removes the rows. */
  listMediaOfArtist(artistId: string) {
    return this.db
      .select({
        id: songs.id,
        coverImage: songs.coverImage,
        sourceKey: songs.sourceKey,
        hlsPrefix: songs.hlsPrefix,
      })
      .from(songs)
      .where(eq(songs.artistId, artistId));
  }

  async insert(values: NewSong): Promise<string> {
    const [row] = await this.db.insert(songs).values(values).returning({ id: songs.id });
    return row!.id;
  }

  async update(id: string, changes: SongChanges): Promise<void> {
    await this.db
      .update(songs)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(songs.id, id));
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(songs).where(eq(songs.id, id));
  }

  /** Makes `songIds` the album's tracks, numbered in order; songs no longer listed leave the album. */
  async setAlbumTracks(albumId: string, songIds: string[]): Promise<void> {
    await this.db
      .update(songs)
      .set({ albumId: null, trackNumber: null, updatedAt: new Date() })
      .where(eq(songs.albumId, albumId));
    for (const [index, songId] of songIds.entries()) {
      await this.db
        .update(songs)
        .set({ albumId, trackNumber: index + 1, updatedAt: new Date() })
        .where(eq(songs.id, songId));
    }
  }

  /** Next free track number on an album. */
  async nextTrackNumber(albumId: string): Promise<number> {
    const [row] = await this.db
      .select({ last: sql<number | null>`max(${songs.trackNumber})` })
      .from(songs)
      .where(eq(songs.albumId, albumId));
    return (row?.last ?? 0) + 1;
  }

  /** Keeps the artist's name inside song search text current after a rename. */
  async refreshSearchTextOfArtist(artistId: string, searchText: (title: string) => string): Promise<void> {
    const rows = await this.db
      .select({ id: songs.id, title: songs.title })
      .from(songs)
      .where(eq(songs.artistId, artistId));
    for (const row of rows) {
      await this.db
        .update(songs)
        .set({ searchText: searchText(row.title) })
        .where(eq(songs.id, row.id));
    }
  }

  /** Drops a cover key shared with an album (seeded songs show their album's cover) before the album goes. */
  async clearCoverOfAlbum(albumId: string, coverKey: string): Promise<void> {
    await this.db
      .update(songs)
      .set({ coverImage: null })
      .where(and(eq(songs.albumId, albumId), eq(songs.coverImage, coverKey)));
  }
}
