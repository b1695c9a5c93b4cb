import { and, desc, eq, gt, inArray, or, type SQL } from 'drizzle-orm';
import type { OrderStatus, PaymentGateway as GatewayName } from '@backbeat/contract';
import type { AppDb } from '../../db/client';
import { albums, artists, orders, payments, purchases, songs, subscriptions } from '../../db/schema';
import type { PaymentConfirmation } from './payment-gateway';

export interface SongForSale {
  id: string;
  title: string;
  price: number;
  currency: string;
  artistId: string;
  album: { id: string; title: string; isPremium: boolean } | null;
}

export interface AlbumForSale {
  id: string;
  title: string;
  price: number;
  currency: string;
  artistId: string;
}

export interface ArtistForSale {
  id: string;
  name: string;
  subscriptionPrice: number;
  currency: string;
}

export type OrderRow = typeof orders.$inferSelect;
export type NewOrder = typeof orders.$inferInsert;
export type SubscriptionRow = typeof subscriptions.$inferSelect;

/** A subscription that plays at `now`: active, or cancelled but paid through a period not yet ended. */
const paidThrough = (now: Date): SQL =>
  and(inArray(subscriptions.status, ['active', 'cancelled']), gt(subscriptions.currentPeriodEnd, now))!;

/** The SQL of payments: catalogue prices, entitlements, orders and their confirmations. */
export class PaymentsRepository {
  constructor(private readonly db: AppDb) {}

  async findSong(id: string): Promise<SongForSale | null> {
    const [row] = await this.db
      .select({
        id: songs.id,
        title: songs.title,
        price: songs.price,
        currency: songs.currency,
        artistId: songs.artistId,
        albumId: albums.id,
        albumTitle: albums.title,
        albumIsPremium: albums.isPremium,
      })
      .from(songs)
      .leftJoin(albums, eq(albums.id, songs.albumId))
      .where(and(eq(songs.id, id), eq(songs.status, 'ready')))
      .limit(1);
    if (!row) return null;
    const { albumId, albumTitle, albumIsPremium, ...song } = row;
    return {
      ...song,
      album: albumId ? { id: albumId, title: albumTitle ?? '', isPremium: albumIsPremium ?? false } : null,
    };
  }

  async findAlbum(id: string): Promise<AlbumForSale | null> {
    const [row] = await this.db
      .select({
        id: albums.id,
        title: albums.title,
        price: albums.price,
        currency: albums.currency,
        artistId: albums.artistId,
      })
      .from(albums)
      .where(eq(albums.id, id))
      .limit(1);
    return row ?? null;
  }

  async findArtist(id: string): Promise<ArtistForSale | null> {
    const [row] = await this.db
      .select({
        id: artists.id,
        name: artists.name,
        subscriptionPrice: artists.subscriptionPrice,
        currency: artists.currency,
      })
      .from(artists)
      .where(eq(artists.id, id))
      .limit(1);
    return row ?? null;
  }

  /** True when the user bought the song, or the album it is on. */
  async ownsSong(userId: string, songId: string, albumId: string | null): Promise<boolean> {
    const bought = albumId
      ? or(eq(purchases.songId, songId), eq(purchases.albumId, albumId))
      : eq(purchases.songId, songId);
    const rows = await this.db
      .select({ id: purchases.id })
      .from(purchases)
      .where(and(eq(purchases.userId, userId), bought))
      .limit(1);
    return rows.length > 0;
  }

  async ownsAlbum(userId: string, albumId: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: purchases.id })
      .from(purchases)
      .where(and(eq(purchases.userId, userId), eq(purchases.albumId, albumId)))
      .limit(1);
    return rows.length > 0;
  }

  /** The user's subscription to the artist that is active (not cancelled) and paid through a future date. */
  async findActiveSubscription(userId: string, artistId: string, now: Date): Promise<SubscriptionRow | null> {
    const [row] = await this.db
      .select()
      .from(subscriptions)
      .where(
        and(
          eq(subscriptions.userId, userId),
          eq(subscriptions.artistId, artistId),
          eq(subscriptions.status, 'active'),
          gt(subscriptions.currentPeriodEnd, now),
        ),
      )
      .orderBy(desc(subscriptions.currentPeriodEnd))
      .limit(1);
    return row ?? null;
  }

  /** The subscription that still plays at `now` (latest end first), locked until the transaction ends. */
  async lockPaidThroughSubscription(
    userId: string,
    artistId: string,
    now: Date,
  ): Promise<SubscriptionRow | null> {
    const [row] = await this.db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, userId), eq(subscriptions.artistId, artistId), paidThrough(now)))
      .orderBy(desc(subscriptions.currentPeriodEnd), desc(subscriptions.createdAt))
      .limit(1)
      .for('update');
    return row ?? null;
  }

  async insertSubscription(values: typeof subscriptions.$inferInsert): Promise<void> {
    await this.db.insert(subscriptions).values(values);
  }

  async extendSubscription(id: string, values: { periodEnd: Date; cycle: string; now: Date }): Promise<void> {
    await this.db
      .update(subscriptions)
      .set({
        status: 'active',
        cycle: values.cycle,
        currentPeriodEnd: values.periodEnd,
        cancelledAt: null,
        updatedAt: values.now,
      })
      .where(eq(subscriptions.id, id));
  }

  /** Cancels the user's active subscriptions to the artist; access lasts until their period end. */
  async cancelActiveSubscriptions(userId: string, artistId: string, now: Date): Promise<number> {
    const rows = await this.db
      .update(subscriptions)
      .set({ status: 'cancelled', cancelledAt: now, updatedAt: now })
      .where(
        and(
          eq(subscriptions.userId, userId),
          eq(subscriptions.artistId, artistId),
          eq(subscriptions.status, 'active'),
          gt(subscriptions.currentPeriodEnd, now),
        ),
      )
      .returning({ id: subscriptions.id });
    return rows.length;
  }

  async insertOrder(values: NewOrder): Promise<OrderRow> {
    const [row] = await this.db.insert(orders).values(values).returning();
    return row!;
  }

  async updateOrder(
    id: string,
    values: { status?: OrderStatus; externalId?: string; now: Date },
  ): Promise<OrderRow> {
    const { now, ...rest } = values;
    const [row] = await this.db
      .update(orders)
      .set({ ...rest, updatedAt: now })
      .where(eq(orders.id, id))
      .returning();
    return row!;
  }

  /** The order if it belongs to the user (anyone else's is invisible). */
  async findOrderOf(id: string, userId: string): Promise<OrderRow | null> {
    const [row] = await this.db
      .select()
      .from(orders)
      .where(and(eq(orders.id, id), eq(orders.userId, userId)))
      .limit(1);
    return row ?? null;
  }

  /** Like findOrderOf, and locks the row until the transaction ends (serialises concurrent confirmations). */
  async lockOrderOf(id: string, userId: string): Promise<OrderRow | null> {
    const [row] = await this.db
      .select()
      .from(orders)
      .where(and(eq(orders.id, id), eq(orders.userId, userId)))
      .limit(1)
      .for('update');
    return row ?? null;
  }

  /** Records a confirmation; false when the same (gateway, external id) was recorded before (a replay). */
  async insertPayment(
    orderId: string,
    gateway: GatewayName,
    confirmation: PaymentConfirmation,
  ): Promise<boolean> {
    const rows = await this.db
      .insert(payments)
      .values({
        orderId,
        gateway,
        externalId: confirmation.externalId,
        amount: confirmation.amount,
        currency: confirmation.currency,
        status: confirmation.status,
        raw: confirmation.raw,
      })
      .onConflictDoNothing({ target: [payments.gateway, payments.externalId] })
      .returning({ id: payments.id });
    return rows.length > 0;
  }

  /** Grants a song or album; an entitlement the user already holds is kept as it is. */
  async grantPurchase(userId: string, item: { songId: string } | { albumId: string }, orderId: string) {
    await this.db
      .insert(purchases)
      .values({ userId, orderId, ...item })
      .onConflictDoNothing();
  }
}

/** Runs work in one transaction with a repository bound to it (PGlite has one connection: use only that one). */
export type PaymentsTransactor = <T>(work: (repo: PaymentsRepository) => Promise<T>) => Promise<T>;

export function createPaymentsTransactor(db: AppDb): PaymentsTransactor {
  return (work) => db.transaction((tx) => work(new PaymentsRepository(tx as unknown as AppDb)));
}
