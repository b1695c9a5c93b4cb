import {
  addMonths,
  SUBSCRIPTION_CYCLE_MONTHS,
  SUBSCRIPTION_CYCLES,
  type SubscriptionCycle,
} from '@backbeat/contract';
import type { PaymentConfirmation } from './payment-gateway';
import type { LedgerUnit, PaymentLedger, Settlement } from './payment-ledger';
import type { OrderRow, SubscriptionRow } from './payments.repository';

/** A paid subscription invoice / charge / sale, and the period the gateway says it pays for. */
export interface SubscriptionPayment {
  confirmation: PaymentConfirmation;
  periodStart: Date;
  periodEnd: Date;
}

const isCycle = (value: string | null): value is SubscriptionCycle =>
  (SUBSCRIPTION_CYCLES as readonly string[]).includes(value ?? '');

const PLAYING = new Set(['active', 'past_due', 'cancelled']);

/**
 * Subscriptions in the ledger. Each paid order of a subscription (the first payment, each renewal) pays for the
 * period the gateway reported, kept on the order; the subscription plays until the latest end of the periods whose
 * orders still stand. So a refund or dispute takes back exactly its payment's period, a renewal paid separately keeps
 * playing, and events in any order never shorten or stretch what was paid for.
 */
export class LedgerSubscriptions {
  constructor(private readonly ledger: PaymentLedger) {}

  /**
   * A paid subscription payment: the subscription's first payment settles the order it was started with; each
   * later one is a renewal, written as an order of its own. A replay of a payment recorded before changes nothing
   * but the refunds the gateway reports for it now.
   */
  async applyPayment(
    unit: LedgerUnit,
    subscription: SubscriptionRow,
    payment: SubscriptionPayment,
  ): Promise<Settlement | null> {
    const { confirmation } = payment;
    const known = await unit.repo.findPaymentByGatewayId(subscription.gateway, confirmation.externalId);
    if (known) {
      await this.ledger.adjustments.applyAll(unit, known.order, confirmation.adjustments ?? []);
      return null;
    }
    const initial = await unit.repo.lockInitialOrderOf(subscription.id);
    const first =
      initial &&
      ['pending', 'failed', 'expired', 'cancelled'].includes(initial.status) &&
      !(await unit.repo.adjustments.moneyOf(initial.id)).paid;
    let order: OrderRow;
    if (first) {
      order = await unit.repo.updateOrder(initial.id, {
        periodStart: payment.periodStart,
        periodEnd: payment.periodEnd,
        now: unit.now,
      });
    } else {
      order = await unit.repo.insertOrder({
        userId: subscription.userId,
        itemType: 'subscription',
        artistId: subscription.artistId,
        itemTitle: initial?.itemTitle ?? 'Subscription renewal',
        cycle: subscription.cycle,
        amount: confirmation.amount,
        currency: confirmation.currency.toUpperCase(),
        gateway: subscription.gateway,
        status: 'pending',
        externalId: null,
        subscriptionId: subscription.id,
        renewal: true,
        periodStart: payment.periodStart,
        periodEnd: payment.periodEnd,
        createdAt: unit.now,
        updatedAt: unit.now,
      });
    }
    return this.ledger.settle(unit, order, confirmation);
  }

  /**
   * Sets the subscription's paid period from the orders that still stand: it plays until the latest end among
   * them. When none covers now any more (the period being played was refunded), it stops now.
   */
  async restorePeriod(unit: LedgerUnit, subscriptionId: string): Promise<void> {
    const subscription = await unit.repo.subscriptions.lockSubscription(subscriptionId);
    if (!subscription) return;
    const periods = await unit.repo.adjustments.standingPeriodsOf(subscriptionId);
    const latest = periods.reduce<(typeof periods)[number] | null>(
      (best, period) => (!best || period.periodEnd > best.periodEnd ? period : best),
      null,
    );
    unit.touchedUsers.add(subscription.userId);
    if (latest && latest.periodEnd > unit.now) {
      const revived = !PLAYING.has(subscription.status);
      const status = revived
        ? subscription.cancelAtPeriodEnd || subscription.endedAt
          ? 'cancelled'
          : 'active'
        : subscription.status;
      if (
        !revived &&
        subscription.currentPeriodEnd?.getTime() === latest.periodEnd.getTime() &&
        subscription.currentPeriodStart?.getTime() === latest.periodStart.getTime()
      ) {
        return;
      }
      await unit.repo.subscriptions.updateSubscription(subscription.id, {
        status,
        currentPeriodStart: latest.periodStart,
        currentPeriodEnd: latest.periodEnd,
        updatedAt: unit.now,
      });
      return;
    }
    const playing =
      PLAYING.has(subscription.status) &&
      subscription.currentPeriodEnd !== null &&
      subscription.currentPeriodEnd > unit.now;
    if (!playing) return;
    await unit.repo.subscriptions.updateSubscription(subscription.id, {
      status: 'revoked',
      currentPeriodEnd: unit.now,
      endedAt: unit.now,
      updatedAt: unit.now,
    });
  }

  /** A renewal failed: the subscription is past due; the period already paid for still plays, nothing more. */
  async markPastDue(unit: LedgerUnit, subscription: SubscriptionRow): Promise<void> {
    if (subscription.status !== 'active') return;
    unit.changes.push(`subscription ${subscription.id} past due`);
    await unit.repo.subscriptions.updateSubscription(subscription.id, {
      status: 'past_due',
      updatedAt: unit.now,
    });
  }

  /** The subscription will (or will again) renew at its period end, as the gateway reports. */
  async setCancelAtPeriodEnd(
    unit: LedgerUnit,
    subscription: SubscriptionRow,
    cancel: boolean,
  ): Promise<void> {
    if (subscription.status === 'revoked' || subscription.status === 'expired') return;
    if (subscription.cancelAtPeriodEnd === cancel) return;
    unit.changes.push(`subscription ${subscription.id} ${cancel ? 'will not renew' : 'renews again'}`);
    const status = cancel
      ? 'cancelled'
      : subscription.status === 'cancelled'
        ? 'active'
        : subscription.status;
    await unit.repo.subscriptions.updateSubscription(subscription.id, {
      cancelAtPeriodEnd: cancel,
      status,
      cancelledAt: cancel ? unit.now : null,
      updatedAt: unit.now,
    });
    unit.touchedUsers.add(subscription.userId);
  }

  /**
   * The gateway ended the subscription (deleted, halted, expired, cancelled at once): it never renews again and
   * plays until the end of the period already paid for, not a day longer.
   */
  async end(unit: LedgerUnit, subscription: SubscriptionRow): Promise<void> {
    if (subscription.status === 'revoked' || subscription.status === 'expired') return;
    unit.changes.push(`subscription ${subscription.id} ended`);
    const paidThrough = subscription.currentPeriodEnd && subscription.currentPeriodEnd > unit.now;
    await unit.repo.subscriptions.updateSubscription(subscription.id, {
      status: subscription.status === 'pending' || !paidThrough ? 'expired' : 'cancelled',
      cancelAtPeriodEnd: true,
      cancelledAt: subscription.cancelledAt ?? unit.now,
      endedAt: unit.now,
      updatedAt: unit.now,
    });
    unit.touchedUsers.add(subscription.userId);
    const initial = await unit.repo.lockInitialOrderOf(subscription.id);
    if (initial?.status === 'pending') {
      await unit.repo.updateOrder(initial.id, { status: 'cancelled', now: unit.now });
    }
  }

  /**
   * A subscription the gateway does not bill itself (the demo sandbox): one order pays one cycle, extending the
   * period that still plays or starting one now.
   */
  async grantSandboxCycle(unit: LedgerUnit, order: OrderRow, userId: string, artistId: string) {
    const cycle = isCycle(order.cycle) ? order.cycle : '1m';
    const months = SUBSCRIPTION_CYCLE_MONTHS[cycle];
    const current = await unit.repo.subscriptions.lockPaidThroughSubscription(userId, artistId, unit.now);
    if (current?.currentPeriodEnd && current.gateway === order.gateway) {
      const periodEnd = addMonths(current.currentPeriodEnd, months);
      await unit.repo.updateOrder(order.id, {
        subscriptionId: current.id,
        periodStart: current.currentPeriodEnd,
        periodEnd,
        now: unit.now,
      });
      await unit.repo.subscriptions.extendSubscription(current.id, { periodEnd, cycle, now: unit.now });
      return;
    }
    const periodEnd = addMonths(unit.now, months);
    const created = await unit.repo.subscriptions.insertSubscription({
      userId,
      artistId,
      status: 'active',
      cycle,
      gateway: order.gateway,
      externalId: order.externalId,
      currentPeriodStart: unit.now,
      currentPeriodEnd: periodEnd,
      amount: order.amount,
      currency: order.currency,
      createdAt: unit.now,
      updatedAt: unit.now,
    });
    await unit.repo.updateOrder(order.id, {
      subscriptionId: created.id,
      periodStart: unit.now,
      periodEnd,
      now: unit.now,
    });
  }
}
