import type { LedgerUnit, PaymentLedger } from './payment-ledger';
import type { RefundReport } from './payment-gateway';
import type { OrderRow, RefundRow } from './payments.repository';

/**
 * Refunds, disputes and dispute reversals: what happens to money after a payment. Each is recorded once per gateway
 * id; then the order's standing follows its money: while the payment minus what was taken back is above zero the
 * order stands (a partial refund keeps the purchase), at zero or below it is refunded or disputed and what that
 * payment bought is taken back (a song, an album, or the subscription period it paid for, nothing more); a reversal
 * (a dispute the seller won) brings it back; refused money it brings back is refunded again (ledger-refused-money.ts).
 */
export class LedgerAdjustments {
  constructor(private readonly ledger: PaymentLedger) {}

  async applyAll(unit: LedgerUnit, order: OrderRow, reports: RefundReport[]): Promise<void> {
    for (const report of reports) await this.record(unit, order, report);
  }

  /** Records one adjustment of the order's money and settles what it changes; null when recorded before. */
  async record(unit: LedgerUnit, order: OrderRow, report: RefundReport): Promise<RefundRow | null> {
    // The order row is locked before the refund row is inserted, as every other path does: an admin refund (which
    // locks the order, then inserts) racing its own gateway webhook (which inserted first) deadlocked on PostgreSQL.
    const locked = (await unit.repo.lockOrder(order.id)) ?? order;
    const refund = await unit.repo.insertRefund({
      orderId: order.id,
      gateway: report.gateway,
      externalId: report.externalId,
      kind: report.kind,
      amount: report.kind === 'reversal' ? -Math.abs(report.amount) : Math.abs(report.amount),
      currency: report.currency.toUpperCase(),
      reason: report.reason ?? null,
      raw: (report.raw ?? null) as never,
      createdAt: unit.now,
    });
    if (!refund) return null;
    unit.changes.push(`${report.gateway} ${report.kind} ${report.externalId} recorded for order ${order.id}`);
    if (locked.userId) unit.touchedUsers.add(locked.userId);
    await this.restand(unit, locked, report);
    await this.ledger.queueReceipt(unit, { kind: 'refund', orderId: order.id, refundId: refund.id });
    return refund;
  }

  /**
   * Puts the order where its money says: standing (paid, granted) while money remains, refunded or disputed (what
   * it bought taken back) when none does. Money that was never to buy anything (another amount, a second payment)
   * never grants; once returned, its issue is resolved.
   */
  private async restand(unit: LedgerUnit, order: OrderRow, report: RefundReport): Promise<void> {
    const money = await unit.repo.adjustments.moneyOf(order.id);
    if (money.paid <= 0) return;
    const remaining = money.paid - money.takenBack;
    const ungrantable = await unit.repo.adjustments.isUngrantable(order.id);
    if (remaining <= 0) {
      const status = money.disputed ? 'disputed' : 'refunded';
      if (order.status !== status) await unit.repo.updateOrder(order.id, { status, now: unit.now });
      if (ungrantable) {
        await unit.repo.adjustments.resolveIssues(
          order.id,
          ['amount_mismatch', 'duplicate_payment', 'refund_failed'],
          'refunded',
          unit.now,
        );
      }
      // Refused money on an order does not mean the order never granted: a second payment on the same checkout is
      // refused while the first one bought the song. With no money left, whatever the order gave goes (taking back
      // what an order never gave changes nothing).
      await this.takeBack(unit, order);
      return;
    }
    if (ungrantable) {
      // Refused money that came back (a dispute the seller won) must go back to the buyer all the same.
      if (report.kind === 'reversal') await this.ledger.refused.refundAgain(unit, order);
      return;
    }
    if (order.status === 'refunded' || order.status === 'disputed') {
      // A dispute the seller won (or a refund that did not take everything back): the order stands again.
      const restored = await unit.repo.updateOrder(order.id, { status: 'paid', now: unit.now });
      await this.ledger.grant(unit, restored);
    }
  }

  /** Takes back what one order bought: its song or album, or the period its subscription payment paid for. */
  private async takeBack(unit: LedgerUnit, order: OrderRow): Promise<void> {
    if (order.itemType === 'subscription' && order.subscriptionId) {
      await this.ledger.subscriptions.restorePeriod(unit, order.subscriptionId);
      return;
    }
    await unit.repo.grants.revokeOrder(order.id, unit.now);
  }
}
