import { SUBSCRIPTION_CYCLE_MONTHS, SUBSCRIPTION_CYCLES, type SubscriptionCycle } from '@backbeat/contract';
import type { PaymentGateway as GatewayName } from '@backbeat/contract';
import type { EntitlementEvents } from '../access/entitlement-events';
import { addMonths } from './money';
import type { PaymentConfirmation } from './payment-gateway';
import type {
  OrderRow,
  PaymentEventStatus,
  PaymentsRepository,
  PaymentsTransactor,
  RefundRow,
  SubscriptionRow,
} from './payments.repository';
import { RECEIPT_JOB, type ReceiptJob } from './receipts';

export interface LedgerDeps {
  transaction: PaymentsTransactor;
  /** Reads outside a transaction (the redelivery pre-check). */
  repo: Pick<PaymentsRepository, 'hasEvent'>;
  entitlements: EntitlementEvents;
  /** Starts queued receipts once their transaction committed. */
  jobs: { notify(): Promise<void> };
  clock: () => Date;
  /** False only for a history written after the fact (the demo seed): nobody is mailed a receipt for it. */
  receipts?: boolean;
}

/** The work of one transaction: the repository bound to it, its time, and what to announce once it commits. */
export interface LedgerUnit {
  repo: PaymentsRepository;
  now: Date;
  touchedUsers: Set<string>;
  queuedJobs: number;
}

export interface GatewayEvent {
  id: string;
  type: string;
  payload: unknown;
}

export interface EventOutcome {
  status: Exclude<PaymentEventStatus, 'received'>;
  orderId?: string | null;
  note?: string | null;
}

/** What settling a confirmation did. `mismatch`: the money differs from the order's; nothing was granted. */
export interface Settlement {
  order: OrderRow;
  changed: boolean;
  mismatch?: boolean;
}

/** A gateway's report of money taken back (refund or dispute). */
export interface RefundReport {
  gateway: GatewayName;
  externalId: string;
  kind: 'refund' | 'dispute';
  amount: number;
  currency: string;
  reason?: string | null;
  raw?: unknown;
}

/** A paid subscription invoice / charge / sale, and the period the gateway says it pays for. */
export interface SubscriptionPayment {
  confirmation: PaymentConfirmation;
  periodStart: Date;
  periodEnd: Date;
}

const isCycle = (value: string | null): value is SubscriptionCycle =>
  (SUBSCRIPTION_CYCLES as readonly string[]).includes(value ?? '');

/**
 * The one place where money becomes entitlements, for every gateway (ARCHITECTURE section 5): a verified
 * confirmation settles its order and grants in one transaction with its payment row; gateway events are recorded
 * once (unique gateway event id) and applied in the same transaction; renewals move a subscription's paid period to
 * the period the gateway reports; refunds and disputes revoke. Receipts are queued in the same transaction, and
 * entitlement changes are announced to every instance after it commits.
 */
export class PaymentLedger {
  constructor(private readonly deps: LedgerDeps) {}

  now(): Date {
    return this.deps.clock();
  }

  /** Runs `work` in one transaction; after the commit, caches hear of changed entitlements and receipts start. */
  async run<T>(work: (unit: LedgerUnit) => Promise<T>): Promise<T> {
    const now = this.deps.clock();
    let unit: LedgerUnit | null = null;
    const result = await this.deps.transaction(async (repo) => {
      unit = { repo, now, touchedUsers: new Set(), queuedJobs: 0 };
      return work(unit);
    });
    const done = unit as LedgerUnit | null;
    if (done) {
      // Every instance drops the cached decisions before the caller answers (the buyer plays at once anywhere).
      await Promise.all([...done.touchedUsers].map((userId) => this.deps.entitlements.changed({ userId })));
      if (done.queuedJobs > 0) await this.deps.jobs.notify();
    }
    return result;
  }

  /**
   * Whether a gateway event was already applied: a redelivery is answered without asking the gateway again (its
   * API quota is small: Stripe allows 25 requests per second in test mode). Only a shortcut: `handleEvent` still
   * decides inside its transaction, so two deliveries racing past this check still apply once.
   */
  async recorded(gateway: GatewayName, eventId: string): Promise<boolean> {
    return this.deps.repo.hasEvent(gateway, eventId);
  }

  /**
   * Applies one gateway event exactly once. A redelivered or concurrently delivered event finds its id recorded
   * and changes nothing (`duplicate`). The outcome (processed, ignored, unknown order) is kept with the event.
   */
  async handleEvent(
    gateway: GatewayName,
    event: GatewayEvent,
    apply: (unit: LedgerUnit) => Promise<EventOutcome>,
  ): Promise<{ duplicate: boolean; outcome: EventOutcome | null }> {
    return this.run(async (unit) => {
      const recorded = await unit.repo.recordEvent({
        gateway,
        eventId: event.id,
        type: event.type,
        payload: event.payload,
      });
      if (!recorded) return { duplicate: true, outcome: null };
      const outcome = await apply(unit);
      await unit.repo.finishEvent(recorded.id, { ...outcome, now: unit.now });
      return { duplicate: false, outcome };
    });
  }

  /**
   * Applies a verified confirmation to its order: the payment row (unique per gateway and payment id, so a replay
   * changes nothing), the order's status and, when paid, the entitlement and a receipt. A payment whose amount or
   * currency differs from the order's settles nothing.
   */
  async settle(unit: LedgerUnit, order: OrderRow, confirmation: PaymentConfirmation): Promise<Settlement> {
    if (confirmation.status === 'failed') {
      // The declined attempt is kept as a failed payment row (once per attempt id); the order fails if pending.
      if (!(await unit.repo.insertPayment(order.id, order.gateway, confirmation, unit.now))) {
        return { order, changed: false };
      }
      const failed = await this.failOrder(unit, order);
      return { order: failed, changed: failed.status !== order.status };
    }
    if (
      confirmation.amount !== order.amount ||
      confirmation.currency.toUpperCase() !== order.currency.toUpperCase()
    ) {
      return { order, changed: false, mismatch: true };
    }
    const inserted = await unit.repo.insertPayment(order.id, order.gateway, confirmation, unit.now);
    if (!inserted) {
      if (confirmation.reference) {
        await unit.repo.setPaymentReference(order.gateway, confirmation.externalId, confirmation.reference);
      }
      return { order, changed: false };
    }
    if (order.status === 'refunded' || order.status === 'disputed') return { order, changed: false };
    const paid =
      order.status === 'paid'
        ? order
        : await unit.repo.updateOrder(order.id, { status: 'paid', now: unit.now });
    await this.grant(unit, paid);
    await this.queueReceipt(unit, { kind: 'payment', orderId: paid.id });
    return { order: paid, changed: true };
  }

  /** A declined or abandoned payment: a pending order fails (a paid one stays paid). */
  async failOrder(unit: LedgerUnit, order: OrderRow): Promise<OrderRow> {
    if (order.status !== 'pending') return order;
    return unit.repo.updateOrder(order.id, { status: 'failed', now: unit.now });
  }

  /**
   * A paid subscription invoice: the subscription's first payment settles the order it was started with; each
   * later one is a renewal, written as an order of its own, already paid. The subscription then plays exactly
   * until the period end the gateway reports.
   */
  async applySubscriptionPayment(
    unit: LedgerUnit,
    subscription: SubscriptionRow,
    payment: SubscriptionPayment,
  ): Promise<Settlement | null> {
    const initial = await unit.repo.lockInitialOrderOf(subscription.id);
    let settlement: Settlement;
    if (initial && (initial.status === 'pending' || initial.status === 'failed')) {
      settlement = await this.settle(unit, initial, payment.confirmation);
      if (settlement.mismatch) return settlement;
    } else {
      // The caller holds the subscription's row lock: a payment recorded before is a redelivery.
      if (await unit.repo.paymentExists(subscription.gateway, payment.confirmation.externalId)) return null;
      const renewal = await unit.repo.insertOrder({
        userId: subscription.userId,
        itemType: 'subscription',
        artistId: subscription.artistId,
        itemTitle: initial?.itemTitle ?? 'Subscription renewal',
        cycle: subscription.cycle,
        amount: payment.confirmation.amount,
        currency: payment.confirmation.currency.toUpperCase(),
        gateway: subscription.gateway,
        status: 'paid',
        externalId: null,
        subscriptionId: subscription.id,
        renewal: true,
        createdAt: unit.now,
        updatedAt: unit.now,
      });
      await unit.repo.insertPayment(renewal.id, renewal.gateway, payment.confirmation, unit.now);
      await this.queueReceipt(unit, { kind: 'renewal', orderId: renewal.id });
      settlement = { order: renewal, changed: true };
    }
    if (!settlement.changed) return settlement;
    const revoked = subscription.status === 'revoked';
    if (!revoked) {
      await unit.repo.updateSubscription(subscription.id, {
        status: subscription.cancelAtPeriodEnd ? 'cancelled' : 'active',
        currentPeriodStart: payment.periodStart,
        // Never shorten a period already paid for (events may arrive out of order).
        currentPeriodEnd:
          subscription.currentPeriodEnd && subscription.currentPeriodEnd > payment.periodEnd
            ? subscription.currentPeriodEnd
            : payment.periodEnd,
        endedAt: null,
        updatedAt: unit.now,
      });
      unit.touchedUsers.add(subscription.userId);
    }
    return settlement;
  }

  /** A renewal failed: the subscription is past due; the period already paid for still plays, nothing more. */
  async markPastDue(unit: LedgerUnit, subscription: SubscriptionRow): Promise<void> {
    if (subscription.status !== 'active') return;
    await unit.repo.updateSubscription(subscription.id, { status: 'past_due', updatedAt: unit.now });
  }

  /** The subscription will (or will again) renew at its period end, as the gateway reports. */
  async setCancelAtPeriodEnd(
    unit: LedgerUnit,
    subscription: SubscriptionRow,
    cancel: boolean,
  ): Promise<void> {
    if (subscription.status === 'revoked' || subscription.status === 'expired') return;
    if (subscription.cancelAtPeriodEnd === cancel) return;
    const status = cancel
      ? 'cancelled'
      : subscription.status === 'cancelled'
        ? 'active'
        : subscription.status;
    await unit.repo.updateSubscription(subscription.id, {
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
  async endSubscription(unit: LedgerUnit, subscription: SubscriptionRow): Promise<void> {
    if (subscription.status === 'revoked' || subscription.status === 'expired') return;
    const paidThrough = subscription.currentPeriodEnd && subscription.currentPeriodEnd > unit.now;
    await unit.repo.updateSubscription(subscription.id, {
      status: subscription.status === 'pending' || !paidThrough ? 'expired' : 'cancelled',
      cancelAtPeriodEnd: true,
      cancelledAt: subscription.cancelledAt ?? unit.now,
      endedAt: unit.now,
      updatedAt: unit.now,
    });
    unit.touchedUsers.add(subscription.userId);
    const initial = await unit.repo.lockInitialOrderOf(subscription.id);
    if (initial?.status === 'pending')
      await unit.repo.updateOrder(initial.id, { status: 'cancelled', now: unit.now });
  }

  /**
   * Money taken back from a paid order (a refund, or a dispute): recorded once per gateway refund id; the order is
   * marked refunded or disputed and what it granted is revoked — the song or album, or the whole subscription
   * (which also stops playing at once). Returns null for a refund recorded before.
   */
  async recordRefund(unit: LedgerUnit, order: OrderRow, report: RefundReport): Promise<RefundRow | null> {
    // The order row is locked before the refund row is inserted, as every other path does: an admin refund (which
    // locks the order, then inserts) racing its own gateway webhook (which inserted first) deadlocked on PostgreSQL.
    const locked = (await unit.repo.lockOrder(order.id)) ?? order;
    const refund = await unit.repo.insertRefund({
      orderId: order.id,
      gateway: report.gateway,
      externalId: report.externalId,
      kind: report.kind,
      amount: report.amount,
      currency: report.currency.toUpperCase(),
      reason: report.reason ?? null,
      raw: (report.raw ?? null) as never,
      createdAt: unit.now,
    });
    if (!refund) return null;
    if (locked.status === 'paid') {
      await unit.repo.updateOrder(order.id, {
        status: report.kind === 'dispute' ? 'disputed' : 'refunded',
        now: unit.now,
      });
    }
    if (locked.userId) unit.touchedUsers.add(locked.userId);
    if (locked.itemType === 'subscription' && locked.subscriptionId) {
      const subscription = await unit.repo.lockSubscription(locked.subscriptionId);
      if (subscription && subscription.status !== 'revoked') {
        await unit.repo.updateSubscription(subscription.id, {
          status: 'revoked',
          cancelAtPeriodEnd: true,
          currentPeriodEnd:
            subscription.currentPeriodEnd && subscription.currentPeriodEnd < unit.now
              ? subscription.currentPeriodEnd
              : unit.now,
          endedAt: unit.now,
          updatedAt: unit.now,
        });
        unit.touchedUsers.add(subscription.userId);
      }
    } else {
      await unit.repo.grants.revokeOrder(order.id, unit.now);
    }
    await this.queueReceipt(unit, { kind: 'refund', orderId: order.id, refundId: refund.id });
    return refund;
  }

  /** What a paid order gives: the song or album, or (sandbox subscriptions) one more cycle. */
  private async grant(unit: LedgerUnit, order: OrderRow): Promise<void> {
    const userId = order.userId;
    if (!userId) return;
    unit.touchedUsers.add(userId);
    if (order.itemType === 'song' && order.songId) {
      await unit.repo.grants.grantSong(userId, order.songId, order.id, unit.now);
    } else if (order.itemType === 'album' && order.albumId) {
      await unit.repo.grants.grantAlbum(userId, order.albumId, order.id, unit.now);
    } else if (order.itemType === 'subscription' && order.artistId && !order.subscriptionId) {
      await this.grantSandboxCycle(unit, order, userId, order.artistId);
    }
  }

  /**
   * A subscription the gateway does not bill itself (the demo sandbox): one order pays one cycle, extending the
   * period that still plays or starting one now.
   */
  private async grantSandboxCycle(unit: LedgerUnit, order: OrderRow, userId: string, artistId: string) {
    const cycle = isCycle(order.cycle) ? order.cycle : '1m';
    const months = SUBSCRIPTION_CYCLE_MONTHS[cycle];
    const current = await unit.repo.lockPaidThroughSubscription(userId, artistId, unit.now);
    if (current?.currentPeriodEnd && current.gateway === order.gateway) {
      await unit.repo.extendSubscription(current.id, {
        periodEnd: addMonths(current.currentPeriodEnd, months),
        cycle,
        now: unit.now,
      });
      await unit.repo.updateOrder(order.id, { subscriptionId: current.id, now: unit.now });
      return;
    }
    const created = await unit.repo.insertSubscription({
      userId,
      artistId,
      status: 'active',
      cycle,
      gateway: order.gateway,
      externalId: order.externalId,
      currentPeriodStart: unit.now,
      currentPeriodEnd: addMonths(unit.now, months),
      amount: order.amount,
      currency: order.currency,
      createdAt: unit.now,
      updatedAt: unit.now,
    });
    await unit.repo.updateOrder(order.id, { subscriptionId: created.id, now: unit.now });
  }

  private async queueReceipt(unit: LedgerUnit, job: ReceiptJob): Promise<void> {
    if (this.deps.receipts === false) return;
    await unit.repo.enqueueJob(RECEIPT_JOB, { ...job });
    unit.queuedJobs += 1;
  }
}
