import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '../src/db/client';
import {
  albums,
  artists,
  genres,
  likes,
  plays,
  purchases,
  sessions,
  songs,
  subscriptions,
  userPreferredGenres,
  users,
} from '../src/db/schema';
import { titleSearchText, toSearchText, toSlug } from '../src/modules/catalog/search-text';
import { hashToken } from '../src/platform/session-token';
import { catalogCaches } from './test-app';

/**
 * Rows for catalogue tests, written straight to the database (no HTTP, no other module). Like the app's own write
 * paths, each write then invalidates the app's cached catalogue answers (an entitlement only its account's).
 */
export function catalogFixtures(database: Database) {
  const db = database.db;
  const changed = <T>(result: T, userId?: string): T => {
    const cache = catalogCaches.get(database);
    if (userId) cache?.invalidateUser(userId);
    else cache?.invalidate();
    return result;
  };
  let clock = Date.UTC(2024, 0, 1);
  /** Strictly increasing creation times, so "newest first" is deterministic. */
  const tick = () => new Date((clock += 60_000));

  return {
    async user(
      role: 'user' | 'artist' | 'admin' = 'user',
      name = `${role} ${randomBytes(3).toString('hex')}`,
    ) {
      const email = `${randomBytes(6).toString('hex')}@example.test`;
      const [user] = await db.insert(users).values({ name, email, role }).returning({ id: users.id });
      const token = randomBytes(32).toString('base64url');
      await db.insert(sessions).values({
        userId: user!.id,
        tokenHash: hashToken(token),
        expiresAt: new Date(Date.now() + 24 * 3600 * 1000),
      });
      return { id: user!.id, role, name, email, token, headers: { authorization: `Bearer ${token}` } };
    },

    async genre(name: string) {
      const [row] = await db
        .insert(genres)
        .values({ name, slug: toSlug(name) })
        .returning();
      return changed(row!);
    },

    async artist(values: { name: string; ownerUserId?: string | null; genreId?: string | null }) {
      const [row] = await db
        .insert(artists)
        .values({ ...values, searchText: toSearchText(values.name), createdAt: tick() })
        .returning();
      return changed(row!);
    },

    async album(values: {
      artistId: string;
      artistName?: string;
      title: string;
      isPremium?: boolean;
      price?: number;
      genreId?: string;
    }) {
      const { artistName = '', ...rest } = values;
      const [row] = await db
        .insert(albums)
        .values({ ...rest, searchText: titleSearchText(values.title, artistName), createdAt: tick() })
        .returning();
      return changed(row!);
    },

    async song(values: {
      artistId: string;
      artistName?: string;
      title: string;
      albumId?: string | null;
      trackNumber?: number | null;
      genreId?: string | null;
      status?: 'processing' | 'ready' | 'failed';
      accessType?: 'subscription' | 'purchase-only';
      freeToStream?: boolean;
      price?: number;
      createdAt?: Date;
    }) {
      const { artistName = 'Someone', ...rest } = values;
      const [row] = await db
        .insert(songs)
        .values({
          status: 'ready',
          singer: artistName,
          durationSec: 180,
          ...rest,
          searchText: titleSearchText(values.title, artistName),
          createdAt: values.createdAt ?? tick(),
        })
        .returning();
      return changed(row!);
    },

    /** A listen, written as the play endpoint writes it (the dashboards' rollups follow by trigger). */
    async play(userId: string, songId: string, playedAt: Date, kind: 'full' | 'preview' = 'full') {
      await db.insert(plays).values({ userId, songId, secondsListened: 30, kind, playedAt });
    },

    async like(userId: string, songId: string) {
      await db.insert(likes).values({ userId, songId, createdAt: tick() });
    },

    async prefer(userId: string, genreId: string) {
      await db.insert(userPreferredGenres).values({ userId, genreId });
    },

    async purchase(userId: string, item: { songId?: string; albumId?: string }) {
      await db.insert(purchases).values({ userId, ...item });
      changed(undefined, userId);
    },

    async subscribe(userId: string, artistId: string, periodEnd = new Date(Date.now() + 30 * 86_400_000)) {
      await db.insert(subscriptions).values({
        userId,
        artistId,
        status: 'active',
        gateway: 'sandbox',
        currentPeriodEnd: periodEnd,
      });
      changed(undefined, userId);
    },

    /** Row counts of the catalogue tables, to prove a refused request wrote nothing. */
    async counts() {
      const [row] = await database.query<{
        songs: number;
        albums: number;
        artists: number;
        genres: number;
        jobs: number;
      }>(
        sql`select (select count(*)::int from songs) as songs, (select count(*)::int from albums) as albums,
                   (select count(*)::int from artists) as artists, (select count(*)::int from genres) as genres,
                   (select count(*)::int from jobs) as jobs`,
      );
      return row!;
    },
  };
}

export type CatalogFixtures = ReturnType<typeof catalogFixtures>;

export type FormFields = Record<string, string | string[] | { file: Buffer; name: string; type?: string }>;

/** A multipart body as a browser would send it (files as Blobs with a file name). */
export function multipartForm(fields: FormFields): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (Array.isArray(value)) for (const entry of value) data.append(name, entry);
    else if (typeof value === 'string') data.append(name, value);
    else
      data.append(
        name,
        new Blob([new Uint8Array(value.file)], { type: value.type ?? 'application/octet-stream' }),
        value.name,
      );
  }
  return data;
}
