import { and, asc, eq, gt, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { AppDb } from '../../db/client';
import { artists, users } from '../../db/schema';
import { countRows, pageByIds, type PageWindow, type Paged } from '../../platform/pagination';
import { NO_COUNT_CACHE, type CountSource } from './count-cache';

/**
 * Artist columns plus counts; the correlated counts use the (artist_id, ...) indexes of songs and albums.
 * Subqueries use explicit aliases (see songListColumns).
 */
export const artistColumns = {
  id: artists.id,
  name: artists.name,
  bio: artists.bio,
  image: artists.image,
  genreId: artists.genreId,
  genreName: sql<string | null>`(select g.name from genres g where g.id = "artists"."genre_id")`,
  subscriptionPrice: artists.subscriptionPrice,
  currency: artists.currency,
  ownerUserId: artists.ownerUserId,
  allowSubscriberDownloads: artists.allowSubscriberDownloads,
  createdAt: artists.createdAt,
  songCount: sql<number>`(select count(*)::int from songs s where s.artist_id = "artists"."id" and s.status = 'ready')`,
  albumCount: sql<number>`(select count(*)::int from albums al where al.artist_id = "artists"."id" and al.deleted_at is null)`,
};

export interface ArtistRow {
  id: string;
  name: string;
  bio: string;
  image: string | null;
  genreId: string | null;
  genreName: string | null;
  subscriptionPrice: number;
  currency: string;
  ownerUserId: string | null;
  allowSubscriberDownloads: boolean;
  createdAt: Date;
  songCount: number;
  albumCount: number;
}

export type NewArtist = typeof artists.$inferInsert;
export type ArtistChanges = Partial<Omit<NewArtist, 'id' | 'createdAt'>>;

const hasReadySongs = sql`exists (select 1 from songs s where s.artist_id = "artists"."id" and s.status = 'ready')`;

export class ArtistRepository {
  constructor(
    private readonly db: AppDb,
    private readonly counts: CountSource = NO_COUNT_CACHE,
  ) {}

  private selectArtists() {
    return this.db.select(artistColumns).from(artists);
  }

  /** Alphabetical, ties broken by id so pages never overlap. */
  list(window: PageWindow): Promise<Paged<ArtistRow>> {
    const byName = [asc(artists.name), asc(artists.id)];
    return pageByIds({
      db: this.db,
      table: artists,
      id: artists.id,
      where: undefined,
      order: byName,
      window,
      rows: (inPage) =>
        this.selectArtists()
          .where(inPage)
          .orderBy(...byName),
      total: () => this.counts.get('artists', () => countRows(this.db, artists)),
    });
  }

  listAll(): Promise<ArtistRow[]> {
    return this.selectArtists().orderBy(asc(artists.name), asc(artists.id));
  }

  /** Several artists by id, alphabetical. */
  listByIds(ids: string[]): Promise<ArtistRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.selectArtists().where(inArray(artists.id, ids)).orderBy(asc(artists.name), asc(artists.id));
  }

  async findById(id: string): Promise<ArtistRow | null> {
    const [row] = await this.selectArtists().where(eq(artists.id, id)).limit(1);
    return row ?? null;
  }

  async findByOwner(userId: string): Promise<ArtistRow | null> {
    const [row] = await this.selectArtists()
      .where(eq(artists.ownerUserId, userId))
      .orderBy(asc(artists.createdAt))
      .limit(1);
    return row ?? null;
  }

  /**
   * A random artist with at least one playable song: the first such artist at or after a random id, wrapping
   * around. Two primary-key range scans instead of ordering the whole table by random().
   */
  async findRandomWithSongs(randomId: string): Promise<ArtistRow | null> {
    const pick = async (range: SQL) => {
      const [row] = await this.selectArtists()
        .where(and(range, hasReadySongs))
        .orderBy(asc(artists.id))
        .limit(1);
      return row ?? null;
    };
    return (await pick(gt(artists.id, randomId))) ?? (await pick(lt(artists.id, randomId)));
  }

  /** The role of a user account, to check who may manage a profile; null when there is no such user. */
  async findUserRole(userId: string): Promise<string | null> {
    const [row] = await this.db.select({ role: users.role }).from(users).where(eq(users.id, userId)).limit(1);
    return row?.role ?? null;
  }

  async insert(values: NewArtist): Promise<string> {
    const [row] = await this.db.insert(artists).values(values).returning({ id: artists.id });
    return row!.id;
  }

  async update(id: string, changes: ArtistChanges): Promise<void> {
    await this.db
      .update(artists)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(artists.id, id));
  }

  /** Deletes the artist; their songs and albums go with it (foreign keys cascade). */
  async delete(id: string): Promise<void> {
    await this.db.delete(artists).where(eq(artists.id, id));
  }
}
