import { and, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { OrderStatus, PaymentGateway as GatewayName } from '@backbeat/contract';
import type { AppDb } from '../../db/client';
import {
  albums,
  artists,
  jobs,
  orders,
  paymentCustomers,
  paymentEvents,
  paymentPlans,
  payments,
  purchases,
  refunds,
  songs,
  subscriptions,
  users,
} from '../../db/schema';
import { EntitlementGrants } from '../access/entitlement-grants.repository';
import { purchaseStands, subscriptionPlaysAt } from '../access/entitlement-rules';
import type { PaymentConfirmation } from './payment-gateway';

export interface SongForSale {
  id: string;
  title: string;
  price: number;
  currency: string;
  artistId: string;
  /** The account that manages the song's artist: its music already plays for it. */
  artistOwnerUserId: string | null;
  album: { id: string; title: string; isPremium: boolean } | null;
}

export interface AlbumForSale {
  id: string;
  title: string;
  price: number;
  currency: string;
  artistId: string;
  artistOwnerUserId: string | null;
}

export interface ArtistForSale {
  id: string;
  name: string;
  subscriptionPrice: number;
  currency: string;
  ownerUserId: string | null;
}

export type OrderRow = typeof orders.$inferSelect;
export type NewOrder = typeof orders.$inferInsert;
export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type NewSubscription = typeof subscriptions.$inferInsert;
export type PaymentRow = typeof payments.$inferSelect;
export type RefundRow = typeof refunds.$inferSelect;
export type PaymentEventRow = typeof paymentEvents.$inferSelect;
export type PaymentEventStatus = PaymentEventRow['status'];

export interface Buyer {
  id: string;
  name: string;
  email: string;
}

/** The SQL of payments: catalogue prices, entitlements, orders and their confirmations. */
export class PaymentsRepository {
  /** Purchases granted and revoked by payments (the access module owns these writes). */
  readonly grants: EntitlementGrants;

  constructor(private readonly db: AppDb) {
    this.grants = new EntitlementGrants(db);
  }

  async findSong(id: string): Promise<SongForSale | null> {
    const [row] = await this.db
      .select({
        id: songs.id,
        title: songs.title,
        price: songs.price,
        currency: songs.currency,
        artistId: songs.artistId,
        artistOwnerUserId: artists.ownerUserId,
        albumId: albums.id,
        albumTitle: albums.title,
        albumIsPremium: albums.isPremium,
      })
      .from(songs)
      .innerJoin(artists, eq(artists.id, songs.artistId))
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
        artistOwnerUserId: artists.ownerUserId,
      })
      .from(albums)
      .innerJoin(artists, eq(artists.id, albums.artistId))
      // A deleted album (sold, then deleted by its artist) is never sold again.
      .where(and(eq(albums.id, id), isNull(albums.deletedAt)))
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
        ownerUserId: artists.ownerUserId,
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
      .where(and(eq(purchases.userId, userId), bought, purchaseStands))
      .limit(1);
    return rows.length > 0;
  }

  async ownsAlbum(userId: string, albumId: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: purchases.id })
      .from(purchases)
      .where(and(eq(purchases.userId, userId), eq(purchases.albumId, albumId), purchaseStands))
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
      .where(
        and(eq(subscriptions.userId, userId), eq(subscriptions.artistId, artistId), subscriptionPlaysAt(now)),
      )
      .orderBy(desc(subscriptions.currentPeriodEnd), desc(subscriptions.createdAt))
      .limit(1)
      .for('update');
    return row ?? null;
  }

  async insertSubscription(values: NewSubscription): Promise<SubscriptionRow> {
    const [row] = await this.db.insert(subscriptions).values(values).returning();
    return row!;
  }

  async extendSubscription(id: string, values: { periodEnd: Date; cycle: string; now: Date }): Promise<void> {
    await this.db
      .update(subscriptions)
      .set({
        status: 'active',
        cycle: values.cycle,
        currentPeriodEnd: values.periodEnd,
        cancelAtPeriodEnd: false,
        cancelledAt: null,
        updatedAt: values.now,
      })
      .where(eq(subscriptions.id, id));
  }

  /** Cancels the user's active subscriptions to the artist; access lasts until their period end. */
  async cancelActiveSubscriptions(userId: string, artistId: string, now: Date): Promise<number> {
    const rows = await this.db
      .update(subscriptions)
      .set({ status: 'cancelled', cancelAtPeriodEnd: true, cancelledAt: now, updatedAt: now })
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
    values: { status?: OrderStatus; externalId?: string; subscriptionId?: string; now: Date },
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
    /** When the money arrived, on the ledger's clock (the dashboards count it on that day). */
    at: Date,
  ): Promise<boolean> {
    const rows = await this.db
      .insert(payments)
      .values({
        orderId,
        gateway,
        externalId: confirmation.externalId,
        reference: confirmation.reference ?? null,
        amount: confirmation.amount,
        currency: confirmation.currency,
        status: confirmation.status,
        raw: confirmation.raw,
        createdAt: at,
      })
      .onConflictDoNothing({ target: [payments.gateway, payments.externalId] })
      .returning({ id: payments.id });
    return rows.length > 0;
  }

  // ---------------------------------------------------------------------------------------------------------
  // Gateway orders, payments, refunds and events

  /** The order a gateway knows by its own id (payment intent, razorpay order, paypal order), locked. */
  async lockOrderByExternal(gateway: GatewayName, externalId: string): Promise<OrderRow | null> {
    const [row] = await this.db
      .select()
      .from(orders)
      .where(and(eq(orders.gateway, gateway), eq(orders.externalId, externalId)))
      .limit(1)
      .for('update');
    return row ?? null;
  }

  async findOrderByExternal(gateway: GatewayName, externalId: string): Promise<OrderRow | null> {
    const [row] = await this.db
      .select()
      .from(orders)
      .where(and(eq(orders.gateway, gateway), eq(orders.externalId, externalId)))
      .limit(1);
    return row ?? null;
  }

  async findSubscriptionByExternal(
    gateway: GatewayName,
    externalId: string,
  ): Promise<SubscriptionRow | null> {
    const [row] = await this.db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.gateway, gateway), eq(subscriptions.externalId, externalId)))
      .limit(1);
    return row ?? null;
  }

  /** Any order by id, locked until the transaction ends. */
  async lockOrder(id: string): Promise<OrderRow | null> {
    const [row] = await this.db.select().from(orders).where(eq(orders.id, id)).limit(1).for('update');
    return row ?? null;
  }

  async findOrder(id: string): Promise<OrderRow | null> {
    const [row] = await this.db.select().from(orders).where(eq(orders.id, id)).limit(1);
    return row ?? null;
  }

  /** The order a subscription was started with (not a renewal), locked. */
  async lockInitialOrderOf(subscriptionId: string): Promise<OrderRow | null> {
    const [row] = await this.db
      .select()
      .from(orders)
      .where(and(eq(orders.subscriptionId, subscriptionId), eq(orders.renewal, false)))
      .orderBy(desc(orders.createdAt))
      .limit(1)
      .for('update');
    return row ?? null;
  }

  /** The payment, and its order, that a gateway id names: its own id or its reference (for refunds, disputes). */
  async findPaymentByGatewayId(
    gateway: GatewayName,
    id: string,
  ): Promise<{ payment: PaymentRow; order: OrderRow } | null> {
    const [row] = await this.db
      .select({ payment: payments, order: orders })
      .from(payments)
      .innerJoin(orders, eq(orders.id, payments.orderId))
      .where(
        and(
          eq(payments.gateway, gateway),
          or(eq(payments.externalId, id), eq(payments.reference, id)),
          eq(payments.status, 'succeeded'),
        ),
      )
      .limit(1);
    return row ?? null;
  }

  /** The succeeded payment of an order (what a refund gives back). */
  async findSucceededPayment(orderId: string): Promise<PaymentRow | null> {
    const [row] = await this.db
      .select()
      .from(payments)
      .where(and(eq(payments.orderId, orderId), eq(payments.status, 'succeeded')))
      .orderBy(desc(payments.createdAt))
      .limit(1);
    return row ?? null;
  }

  async countOrdersSince(userId: string, since: Date): Promise<number> {
    const [row] = await this.db
      .select({ total: sql<number>`count(*)::int` })
      .from(orders)
      .where(and(eq(orders.userId, userId), gt(orders.createdAt, since), eq(orders.renewal, false)));
    return row?.total ?? 0;
  }

  async findSubscription(id: string): Promise<SubscriptionRow | null> {
    const [row] = await this.db.select().from(subscriptions).where(eq(subscriptions.id, id)).limit(1);
    return row ?? null;
  }

  async paymentExists(gateway: GatewayName, externalId: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: payments.id })
      .from(payments)
      .where(and(eq(payments.gateway, gateway), eq(payments.externalId, externalId)))
      .limit(1);
    return rows.length > 0;
  }

  /** Fills in a payment's reference when a later event names it (e.g. PayPal's sale id). */
  async setPaymentReference(gateway: GatewayName, externalId: string, reference: string): Promise<void> {
    await this.db
      .update(payments)
      .set({ reference })
      .where(
        and(eq(payments.gateway, gateway), eq(payments.externalId, externalId), isNull(payments.reference)),
      );
  }

  /** Records money taken back; null when the same (gateway, refund id) was recorded before. */
  async insertRefund(values: typeof refunds.$inferInsert): Promise<RefundRow | null> {
    const [row] = await this.db
      .insert(refunds)
      .values(values)
      .onConflictDoNothing({ target: [refunds.gateway, refunds.externalId] })
      .returning();
    return row ?? null;
  }

  async refundsOf(orderId: string): Promise<RefundRow[]> {
    return this.db
      .select()
      .from(refunds)
      .where(eq(refunds.orderId, orderId))
      .orderBy(desc(refunds.createdAt));
  }

  /**
   * Records a gateway event once. Null when it was recorded before: a redelivery, or one of many concurrent
   * deliveries (they wait on the unique index for the first to commit), which then change nothing.
   */
  async hasEvent(gateway: GatewayName, eventId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: paymentEvents.id })
      .from(paymentEvents)
      .where(and(eq(paymentEvents.gateway, gateway), eq(paymentEvents.eventId, eventId)))
      .limit(1);
    return Boolean(row);
  }

  async recordEvent(values: {
    gateway: GatewayName;
    eventId: string;
    type: string;
    payload: unknown;
  }): Promise<PaymentEventRow | null> {
    const [row] = await this.db
      .insert(paymentEvents)
      .values({ ...values, payload: values.payload ?? {} })
      .onConflictDoNothing({ target: [paymentEvents.gateway, paymentEvents.eventId] })
      .returning();
    return row ?? null;
  }

  async finishEvent(
    id: string,
    values: { status: PaymentEventStatus; orderId?: string | null; note?: string | null; now: Date },
  ): Promise<void> {
    await this.db
      .update(paymentEvents)
      .set({
        status: values.status,
        orderId: values.orderId ?? null,
        note: values.note ?? null,
        processedAt: values.now,
      })
      .where(eq(paymentEvents.id, id));
  }

  /** Queues a job in this repository's transaction (receipts go out only if the payment commits). */
  async enqueueJob(type: string, payload: Record<string, unknown>, maxAttempts = 5): Promise<void> {
    await this.db.insert(jobs).values({ type, payload, maxAttempts });
  }

  // ---------------------------------------------------------------------------------------------------------
  // Customers, plans and gateway subscriptions

  async findBuyer(userId: string): Promise<Buyer | null> {
    const [row] = await this.db
      .select({ id: users.id, name: users.name, email: users.email })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    return row ?? null;
  }

  async findCustomer(userId: string, gateway: GatewayName): Promise<string | null> {
    const [row] = await this.db
      .select({ externalId: paymentCustomers.externalId })
      .from(paymentCustomers)
      .where(and(eq(paymentCustomers.userId, userId), eq(paymentCustomers.gateway, gateway)))
      .limit(1);
    return row?.externalId ?? null;
  }

  /** Keeps the first customer recorded for the user; returns the one that is kept. */
  async saveCustomer(userId: string, gateway: GatewayName, externalId: string): Promise<string> {
    await this.db.insert(paymentCustomers).values({ userId, gateway, externalId }).onConflictDoNothing();
    return (await this.findCustomer(userId, gateway)) ?? externalId;
  }

  async findPlan(key: {
    gateway: GatewayName;
    artistId: string;
    cycle: string;
    amount: number;
    currency: string;
  }): Promise<string | null> {
    const [row] = await this.db
      .select({ externalId: paymentPlans.externalId })
      .from(paymentPlans)
      .where(
        and(
          eq(paymentPlans.gateway, key.gateway),
          eq(paymentPlans.artistId, key.artistId),
          eq(paymentPlans.cycle, key.cycle),
          eq(paymentPlans.amount, key.amount),
          eq(paymentPlans.currency, key.currency),
        ),
      )
      .limit(1);
    return row?.externalId ?? null;
  }

  /** Keeps the first plan recorded for the offer (two concurrent first subscribers may each create one). */
  async savePlan(values: typeof paymentPlans.$inferInsert): Promise<string> {
    await this.db.insert(paymentPlans).values(values).onConflictDoNothing();
    return (await this.findPlan(values)) ?? values.externalId;
  }

  /** A gateway subscription by the gateway's id, locked until the transaction ends. */
  async lockSubscriptionByExternal(
    gateway: GatewayName,
    externalId: string,
  ): Promise<SubscriptionRow | null> {
    const [row] = await this.db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.gateway, gateway), eq(subscriptions.externalId, externalId)))
      .limit(1)
      .for('update');
    return row ?? null;
  }

  async lockSubscription(id: string): Promise<SubscriptionRow | null> {
    const [row] = await this.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.id, id))
      .limit(1)
      .for('update');
    return row ?? null;
  }

  async updateSubscription(
    id: string,
    values: Partial<Omit<NewSubscription, 'id' | 'userId' | 'artistId'>> & { updatedAt: Date },
  ): Promise<SubscriptionRow> {
    const [row] = await this.db.update(subscriptions).set(values).where(eq(subscriptions.id, id)).returning();
    return row!;
  }

  /** The user's subscriptions to the artist that still play or are about to (pending), newest first. */
  async renewingSubscriptionsOf(userId: string, artistId: string, now: Date): Promise<SubscriptionRow[]> {
    return this.db
      .select()
      .from(subscriptions)
      .where(
        and(
          eq(subscriptions.userId, userId),
          eq(subscriptions.artistId, artistId),
          subscriptionPlaysAt(now),
          eq(subscriptions.cancelAtPeriodEnd, false),
        ),
      )
      .orderBy(desc(subscriptions.currentPeriodEnd));
  }

  // ---------------------------------------------------------------------------------------------------------
  // The buyer's history

  /** Every order of the user (purchases, subscription starts and renewals), newest first, with its refunds. */
  async historyOf(userId: string): Promise<Array<{ order: OrderRow; refunds: RefundRow[] }>> {
    const rows = await this.db
      .select()
      .from(orders)
      .where(eq(orders.userId, userId))
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(500);
    if (rows.length === 0) return [];
    const refundRows = await this.db
      .select({ refund: refunds })
      .from(refunds)
      .innerJoin(orders, eq(orders.id, refunds.orderId))
      .where(eq(orders.userId, userId));
    const byOrder = new Map<string, RefundRow[]>();
    for (const { refund } of refundRows) {
      byOrder.set(refund.orderId, [...(byOrder.get(refund.orderId) ?? []), refund]);
    }
    return rows.map((order) => ({ order, refunds: byOrder.get(order.id) ?? [] }));
  }
}

/** Runs work in one transaction with a repository bound to it (PGlite has one connection: use only that one). */
export type PaymentsTransactor = <T>(work: (repo: PaymentsRepository) => Promise<T>) => Promise<T>;

export function createPaymentsTransactor(db: AppDb): PaymentsTransactor {
  return (work) => db.transaction((tx) => work(new PaymentsRepository(tx as unknown as AppDb)));
}
