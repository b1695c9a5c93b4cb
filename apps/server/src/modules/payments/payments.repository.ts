/**
 * Over 400 lines on purpose: the ledger's own tables (orders, payments, events, refunds) and the transaction that
 * writes them together, so every write of money is in one file; offers, subscriptions and adjustments have
 * repositories of their own (offers/subscriptions/adjustments.repository.ts).
 */
import { and, desc, eq, gt, inArray, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import type { OrderStatus, PaymentGateway as GatewayName } from '@backbeat/contract';
import type { AppDb } from '../../db/client';
import {
  jobs,
  orders,
  paymentCustomers,
  paymentEvents,
  paymentPlans,
  payments,
  refunds,
  type subscriptions,
} from '../../db/schema';
import { EntitlementGrants } from '../access';
import { AdjustmentsRepository } from './adjustments.repository';
import { OffersRepository } from './offers.repository';
import { SubscriptionsRepository } from './subscriptions.repository';
import type { PaymentConfirmation } from './payment-gateway';

export type OrderRow = typeof orders.$inferSelect;
export type NewOrder = typeof orders.$inferInsert;
export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type NewSubscription = typeof subscriptions.$inferInsert;
export type PaymentRow = typeof payments.$inferSelect;
export type RefundRow = typeof refunds.$inferSelect;
export type PaymentEventRow = typeof paymentEvents.$inferSelect;
export type PaymentEventStatus = PaymentEventRow['status'];
export type { AlbumForSale, ArtistForSale, Buyer, SongForSale } from './offers.repository';

/** The SQL of payments: orders, their confirmations, refunds and gateway events; the rest through its parts. */
export class PaymentsRepository {
  /** Purchases granted and revoked by payments (the access module owns these writes). */
  readonly grants: EntitlementGrants;
  /** Refunds and disputes kept for payments not known yet, an order's money, issues for the admin. */
  readonly adjustments: AdjustmentsRepository;
  /** Catalogue prices and what the buyer owns already. */
  readonly offers: OffersRepository;
  /** Gateway subscriptions and their paid periods. */
  readonly subscriptions: SubscriptionsRepository;

  constructor(private readonly db: AppDb) {
    this.grants = new EntitlementGrants(db);
    this.adjustments = new AdjustmentsRepository(db);
    this.offers = new OffersRepository(db);
    this.subscriptions = new SubscriptionsRepository(db);
  }

  async insertOrder(values: NewOrder): Promise<OrderRow> {
    const [row] = await this.db.insert(orders).values(values).returning();
    return row!;
  }

  async updateOrder(
    id: string,
    values: {
      status?: OrderStatus;
      externalId?: string;
      subscriptionId?: string;
      periodStart?: Date;
      periodEnd?: Date;
      now: Date;
    },
  ): Promise<OrderRow> {
    const { now, ...rest } = values;
    const [row] = await this.db
      .update(orders)
      .set({ ...rest, updatedAt: now })
      .where(eq(orders.id, id))
      .returning();
    return row!;
  }

  /** The order `where` names, or null; `lock` holds its row until the transaction ends (serialises confirmations). */
  private async oneOrder(where: SQL | undefined, lock = false): Promise<OrderRow | null> {
    const query = this.db.select().from(orders).where(where).limit(1);
    const [row] = lock ? await query.for('update') : await query;
    return row ?? null;
  }

  /** The order if it belongs to the user (anyone else's is invisible). */
  async findOrderOf(id: string, userId: string): Promise<OrderRow | null> {
    return this.oneOrder(and(eq(orders.id, id), eq(orders.userId, userId)));
  }

  /** Like findOrderOf, and locks the row until the transaction ends (serialises concurrent confirmations). */
  async lockOrderOf(id: string, userId: string): Promise<OrderRow | null> {
    return this.oneOrder(and(eq(orders.id, id), eq(orders.userId, userId)), true);
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
    return this.oneOrder(and(eq(orders.gateway, gateway), eq(orders.externalId, externalId)), true);
  }

  async findOrderByExternal(gateway: GatewayName, externalId: string): Promise<OrderRow | null> {
    return this.oneOrder(and(eq(orders.gateway, gateway), eq(orders.externalId, externalId)));
  }

  /** Any order by id, locked until the transaction ends. */
  async lockOrder(id: string): Promise<OrderRow | null> {
    return this.oneOrder(eq(orders.id, id), true);
  }

  async findOrder(id: string): Promise<OrderRow | null> {
    return this.oneOrder(eq(orders.id, id));
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

  /**
   * The buyer's other orders for the same thing as `paid` that could still be paid (pending, or expired but not
   * cancelled at the gateway yet), locked: the same song or album, or for a subscription, another subscription's
   * first order to the same artist.
   */
  async openOrdersForItem(paid: OrderRow): Promise<OrderRow[]> {
    if (!paid.userId) return [];
    const item =
      paid.itemType === 'song' && paid.songId
        ? and(eq(orders.itemType, 'song'), eq(orders.songId, paid.songId))
        : paid.itemType === 'album' && paid.albumId
          ? and(eq(orders.itemType, 'album'), eq(orders.albumId, paid.albumId))
          : paid.itemType === 'subscription' && paid.artistId && paid.subscriptionId
            ? and(
                eq(orders.itemType, 'subscription'),
                eq(orders.artistId, paid.artistId),
                eq(orders.renewal, false),
                ne(orders.subscriptionId, paid.subscriptionId),
              )
            : undefined;
    if (!item) return [];
    return this.db
      .select()
      .from(orders)
      .where(
        and(
          eq(orders.userId, paid.userId),
          ne(orders.id, paid.id),
          inArray(orders.status, ['pending', 'expired']),
          item,
        ),
      )
      .for('update');
  }

  /** Pending orders opened before `before` (abandoned checkouts), oldest first. */
  async abandonedOrders(before: Date, limit: number): Promise<OrderRow[]> {
    return this.db
      .select()
      .from(orders)
      .where(and(eq(orders.status, 'pending'), lt(orders.createdAt, before), eq(orders.renewal, false)))
      .orderBy(orders.createdAt)
      .limit(limit);
  }

  /** When the user's oldest order in the window was opened (when the hourly limit frees a place). */
  async oldestOrderSince(userId: string, since: Date): Promise<Date | null> {
    const [row] = await this.db
      .select({ at: sql<Date | null>`min(${orders.createdAt})` })
      .from(orders)
      .where(and(eq(orders.userId, userId), gt(orders.createdAt, since), eq(orders.renewal, false)));
    return row?.at ? new Date(row.at) : null;
  }

  /** The succeeded payment a gateway knows by this id, with its order. */
  async findPaymentByExternal(gateway: GatewayName, externalId: string): Promise<PaymentRow | null> {
    const [row] = await this.db
      .select()
      .from(payments)
      .where(and(eq(payments.gateway, gateway), eq(payments.externalId, externalId)))
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

  // ---------------------------------------------------------------------------------------------------------
  // The buyer's history

  /** Every order of the user (purchases, subscription starts and renewals), newest first, with its refunds. */
  async historyOf(userId: string): Promise<Array<{ order: OrderRow; refunds: RefundRow[] }>> {
    // An abandoned checkout (expired: nothing was paid) is not a payment: it is not listed.
    const rows = await this.db
      .select()
      .from(orders)
      .where(and(eq(orders.userId, userId), ne(orders.status, 'expired')))
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
