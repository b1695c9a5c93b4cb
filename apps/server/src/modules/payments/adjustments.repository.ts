import { and, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { PaymentGateway as GatewayName } from '@backbeat/contract';
import type { AppDb } from '../../db/client';
import { earlyAdjustments, orders, paymentIssues, payments, refunds } from '../../db/schema';
import type { RefundReport } from './payment-gateway';

export type PaymentIssueRow = typeof paymentIssues.$inferSelect;
export type PaymentIssueKind = PaymentIssueRow['kind'];

/** The money of one order: what its payments brought in and what refunds, disputes and reversals moved since. */
export interface OrderMoney {
  paid: number;
  takenBack: number;
  /** A dispute is open or was lost (not reversed): the bank holds the money. */
  disputed: boolean;
  /** A dispute was ever opened, whatever its outcome: Stripe and PayPal refuse to refund such a payment. */
  everDisputed: boolean;
}

/**
 * The resolution of a refused payment's issue when the ledger kept that payment after all (it was disputed, so the
 * gateway would not refund it) and refunded the buyer's other payment for the item instead.
 */
export const KEPT_INSTEAD =
  'kept: it was disputed and cannot be refunded; the other payment was refunded instead';

/** Issues that mark an order's money as never to be granted, unless the ledger kept it instead. */
const refusedMoney = (orderId: string) =>
  and(
    eq(paymentIssues.orderId, orderId),
    inArray(paymentIssues.kind, ['amount_mismatch', 'duplicate_payment']),
    sql`coalesce(${paymentIssues.resolution}, '') <> ${KEPT_INSTEAD}`,
  );

/**
 * The SQL of what happens to money after a payment: refunds and disputes kept until their payment is known
 * (early adjustments), the money an order holds now, and the issues an admin must see.
 */
export class AdjustmentsRepository {
  constructor(private readonly db: AppDb) {}

  /** Keeps an adjustment whose payment is not known yet; false when it was kept (or applied) before. */
  async keepEarly(report: RefundReport, at: Date): Promise<boolean> {
    const rows = await this.db
      .insert(earlyAdjustments)
      .values({
        gateway: report.gateway,
        paymentRef: report.paymentRef,
        kind: report.kind,
        externalId: report.externalId,
        amount: report.amount,
        currency: report.currency.toUpperCase(),
        reason: report.reason ?? null,
        raw: (report.raw ?? null) as never,
        receivedAt: at,
      })
      .onConflictDoNothing({ target: [earlyAdjustments.gateway, earlyAdjustments.externalId] })
      .returning({ id: earlyAdjustments.id });
    return rows.length > 0;
  }

  /** Adjustments kept for a payment known by any of these gateway ids, oldest first, locked; marked applied. */
  async takeEarly(gateway: GatewayName, paymentRefs: string[], at: Date): Promise<RefundReport[]> {
    if (paymentRefs.length === 0) return [];
    const rows = await this.db
      .update(earlyAdjustments)
      .set({ appliedAt: at })
      .where(
        and(
          eq(earlyAdjustments.gateway, gateway),
          inArray(earlyAdjustments.paymentRef, paymentRefs),
          isNull(earlyAdjustments.appliedAt),
        ),
      )
      .returning();
    return rows
      .sort((a, b) => a.receivedAt.getTime() - b.receivedAt.getTime())
      .map((row) => ({
        gateway: row.gateway,
        externalId: row.externalId,
        paymentRef: row.paymentRef,
        kind: row.kind,
        amount: row.amount,
        currency: row.currency,
        reason: row.reason,
        raw: row.raw,
      }));
  }

  /** What the order's succeeded payments brought in and what was moved since (reversals count negative). */
  async moneyOf(orderId: string): Promise<OrderMoney> {
    const [paid] = await this.db
      .select({ total: sql<number>`coalesce(sum(${payments.amount}), 0)::int` })
      .from(payments)
      .where(and(eq(payments.orderId, orderId), eq(payments.status, 'succeeded')));
    const [moved] = await this.db
      .select({
        total: sql<number>`coalesce(sum(${refunds.amount}), 0)::int`,
        disputes: sql<number>`count(*) filter (where ${refunds.kind}::text = 'dispute')::int`,
        reversals: sql<number>`count(*) filter (where ${refunds.kind}::text = 'reversal')::int`,
      })
      .from(refunds)
      .where(eq(refunds.orderId, orderId));
    return {
      paid: paid?.total ?? 0,
      takenBack: moved?.total ?? 0,
      disputed: (moved?.disputes ?? 0) > (moved?.reversals ?? 0),
      everDisputed: (moved?.disputes ?? 0) > 0,
    };
  }

  /** Records an issue once per (gateway, kind, id); an issue resolved before opens again. */
  async openIssue(values: {
    gateway: GatewayName;
    kind: PaymentIssueKind;
    externalId: string;
    orderId?: string | null;
    amount?: number | null;
    currency?: string | null;
    detail: string;
    at: Date;
  }): Promise<void> {
    await this.db
      .insert(paymentIssues)
      .values({
        gateway: values.gateway,
        kind: values.kind,
        externalId: values.externalId,
        orderId: values.orderId ?? null,
        amount: values.amount ?? null,
        currency: values.currency ?? null,
        detail: values.detail,
        createdAt: values.at,
      })
      .onConflictDoUpdate({
        target: [paymentIssues.gateway, paymentIssues.kind, paymentIssues.externalId],
        set: { status: 'open', detail: values.detail, resolution: null, resolvedAt: null },
      });
  }

  /** Closes the open issues of an order (of some kinds) with what settled them. */
  async resolveIssues(orderId: string, kinds: PaymentIssueKind[], resolution: string, at: Date) {
    await this.db
      .update(paymentIssues)
      .set({ status: 'resolved', resolution, resolvedAt: at })
      .where(
        and(
          eq(paymentIssues.orderId, orderId),
          inArray(paymentIssues.kind, kinds),
          eq(paymentIssues.status, 'open'),
        ),
      );
  }

  /** Whether an order's money was flagged as never to be granted (another amount, or a second payment). */
  async isUngrantable(orderId: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: paymentIssues.id })
      .from(paymentIssues)
      .where(refusedMoney(orderId))
      .limit(1);
    return rows.length > 0;
  }

  /** The ledger keeps a refused payment after all: its issues are settled as `KEPT_INSTEAD`. */
  async keepRefused(orderId: string, at: Date): Promise<void> {
    await this.db
      .update(paymentIssues)
      .set({ status: 'resolved', resolution: KEPT_INSTEAD, resolvedAt: at })
      .where(refusedMoney(orderId));
  }

  /** An admin settled an issue by hand; null when there is no such issue. */
  async resolveIssueById(id: string, resolution: string, at: Date): Promise<PaymentIssueRow | null> {
    const [row] = await this.db
      .update(paymentIssues)
      .set({ status: 'resolved', resolution, resolvedAt: at })
      .where(eq(paymentIssues.id, id))
      .returning();
    return row ?? null;
  }

  /** Why the ledger refunded an order by itself (a second payment, another amount), or null. */
  async automaticRefundCause(orderId: string): Promise<'duplicate_payment' | 'amount_mismatch' | null> {
    const [row] = await this.db
      .select({ kind: paymentIssues.kind })
      .from(paymentIssues)
      .where(refusedMoney(orderId))
      .limit(1);
    return row?.kind === 'amount_mismatch' || row?.kind === 'duplicate_payment' ? row.kind : null;
  }

  /** Issues, open ones first, newest first. */
  async listIssues(limit = 100): Promise<PaymentIssueRow[]> {
    return this.db
      .select()
      .from(paymentIssues)
      .orderBy(sql`${paymentIssues.status} = 'open' desc`, desc(paymentIssues.createdAt))
      .limit(limit);
  }

  /** The paid orders of a subscription whose period is known, with the end of each period. */
  async standingPeriodsOf(
    subscriptionId: string,
  ): Promise<Array<{ orderId: string; periodStart: Date; periodEnd: Date }>> {
    const rows = await this.db
      .select({ orderId: orders.id, periodStart: orders.periodStart, periodEnd: orders.periodEnd })
      .from(orders)
      .where(
        and(
          eq(orders.subscriptionId, subscriptionId),
          eq(orders.status, 'paid'),
          isNotNull(orders.periodEnd),
        ),
      );
    return rows.map((row) => ({
      orderId: row.orderId,
      periodStart: row.periodStart ?? row.periodEnd!,
      periodEnd: row.periodEnd!,
    }));
  }
}
