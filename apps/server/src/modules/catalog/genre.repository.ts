import { asc, eq, or, sql } from 'drizzle-orm';
import type { AppDb } from '../../db/client';
import { genres, userPreferredGenres } from '../../db/schema';

export interface GenreRow {
  id: string;
  name: string;
  slug: string;
}

const genreColumns = { id: genres.id, name: genres.name, slug: genres.slug };

export class GenreRepository {
  constructor(private readonly db: AppDb) {}

  listAll(): Promise<GenreRow[]> {
    return this.db.select(genreColumns).from(genres).orderBy(asc(genres.name));
  }

  /** By slug or by name, ignoring case. */
  async findByNameOrSlug(value: string): Promise<GenreRow | null> {
    const [row] = await this.db
      .select(genreColumns)
      .from(genres)
      .where(or(eq(genres.slug, value.toLowerCase()), sql`lower(${genres.name}) = lower(${value})`))
      .limit(1);
    return row ?? null;
  }

  /** The genre with this name (any case) or slug, created when it does not exist yet. */
  async findOrCreate(name: string, slug: string): Promise<GenreRow> {
    const existing = (await this.findByNameOrSlug(name)) ?? (await this.findByNameOrSlug(slug));
    if (existing) return existing;
    const [created] = await this.db
      .insert(genres)
      .values({ name, slug })
      .onConflictDoNothing()
      .returning(genreColumns);
    // A concurrent writer may have created it between the lookup and the insert.
    return created ?? (await this.findByNameOrSlug(slug))!;
  }

  /** The user's preferred genres, by name. */
  listPreferredBy(userId: string): Promise<GenreRow[]> {
    return this.db
      .select(genreColumns)
      .from(userPreferredGenres)
      .innerJoin(genres, eq(genres.id, userPreferredGenres.genreId))
      .where(eq(userPreferredGenres.userId, userId))
      .orderBy(asc(genres.name));
  }
}
