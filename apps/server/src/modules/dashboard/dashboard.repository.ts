/**
 * Over 400 lines on purpose for now: the dashboards' reads of live rows (artists, buyers' subscriptions, the
 * transactions list and its keyset-paged CSV export, subscriber counts) share the filters and cursor types at the
 * top; the rollup queries live in dashboard-analytics.repository.ts.
 */
import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import {
  TRANSACTIONS_PAGE_WINDOW,
  type Gateway,
  type ItemType,
  type OrderStatus,
  type SubscriptionStatus,
  type TransactionSort,
} from '@backbeat/contract';
import type { AppDb } from '../../db/client';
import {
  albums,
  artists,
  PLAYABLE_SONG_STATUSES,
  itemRevenueRollup,
  orders,
  purchases,
  revenueRollup,
  songs,
  subscriptions,
  users,
} from '../../db/schema';
import type { PageWindow, Paged } from '../../platform/pagination';
import { albumColumns, songListColumns, type AlbumRow, type SongRow } from '../catalog';
import { purchaseStands, subscriptionPlaysAt } from '../access';

/** Integer sums arrive as bigint (a string from node-postgres); amounts in minor units fit a JS number. */
const sumOf = (expression: SQL) => sql<number>`coalesce(sum(${expression}), 0)`.mapWith(Number);
/** All-time figures read the month rows of the rollups: one per month. */
const allTime = (table: typeof revenueRollup | typeof itemRevenueRollup) => eq(table.grain, 'month');

export interface DashboardArtist {
  id: string;
  ownerUserId: string | null;
  currency: string;
}

export interface OrderRow {
  id: string;
  itemType: ItemType;
  itemId: string | null;
  itemTitle: string;
  cycle: string | null;
  amount: number;
  currency: string;
  gateway: Gateway;
  status: OrderStatus;
  createdAt: Date;
}

export interface TransactionRow extends OrderRow {
  userId: string | null;
  userName: string | null;
  userEmail: string | null;
  artistId: string | null;
  artistName: string | null;
}

export interface TransactionFilter {
  /** Only this artist's orders; undefined means every order, null none (an artist account without a profile). */
  artistId?: string | null;
  status?: OrderStatus;
  gateway?: Gateway;
  itemType?: ItemType;
  from?: Date;
  to?: Date;
}

/** Where a keyset page of the CSV export resumes: after this row in the export's order. */
export interface TransactionCursor {
  /** The row's created_at as PostgreSQL printed it: microseconds, which a JS Date (milliseconds) would cut off. */
  createdAt: string;
  amount: number;
  id: string;
}

export interface SubscriptionRow {
  id: string;
  status: SubscriptionStatus;
  cycle: string;
  gateway: Gateway;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  createdAt: Date;
  artistId: string;
  artistName: string;
  artistImage: string | null;
  price: number;
  currency: string;
}

export interface SoldItemRow {
  id: string;
  title: string;
  cover: string | null;
  currency: string;
  purchases: number;
  revenue: number;
}

/** Revenue of one currency: payments less refunds, by kind. */
export interface RevenueRow {
  currency: string;
  songRevenue: number;
  albumRevenue: number;
  subscriptionRevenue: number;
}

const orderColumns = {
  id: orders.id,
  itemType: orders.itemType,
  itemId: sql<string | null>`case ${orders.itemType}
    when 'song' then ${orders.songId} when 'album' then ${orders.albumId} else ${orders.artistId} end`,
  itemTitle: orders.itemTitle,
  cycle: orders.cycle,
  amount: orders.amount,
  currency: orders.currency,
  gateway: orders.gateway,
  status: orders.status,
  createdAt: orders.createdAt,
};
const newestOrdersFirst = [desc(orders.createdAt), desc(orders.id)];
const transactionColumns = {
  ...orderColumns,
  userId: users.id,
  userName: users.name,
  userEmail: users.email,
  artistId: artists.id,
  artistName: artists.name,
};
/** Each sort with a unique tie-break, so pages and CSV batches never skip or repeat a row. */
const ORDERINGS: Record<TransactionSort, SQL[]> = {
  '-createdAt': [desc(orders.createdAt), desc(orders.id)],
  createdAt: [asc(orders.createdAt), asc(orders.id)],
  '-amount': [desc(orders.amount), desc(orders.createdAt), desc(orders.id)],
  amount: [asc(orders.amount), asc(orders.createdAt), asc(orders.id)],
};

function transactionWhere(filter: TransactionFilter): SQL | undefined {
  return and(
    filter.artistId !== undefined ? eq(orders.artistId, filter.artistId ?? sql`null`) : undefined,
    filter.status ? eq(orders.status, filter.status) : undefined,
    filter.gateway ? eq(orders.gateway, filter.gateway) : undefined,
    filter.itemType ? eq(orders.itemType, filter.itemType) : undefined,
    filter.from ? gte(orders.createdAt, filter.from) : undefined,
    filter.to ? lte(orders.createdAt, filter.to) : undefined,
  );
}

/** Rows strictly after `cursor` in the sort's order (a row-value comparison the sort's index serves). */
function after(sort: TransactionSort, cursor: TransactionCursor): SQL {
  const at = cursor.createdAt;
  switch (sort) {
    case '-createdAt':
      return sql`(${orders.createdAt}, ${orders.id}) < (${at}::timestamptz, ${cursor.id}::uuid)`;
    case 'createdAt':
      return sql`(${orders.createdAt}, ${orders.id}) > (${at}::timestamptz, ${cursor.id}::uuid)`;
    case '-amount':
      return sql`(${orders.amount}, ${orders.createdAt}, ${orders.id}) < (${cursor.amount}, ${at}::timestamptz, ${cursor.id}::uuid)`;
    case 'amount':
      return sql`(${orders.amount}, ${orders.createdAt}, ${orders.id}) > (${cursor.amount}, ${at}::timestamptz, ${cursor.id}::uuid)`;
  }
}

/** All SQL of the dashboards: every list and total is one indexed query, aggregated in the database. */
export class DashboardRepository {
  constructor(private readonly db: AppDb) {}

  async findArtist(id: string): Promise<DashboardArtist | null> {
    const [row] = await this.db
      .select({ id: artists.id, ownerUserId: artists.ownerUserId, currency: artists.currency })
      .from(artists)
      .where(eq(artists.id, id))
      .limit(1);
    return row ?? null;
  }

  /** The artist profile an artist account manages (at most one: artists_owner_key). */
  async artistOwnedBy(userId: string): Promise<DashboardArtist | null> {
    const [row] = await this.db
      .select({ id: artists.id, ownerUserId: artists.ownerUserId, currency: artists.currency })
      .from(artists)
      .where(eq(artists.ownerUserId, userId))
      .limit(1);
    return row ?? null;
  }

  // -------------------------------------------------------------------------------------------------------------
  // User dashboard

  /**
   * Playable songs the user bought, most recent purchase first: songs bought on their own, and tracks of a bought
   * album that are no longer on it (the album lists the others; a deleted album lists the tracks it held then).
   * Songs their artist removed after they were sold are included: they are the buyer's.
   */
  purchasedSongsOf(userId: string): Promise<SongRow[]> {
    return this.db
      .select(songListColumns)
      .from(songs)
      .innerJoin(purchases, eq(purchases.songId, songs.id))
      .where(
        and(
          eq(purchases.userId, userId),
          purchaseStands,
          inArray(songs.status, [...PLAYABLE_SONG_STATUSES]),
          or(
            isNull(purchases.grantedByAlbumId),
            sql`not exists (select 1 from albums ga where ga.id = ${purchases.grantedByAlbumId}
              and (ga.deleted_at is null and ga.id = ${songs.albumId}
                   or ga.deleted_at is not null and ${songs.id} = any(ga.deleted_track_ids)))`,
          ),
        ),
      )
      .orderBy(desc(purchases.createdAt), desc(songs.id));
  }

  /** Albums the user bought, most recent purchase first. */
  purchasedAlbumsOf(userId: string): Promise<AlbumRow[]> {
    return this.db
      .select(albumColumns)
      .from(albums)
      .innerJoin(purchases, eq(purchases.albumId, albums.id))
      .where(and(eq(purchases.userId, userId), purchaseStands))
      .orderBy(desc(purchases.createdAt), desc(albums.id));
  }

  /** Every order of the user, newest first (orders_user_idx). */
  ordersOf(userId: string): Promise<OrderRow[]> {
    return this.db
      .select(orderColumns)
      .from(orders)
      .where(eq(orders.userId, userId))
      .orderBy(...newestOrdersFirst);
  }

  /** The user's latest non-pending subscription to each artist, newest first. */
  async subscriptionsOf(userId: string): Promise<SubscriptionRow[]> {
    const rows = await this.db
      .selectDistinctOn([subscriptions.artistId], {
        id: subscriptions.id,
        status: subscriptions.status,
        cycle: subscriptions.cycle,
        gateway: subscriptions.gateway,
        currentPeriodEnd: subscriptions.currentPeriodEnd,
        cancelAtPeriodEnd: subscriptions.cancelAtPeriodEnd,
        createdAt: subscriptions.createdAt,
        artistId: subscriptions.artistId,
        artistName: artists.name,
        artistImage: artists.image,
        price: artists.subscriptionPrice,
        currency: artists.currency,
      })
      .from(subscriptions)
      .innerJoin(artists, eq(artists.id, subscriptions.artistId))
      .where(and(eq(subscriptions.userId, userId), ne(subscriptions.status, 'pending')))
      .orderBy(subscriptions.artistId, desc(subscriptions.createdAt), desc(subscriptions.id));
    return rows.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id));
  }

  // -------------------------------------------------------------------------------------------------------------
  // Artist / admin dashboard

  /**
   * A page of orders in the requested order, with buyer and artist names. The total counts matching orders up to
   * the page window (and says when there are more): counting a million rows on every page would cost more than the
   * page itself.
   */
  async transactions(
    filter: TransactionFilter,
    sort: TransactionSort,
    window: PageWindow,
  ): Promise<Paged<TransactionRow> & { capped: boolean }> {
    if (filter.artistId === null) return { rows: [], total: 0, capped: false };
    const where = transactionWhere(filter);
    const matching = this.db
      .select({ one: sql`1` })
      .from(orders)
      .where(where)
      .limit(TRANSACTIONS_PAGE_WINDOW + 1)
      .as('matching');
    // The page's ids first (index only), then their names: a deep page skips rows without joining them.
    const page = this.db
      .select({ id: orders.id })
      .from(orders)
      .where(where)
      .orderBy(...ORDERINGS[sort])
      .limit(window.limit)
      .offset(window.offset)
      .as('page');
    const [rows, [counted]] = await Promise.all([
      this.db
        .select(transactionColumns)
        .from(page)
        .innerJoin(orders, eq(orders.id, page.id))
        .leftJoin(users, eq(users.id, orders.userId))
        .leftJoin(artists, eq(artists.id, orders.artistId))
        .orderBy(...ORDERINGS[sort]),
      this.db.select({ total: sql<number>`count(*)::int` }).from(matching),
    ]);
    const found = counted?.total ?? 0;
    return {
      rows,
      total: Math.min(found, TRANSACTIONS_PAGE_WINDOW),
      capped: found > TRANSACTIONS_PAGE_WINDOW,
    };
  }

  /** One batch of the CSV export: the next `limit` orders after `cursor` (keyset paging, no offset). */
  transactionBatch(
    filter: TransactionFilter,
    sort: TransactionSort,
    cursor: TransactionCursor | null,
    limit: number,
  ): Promise<Array<TransactionRow & { cursorAt: string }>> {
    if (filter.artistId === null) return Promise.resolve([]);
    return this.db
      .select({ ...transactionColumns, cursorAt: sql<string>`${orders.createdAt}::text` })
      .from(orders)
      .leftJoin(users, eq(users.id, orders.userId))
      .leftJoin(artists, eq(artists.id, orders.artistId))
      .where(and(transactionWhere(filter), cursor ? after(sort, cursor) : undefined))
      .orderBy(...ORDERINGS[sort])
      .limit(limit);
  }

  /** The artist's revenue per currency, all time: payments less refunds (month rows of revenue_rollup). */
  revenueOf(artistId: string): Promise<RevenueRow[]> {
    const r = revenueRollup;
    return this.db
      .select({
        currency: r.currency,
        songRevenue: sumOf(sql`${r.songGross} - ${r.songRefunded}`),
        albumRevenue: sumOf(sql`${r.albumGross} - ${r.albumRefunded}`),
        subscriptionRevenue: sumOf(sql`${r.subscriptionGross} - ${r.subscriptionRefunded}`),
      })
      .from(r)
      .where(and(eq(r.scope, artistId), allTime(r)))
      .groupBy(r.currency)
      .orderBy(asc(r.currency));
  }

  /** Accounts whose subscription to the artist plays at `now` (subscriptions_artist_idx). */
  async activeSubscriberCount(artistId: string, now: Date): Promise<number> {
    const [row] = await this.db
      .select({ total: sql<number>`count(distinct ${subscriptions.userId})::int` })
      .from(subscriptions)
      .where(and(eq(subscriptions.artistId, artistId), subscriptionPlaysAt(now)));
    return row?.total ?? 0;
  }

  /** The artist's songs that were bought: owners and succeeded revenue in the song's currency. */
  soldSongsOf(artistId: string): Promise<SoldItemRow[]> {
    const owners = this.db
      .select({ songId: purchases.songId, total: sql<number>`count(*)::int`.as('owner_count') })
      .from(purchases)
      .innerJoin(songs, eq(songs.id, purchases.songId))
      .where(and(eq(songs.artistId, artistId), purchaseStands, isNull(purchases.grantedByAlbumId)))
      .groupBy(purchases.songId)
      .as('owners');
    const sales = this.itemRevenue('song', artistId, 'songId');
    const purchaseCount = sql<number>`coalesce(${owners.total}, 0)`.mapWith(Number);
    const revenue = sql<number>`coalesce(${sales.revenue}, 0)`.mapWith(Number);
    return (
      this.db
        .select({
          id: songs.id,
          title: songs.title,
          cover: sql<string | null>`coalesce(${songs.coverImage}, ${songListColumns.albumCover})`,
          currency: songs.currency,
          purchases: purchaseCount,
          revenue,
        })
        .from(songs)
        .leftJoin(owners, eq(owners.songId, songs.id))
        .leftJoin(sales, and(eq(sales.itemId, songs.id), eq(sales.currency, songs.currency)))
        // Songs removed after they sold left the catalogue, and the artist's lists of it.
        .where(
          and(
            eq(songs.artistId, artistId),
            ne(songs.status, 'removed'),
            or(isNotNull(owners.total), isNotNull(sales.revenue)),
          ),
        )
        .orderBy(desc(revenue), desc(purchaseCount), asc(songs.title), asc(songs.id))
    );
  }

  /** The artist's albums that were bought: owners and succeeded revenue in the album's currency. */
  soldAlbumsOf(artistId: string): Promise<SoldItemRow[]> {
    const owners = this.db
      .select({ albumId: purchases.albumId, total: sql<number>`count(*)::int`.as('owner_count') })
      .from(purchases)
      .innerJoin(albums, eq(albums.id, purchases.albumId))
      .where(and(eq(albums.artistId, artistId), purchaseStands))
      .groupBy(purchases.albumId)
      .as('owners');
    const sales = this.itemRevenue('album', artistId, 'albumId');
    const purchaseCount = sql<number>`coalesce(${owners.total}, 0)`.mapWith(Number);
    const revenue = sql<number>`coalesce(${sales.revenue}, 0)`.mapWith(Number);
    return this.db
      .select({
        id: albums.id,
        title: albums.title,
        cover: albums.cover,
        currency: albums.currency,
        purchases: purchaseCount,
        revenue,
      })
      .from(albums)
      .leftJoin(owners, eq(owners.albumId, albums.id))
      .leftJoin(sales, and(eq(sales.itemId, albums.id), eq(sales.currency, albums.currency)))
      .where(
        and(
          eq(albums.artistId, artistId),
          isNull(albums.deletedAt),
          or(isNotNull(owners.total), isNotNull(sales.revenue)),
        ),
      )
      .orderBy(desc(revenue), desc(purchaseCount), asc(albums.title), asc(albums.id));
  }

  /** All-time revenue (payments less refunds) of the artist's songs or albums, per item and currency. */
  private itemRevenue(type: 'song' | 'album', artistId: string, alias: string) {
    const r = itemRevenueRollup;
    return this.db
      .select({
        itemId: r.itemId,
        currency: r.currency,
        revenue: sumOf(sql`${r.gross} - ${r.refunded}`).as('sale_revenue'),
      })
      .from(r)
      .where(and(eq(r.artistId, artistId), eq(r.itemType, type), allTime(r)))
      .groupBy(r.itemId, r.currency)
      .as(`sales_${alias}`);
  }
}
