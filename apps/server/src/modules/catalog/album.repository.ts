import { and, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { AppDb } from '../../db/client';
import { albums } from '../../db/schema';
import { countRows, pageByIds, type PageWindow, type Paged } from '../../platform/pagination';
import { NO_COUNT_CACHE, type CountSource } from './count-cache';

export const albumColumns = {
  id: albums.id,
  title: albums.title,
  description: albums.description,
  cover: albums.cover,
  genreId: albums.genreId,
  genreName: sql<string | null>`(select g.name from genres g where g.id = "albums"."genre_id")`,
  price: albums.price,
  currency: albums.currency,
  isPremium: albums.isPremium,
  releaseDate: albums.releaseDate,
  createdAt: albums.createdAt,
  artistId: albums.artistId,
  artistName: sql<string>`(select a.name from artists a where a.id = "albums"."artist_id")`,
  artistOwnerUserId: sql<
    string | null
  >`(select a.owner_user_id from artists a where a.id = "albums"."artist_id")`,
  // A deleted album counts the tracks it held when it was deleted (its buyers keep those).
  songCount: sql<number>`case when "albums"."deleted_at" is null
    then (select count(*)::int from songs s where s.album_id = "albums"."id" and s.status = 'ready')
    else coalesce(cardinality("albums"."deleted_track_ids"), 0) end`,
  deletedAt: albums.deletedAt,
  deletedTrackIds: albums.deletedTrackIds,
};

export interface AlbumRow {
  id: string;
  title: string;
  description: string;
  cover: string | null;
  genreId: string | null;
  genreName: string | null;
  price: number;
  currency: string;
  isPremium: boolean;
  releaseDate: Date;
  createdAt: Date;
  artistId: string;
  artistName: string;
  artistOwnerUserId: string | null;
  songCount: number;
  /** Set when its artist deleted it after it was sold: out of the catalogue, kept for its buyers. */
  deletedAt: Date | null;
  /** The tracks it held when deleted, in order; null while it is in the catalogue. */
  deletedTrackIds: string[] | null;
}

/** Albums in the catalogue: not deleted (the partial index albums_created_idx holds exactly these). */
const inCatalogue = isNull(albums.deletedAt);

export type NewAlbum = typeof albums.$inferInsert;
export type AlbumChanges = Partial<Omit<NewAlbum, 'id' | 'createdAt'>>;

export class AlbumRepository {
  constructor(
    private readonly db: AppDb,
    private readonly counts: CountSource = NO_COUNT_CACHE,
  ) {}

  private selectAlbums() {
    return this.db.select(albumColumns).from(albums);
  }

  /** A page in `order`; ids come from the index alone, so counts are computed for the page's rows only. */
  private page(where: SQL | undefined, order: SQL[], window: PageWindow, countKey: string) {
    return pageByIds({
      db: this.db,
      table: albums,
      id: albums.id,
      where,
      order,
      window,
      rows: (inPage) =>
        this.selectAlbums()
          .where(inPage)
          .orderBy(...order),
      total: () => this.counts.get(countKey, () => countRows(this.db, albums, where)),
    });
  }

  /** Newest first, by the (created_at, id) index of albums in the catalogue. */
  list(window: PageWindow): Promise<Paged<AlbumRow>> {
    return this.page(inCatalogue, [desc(albums.createdAt), desc(albums.id)], window, 'albums');
  }

  /** An artist's albums, latest release first, by the (artist_id, release_date) index. */
  listByArtist(artistId: string, window: PageWindow): Promise<Paged<AlbumRow>> {
    return this.page(
      and(eq(albums.artistId, artistId), inCatalogue),
      [desc(albums.releaseDate), desc(albums.id)],
      window,
      `albums:artist:${artistId}`,
    );
  }

  /** Albums in any of `genreIds`, newest first (the genre index, then a sort of that genre's albums). */
  listByGenres(genreIds: string[], limit: number): Promise<AlbumRow[]> {
    if (genreIds.length === 0) return Promise.resolve([]);
    return this.selectAlbums()
      .where(inArray(albums.genreId, genreIds))
      .orderBy(desc(albums.createdAt), desc(albums.id))
      .limit(limit);
  }

  async findById(id: string): Promise<AlbumRow | null> {
    const [row] = await this.selectAlbums().where(eq(albums.id, id)).limit(1);
    return row ?? null;
  }

  /** Cover keys of an artist's albums, collected before a cascade delete removes the rows. */
  listMediaOfArtist(artistId: string) {
    return this.db
      .select({ id: albums.id, cover: albums.cover })
      .from(albums)
      .where(eq(albums.artistId, artistId));
  }

  async insert(values: NewAlbum): Promise<string> {
    const [row] = await this.db.insert(albums).values(values).returning({ id: albums.id });
    return row!.id;
  }

  async update(id: string, changes: AlbumChanges): Promise<void> {
    await this.db
      .update(albums)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(albums.id, id));
  }

  /** Takes a sold album out of the catalogue, remembering the tracks it holds for its buyers. */
  async markDeleted(id: string, at: Date, trackIds: string[]): Promise<void> {
    await this.db
      .update(albums)
      // No search text: its words leave the search vocabulary (kept by triggers) with it.
      .set({ deletedAt: at, deletedTrackIds: trackIds, searchText: '', updatedAt: at })
      .where(eq(albums.id, id));
  }

  /** Deletes the album; its songs stay, without an album (foreign key sets null). */
  async delete(id: string): Promise<void> {
    await this.db.delete(albums).where(eq(albums.id, id));
  }

  /** Keeps the artist's name inside album search text current after a rename. */
  async refreshSearchTextOfArtist(artistId: string, searchText: (title: string) => string): Promise<void> {
    const rows = await this.db
      .select({ id: albums.id, title: albums.title })
      .from(albums)
      .where(eq(albums.artistId, artistId));
    for (const row of rows) {
      await this.db
        .update(albums)
        .set({ searchText: searchText(row.title) })
        .where(eq(albums.id, row.id));
    }
  }
}
