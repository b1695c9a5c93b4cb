import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { albums, songs } from '../src/db/schema';
import type { catalogFixtures } from './catalog-fixtures';
import { catalogCaches, type TestContext } from './test-app';

export type Fixtures = ReturnType<typeof catalogFixtures>;
export type TestUser = Awaited<ReturnType<Fixtures['user']>>;

/** Catalogue rows with prices, written straight to the tables; songs are ready and streamable. */
export function commerceFixtures(ctx: TestContext) {
  const db = ctx.database.db;
  const changed = () => catalogCaches.get(ctx.database)?.invalidate();
  return {
    async album(values: { artistId: string; title: string; price: number; isPremium?: boolean }) {
      const [row] = await db.insert(albums).values(values).returning({ id: albums.id });
      changed();
      return row!.id;
    },
    async song(values: {
      artistId: string;
      title: string;
      price: number;
      accessType: 'subscription' | 'purchase-only';
      albumId?: string;
      status?: 'processing' | 'ready';
    }) {
      const id = randomUUID();
      await db.insert(songs).values({
        id,
        singer: 'Test Singer',
        status: 'ready',
        hlsPrefix: `songs/${id}/v1`,
        durationSec: 120,
        ...values,
      });
      changed();
      return id;
    },
  };
}

/** Row counts of the commerce tables, to prove a request wrote nothing (or exactly one row). */
export async function commerceCounts(ctx: TestContext) {
  const [row] = await ctx.database.query<{
    orders: number;
    payments: number;
    purchases: number;
    subscriptions: number;
  }>(
    sql`select (select count(*)::int from orders) as orders, (select count(*)::int from payments) as payments,
               (select count(*)::int from purchases) as purchases,
               (select count(*)::int from subscriptions) as subscriptions`,
  );
  return row!;
}

export function requests(ctx: TestContext) {
  const headers = (user?: TestUser) => user?.headers ?? {};
  return {
    get: (url: string, user?: TestUser) => ctx.app.inject({ method: 'GET', url, headers: headers(user) }),
    post: (url: string, payload: unknown, user?: TestUser) =>
      ctx.app.inject({ method: 'POST', url, payload: payload as object, headers: headers(user) }),
    del: (url: string, user?: TestUser) => ctx.app.inject({ method: 'DELETE', url, headers: headers(user) }),
    /** Whether the viewer may play each of the artist's songs, as the catalogue lists them. */
    async canPlay(artistId: string, user: TestUser): Promise<Record<string, boolean>> {
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/api/songs/artist/${artistId}`,
        headers: headers(user),
      });
      const body = res.json<{ songs: Array<{ _id: string; canPlay: boolean }> }>();
      return Object.fromEntries(body.songs.map((song) => [song._id, song.canPlay]));
    },
    async stream(songId: string, user: TestUser): Promise<number> {
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/api/stream/song/${songId}`,
        headers: headers(user),
      });
      return res.statusCode;
    },
  };
}
