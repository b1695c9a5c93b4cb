import type { LedgerUnit, PaymentLedger, Settlement } from './payment-ledger';
import { AUTO_JOB_ATTEMPTS, PAYMENT_JOBS, type AutoRefundJob } from './payment-jobs.types';
import type { OrderRow, PaymentRow } from './payments.repository';

type RefusalKind = AutoRefundJob['reason'];

/** The money a refusal names: the gateway's id of the payment, and what it took. */
export interface RefusedPayment {
  externalId: string;
  amount: number;
  currency: string;
}

/**
 * Money that must not buy anything: a capture of another amount than the order's, or a second payment for something
 * the buyer already owns. It is recorded (the ledger holds what the gateway holds), flagged for the admin and
 * refunded automatically by a job; the refund receipt tells the buyer why.
 *
 * A disputed payment cannot be refunded: Stripe answers "charged back; cannot issue a refund" and PayPal
 * `REFUND_NOT_PERMITTED_DUE_TO_CHARGEBACK`, even after the seller won the dispute and the money came back. When
 * such a second payment holds money again, the ledger keeps it instead: the purchase moves to it and the buyer's
 * first payment, which can be refunded, is refunded, so the buyer pays once. When neither can be refunded (both
 * were disputed) or the money was another amount, the admin is told to return it another way.
 */
export class LedgerRefusedMoney {
  constructor(private readonly ledger: PaymentLedger) {}

  async refuse(
    unit: LedgerUnit,
    order: OrderRow,
    money: RefusedPayment,
    kind: RefusalKind,
  ): Promise<Settlement> {
    const detail =
      kind === 'amount_mismatch'
        ? `${order.gateway} captured ${money.amount} ${money.currency} for an order of ${order.amount} ${order.currency}; refunding it`
        : `a second payment for "${order.itemTitle}", which the buyer already owns; refunding it`;
    await unit.repo.adjustments.openIssue({
      gateway: order.gateway,
      kind,
      externalId: money.externalId,
      orderId: order.id,
      amount: money.amount,
      currency: money.currency,
      detail,
      at: unit.now,
    });
    const next = kind === 'amount_mismatch' ? 'failed' : 'paid';
    const updated =
      order.status === next ? order : await unit.repo.updateOrder(order.id, { status: next, now: unit.now });
    const job: AutoRefundJob = { orderId: order.id, paymentId: money.externalId, reason: kind };
    await this.ledger.queueJob(unit, PAYMENT_JOBS.autoRefund, { ...job }, AUTO_JOB_ATTEMPTS);
    if (order.itemType === 'subscription' && order.subscriptionId) {
      // The refused subscription must not renew either.
      await this.ledger.queueJob(
        unit,
        PAYMENT_JOBS.cancelSubscription,
        { subscriptionId: order.subscriptionId },
        AUTO_JOB_ATTEMPTS,
      );
    }
    return {
      order: updated,
      changed: true,
      mismatch: kind === 'amount_mismatch',
      duplicate: kind === 'duplicate_payment',
    };
  }

  /** Refused money came back to the seller (a dispute won): its automatic refund is queued again. */
  async refundAgain(unit: LedgerUnit, order: OrderRow): Promise<void> {
    const reason = await unit.repo.adjustments.automaticRefundCause(order.id);
    const payment = await unit.repo.findSucceededPayment(order.id);
    if (!reason || !payment) return;
    const job: AutoRefundJob = { orderId: order.id, paymentId: payment.externalId, reason };
    await this.ledger.queueJob(unit, PAYMENT_JOBS.autoRefund, { ...job }, AUTO_JOB_ATTEMPTS);
  }

  /** The automatic refund of a disputed payment: keep it and refund the other payment, or tell the admin. */
  async keepDisputed(unit: LedgerUnit, orderId: string, kind: RefusalKind): Promise<void> {
    const order = await unit.repo.lockOrder(orderId);
    if (!order || !(await unit.repo.adjustments.isUngrantable(order.id))) return;
    const money = await unit.repo.adjustments.moneyOf(order.id);
    const remaining = money.paid - money.takenBack;
    if (remaining <= 0) return;
    const holder = kind === 'duplicate_payment' ? await this.refundableHolder(unit, order) : null;
    if (!holder) {
      const payment = await unit.repo.findSucceededPayment(order.id);
      await unit.repo.adjustments.openIssue({
        gateway: order.gateway,
        kind: 'refund_failed',
        externalId: payment?.externalId ?? order.id,
        orderId: order.id,
        amount: remaining,
        currency: order.currency,
        detail: `this payment was disputed, so ${order.gateway} will not refund it and nothing else can be refunded in its place: return the money to the buyer another way`,
        at: unit.now,
      });
      unit.changes.push(`order ${order.id}: a disputed payment cannot be refunded; the admin is told`);
      return;
    }
    await unit.repo.adjustments.keepRefused(order.id, unit.now);
    if (order.status !== 'paid') await unit.repo.updateOrder(order.id, { status: 'paid', now: unit.now });
    await unit.repo.grants.moveOrder(holder.order.id, order.id);
    if (order.userId) unit.touchedUsers.add(order.userId);
    unit.changes.push(
      `order ${order.id} kept (its payment was disputed, so it cannot be refunded); order ${holder.order.id} is refunded instead`,
    );
    await this.refuse(unit, holder.order, holder.payment, 'duplicate_payment');
  }

  /**
   * The order that gives the buyer the same song or album now, when its payment can still be refunded (never
   * disputed, money left); null otherwise (a song owned through an album is not swapped for the album).
   */
  private async refundableHolder(
    unit: LedgerUnit,
    order: OrderRow,
  ): Promise<{ order: OrderRow; payment: PaymentRow } | null> {
    if (!order.userId || (order.itemType !== 'song' && order.itemType !== 'album')) return null;
    const holderId = await unit.repo.grants.holderOf(order.userId, {
      songId: order.itemType === 'song' ? order.songId : null,
      albumId: order.itemType === 'album' ? order.albumId : null,
    });
    if (!holderId || holderId === order.id) return null;
    const holder = await unit.repo.lockOrder(holderId);
    if (!holder || holder.itemType !== order.itemType || holder.status !== 'paid') return null;
    const money = await unit.repo.adjustments.moneyOf(holder.id);
    if (money.everDisputed || money.paid - money.takenBack <= 0) return null;
    const payment = await unit.repo.findSucceededPayment(holder.id);
    return payment ? { order: holder, payment } : null;
  }
}
