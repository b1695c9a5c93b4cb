import {
  and,
  asc,
  count,
  desc,
  eq,
  gte,
  inArray,
  isNotNull,
  isNull,
  lte,
  ne,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import {
  PAYMENT_SUCCEEDED,
  type Gateway,
  type ItemType,
  type OrderStatus,
  type SubscriptionStatus,
} from '@backbeat/contract';
import type { AppDb } from '../../db/client';
import { albums, artists, orders, payments, purchases, songs, subscriptions, users } from '../../db/schema';
import { albumColumns, type AlbumRow } from '../catalog/album.repository';
import type { PageWindow, Paged } from '../catalog/catalog.pagination';
import { songListColumns, type SongRow } from '../catalog/song.repository';
import { purchaseStands, subscriptionPlaysAt } from '../access/entitlement-rules';

/** Integer sums arrive as bigint (a string from node-postgres); amounts in minor units fit a JS number. */
const sumOf = (column: SQL | typeof payments.amount) =>
  sql<number>`coalesce(sum(${column}), 0)`.mapWith(Number);
const succeeded = eq(payments.status, PAYMENT_SUCCEEDED);

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
  /** Only orders of these artists; undefined means every order. */
  artistIds?: string[];
  status?: OrderStatus;
  gateway?: Gateway;
  from?: Date;
  to?: Date;
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

export interface RevenueRow {
  itemType: ItemType;
  currency: string;
  amount: number;
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

  /** Ids of the artist profiles an account manages (artists_owner_idx). */
  async artistIdsOwnedBy(userId: string): Promise<string[]> {
    const rows = await this.db
      .select({ id: artists.id })
      .from(artists)
      .where(eq(artists.ownerUserId, userId));
    return rows.map((row) => row.id);
  }

  // -------------------------------------------------------------------------------------------------------------
  // User dashboard

  /**
   * Ready songs the user bought, most recent purchase first: songs bought on their own, and tracks of a bought album
   * that are no longer on it (the album lists the others).
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
          eq(songs.status, 'ready'),
          or(
            isNull(purchases.grantedByAlbumId),
            sql`${songs.albumId} is distinct from ${purchases.grantedByAlbumId}`,
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

  /** A page of orders, newest first, with buyer and artist names. */
  async transactions(filter: TransactionFilter, window: PageWindow): Promise<Paged<TransactionRow>> {
    if (filter.artistIds?.length === 0) return { rows: [], total: 0 };
    const where = and(
      filter.artistIds ? inArray(orders.artistId, filter.artistIds) : undefined,
      filter.status ? eq(orders.status, filter.status) : undefined,
      filter.gateway ? eq(orders.gateway, filter.gateway) : undefined,
      filter.from ? gte(orders.createdAt, filter.from) : undefined,
      filter.to ? lte(orders.createdAt, filter.to) : undefined,
    );
    const [rows, [totals]] = await Promise.all([
      this.db
        .select({
          ...orderColumns,
          userId: users.id,
          userName: users.name,
          userEmail: users.email,
          artistId: artists.id,
          artistName: artists.name,
        })
        .from(orders)
        .leftJoin(users, eq(users.id, orders.userId))
        .leftJoin(artists, eq(artists.id, orders.artistId))
        .where(where)
        .orderBy(...newestOrdersFirst)
        .limit(window.limit)
        .offset(window.offset),
      this.db.select({ total: count() }).from(orders).where(where),
    ]);
    return { rows, total: totals?.total ?? 0 };
  }

  /** Succeeded payments for the artist's orders, summed per item type and currency (orders_artist_idx). */
  revenueOf(artistId: string): Promise<RevenueRow[]> {
    return this.db
      .select({ itemType: orders.itemType, currency: payments.currency, amount: sumOf(payments.amount) })
      .from(orders)
      .innerJoin(payments, eq(payments.orderId, orders.id))
      .where(and(eq(orders.artistId, artistId), succeeded))
      .groupBy(orders.itemType, payments.currency);
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
    const sales = this.db
      .select({
        songId: orders.songId,
        currency: payments.currency,
        revenue: sumOf(payments.amount).as('sale_revenue'),
      })
      .from(orders)
      .innerJoin(payments, eq(payments.orderId, orders.id))
      .where(and(eq(orders.artistId, artistId), eq(orders.itemType, 'song'), succeeded))
      .groupBy(orders.songId, payments.currency)
      .as('sales');
    const purchaseCount = sql<number>`coalesce(${owners.total}, 0)`.mapWith(Number);
    const revenue = sql<number>`coalesce(${sales.revenue}, 0)`.mapWith(Number);
    return this.db
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
      .leftJoin(sales, and(eq(sales.songId, songs.id), eq(sales.currency, songs.currency)))
      .where(and(eq(songs.artistId, artistId), or(isNotNull(owners.total), isNotNull(sales.revenue))))
      .orderBy(desc(revenue), desc(purchaseCount), asc(songs.title), asc(songs.id));
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
    const sales = this.db
      .select({
        albumId: orders.albumId,
        currency: payments.currency,
        revenue: sumOf(payments.amount).as('sale_revenue'),
      })
      .from(orders)
      .innerJoin(payments, eq(payments.orderId, orders.id))
      .where(and(eq(orders.artistId, artistId), eq(orders.itemType, 'album'), succeeded))
      .groupBy(orders.albumId, payments.currency)
      .as('sales');
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
      .leftJoin(sales, and(eq(sales.albumId, albums.id), eq(sales.currency, albums.currency)))
      .where(and(eq(albums.artistId, artistId), or(isNotNull(owners.total), isNotNull(sales.revenue))))
      .orderBy(desc(revenue), desc(purchaseCount), asc(albums.title), asc(albums.id));
  }
}
