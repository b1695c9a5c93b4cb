import type { PaymentGateway as GatewayName } from '@backbeat/contract';
import type { EntitlementEvents } from '../access';
import { LedgerAdjustments } from './ledger-adjustments';
import { LedgerRefusedMoney } from './ledger-refused-money';
import { AUTO_JOB_ATTEMPTS, PAYMENT_JOBS } from './payment-jobs.types';
import { LedgerSubscriptions, type SubscriptionPayment } from './ledger-subscriptions';
import type { PaymentConfirmation, RefundReport } from './payment-gateway';
import type {
  OrderRow,
  PaymentEventStatus,
  PaymentsRepository,
  PaymentsTransactor,
  RefundRow,
  SubscriptionRow,
} from './payments.repository';
import { RECEIPT_JOB, type ReceiptJob } from './receipts';

export type { SubscriptionPayment } from './ledger-subscriptions';

export interface LedgerDeps {
  transaction: PaymentsTransactor;
  /** Reads outside a transaction (the redelivery pre-check). */
  repo: Pick<PaymentsRepository, 'hasEvent'>;
  entitlements: EntitlementEvents;
  /** Starts queued jobs (receipts, automatic refunds) once their transaction committed. */
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
  /** What this transaction changed in the ledger, in words (reconciliation reports it as what it fixed). */
  changes: string[];
}

export interface GatewayEvent {
  id: string;
  type: string;
  payload: unknown;
}

/** What applying one gateway event did: its outcome and the ledger's changes (none for a redelivery). */
export interface HandledEvent {
  outcome: EventOutcome | null;
  changes: string[];
}

export interface EventOutcome {
  status: Exclude<PaymentEventStatus, 'received'>;
  orderId?: string | null;
  note?: string | null;
}

/**
 * What settling a confirmation did. `mismatch`: the money differs from the order's; nothing was granted and it is
 * being refunded. `duplicate`: the buyer owned the item already; nothing more was granted and it is being refunded.
 */
export interface Settlement {
  order: OrderRow;
  changed: boolean;
  mismatch?: boolean;
  duplicate?: boolean;
}

/**
 * The one place where money becomes entitlements, for every gateway (ARCHITECTURE section 5). A verified
 * confirmation, read from the gateway's current state, settles its order in one transaction with its payment row;
 * gateway events are recorded once (unique gateway event id) and applied in the same transaction.
 *
 * The ledger is right whatever the order of events: a refund or dispute that arrives before its payment is kept
 * and applied when the payment is recorded; a payment the gateway already reports refunded is recorded with its
 * refunds and grants nothing; a second payment for something the buyer owns, or a capture of another amount, is
 * refunded automatically; a refund takes back exactly what its payment bought. Receipts, automatic refunds and
 * cancellations at the gateway are queued in the same transaction, and entitlement changes are announced to every
 * instance after it commits.
 */
export class PaymentLedger {
  readonly adjustments: LedgerAdjustments;
  readonly subscriptions: LedgerSubscriptions;
  readonly refused: LedgerRefusedMoney;

  constructor(private readonly deps: LedgerDeps) {
    this.adjustments = new LedgerAdjustments(this);
    this.refused = new LedgerRefusedMoney(this);
    this.subscriptions = new LedgerSubscriptions(this);
  }

  now(): Date {
    return this.deps.clock();
  }

  /** Runs `work` in one transaction; after the commit, caches hear of changed entitlements and jobs start. */
  async run<T>(work: (unit: LedgerUnit) => Promise<T>): Promise<T> {
    const now = this.deps.clock();
    let unit: LedgerUnit | null = null;
    const result = await this.deps.transaction(async (repo) => {
      unit = { repo, now, touchedUsers: new Set(), queuedJobs: 0, changes: [] };
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

  /** Like `run`, and answers what the transaction changed in the ledger. */
  async track<T>(work: (unit: LedgerUnit) => Promise<T>): Promise<{ result: T; changes: string[] }> {
    let changes: string[] = [];
    const result = await this.run(async (unit) => {
      const value = await work(unit);
      changes = unit.changes;
      return value;
    });
    return { result, changes };
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
  ): Promise<{ duplicate: boolean; outcome: EventOutcome | null; changes: string[] }> {
    const { result, changes } = await this.track(async (unit) => {
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
    return { ...result, changes };
  }

  /**
   * Applies a verified confirmation to its order: the payment row (unique per gateway and payment id, so a replay
   * changes nothing), the order's status and, when paid, the entitlement and a receipt; then the refunds and
   * disputes of that money, whether the gateway reports them now or reported them before the payment was known.
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
    const mismatch =
      confirmation.amount !== order.amount ||
      confirmation.currency.toUpperCase() !== order.currency.toUpperCase();
    const inserted = await unit.repo.insertPayment(order.id, order.gateway, confirmation, unit.now);
    if (!inserted) {
      if (confirmation.reference) {
        await unit.repo.setPaymentReference(order.gateway, confirmation.externalId, confirmation.reference);
      }
      await this.adjustments.applyAll(unit, order, confirmation.adjustments ?? []);
      const current = (await unit.repo.findOrder(order.id)) ?? order;
      return { order: current, changed: false, mismatch, duplicate: false };
    }
    unit.changes.push(`${order.gateway} payment ${confirmation.externalId} recorded for order ${order.id}`);
    let settled: Settlement;
    if (mismatch) {
      settled = await this.refused.refuse(unit, order, confirmation, 'amount_mismatch');
    } else if (await this.ownedElsewhere(unit, order)) {
      settled = await this.refused.refuse(unit, order, confirmation, 'duplicate_payment');
    } else {
      const paid =
        order.status === 'paid'
          ? order
          : await unit.repo.updateOrder(order.id, { status: 'paid', now: unit.now });
      await this.grant(unit, paid);
      await this.queueReceipt(unit, { kind: paid.renewal ? 'renewal' : 'payment', orderId: paid.id });
      await this.supersedeOpenOrders(unit, paid);
      settled = { order: paid, changed: true };
    }
    const refs = [confirmation.externalId, confirmation.reference].filter((id): id is string => Boolean(id));
    const early = await unit.repo.adjustments.takeEarly(order.gateway, refs, unit.now);
    await this.adjustments.applyAll(unit, settled.order, [...early, ...(confirmation.adjustments ?? [])]);
    const current = (await unit.repo.findOrder(order.id)) ?? settled.order;
    return { ...settled, order: current };
  }

  /** A declined or abandoned payment: a pending order fails (a paid one stays paid). */
  async failOrder(unit: LedgerUnit, order: OrderRow): Promise<OrderRow> {
    if (order.status !== 'pending' && order.status !== 'expired') return order;
    unit.changes.push(`order ${order.id} failed`);
    return unit.repo.updateOrder(order.id, { status: 'failed', now: unit.now });
  }

  /**
   * A refund, dispute or reversal of money the gateway names by its own id: applied to the payment's order, or
   * kept until that payment is recorded here (events arrive in any order). Null when it was recorded before.
   */
  async adjust(unit: LedgerUnit, report: RefundReport): Promise<EventOutcome> {
    const paid = await unit.repo.findPaymentByGatewayId(report.gateway, report.paymentRef);
    if (!paid) {
      const kept = await unit.repo.adjustments.keepEarly(report, unit.now);
      return {
        status: 'ignored',
        note: kept
          ? `kept until payment ${report.paymentRef} is known`
          : `already kept for payment ${report.paymentRef}`,
      };
    }
    const row = await this.adjustments.record(unit, paid.order, report);
    return { status: row ? 'processed' : 'ignored', orderId: paid.order.id };
  }

  /**
   * One event's refunds, disputes or reversals applied in order (see `adjust`); the event's outcome is the last
   * one's, or `ignored` when the gateway reports nothing moved.
   */
  async adjustAll(unit: LedgerUnit, reports: RefundReport[]): Promise<EventOutcome> {
    let last: EventOutcome = { status: 'ignored', note: 'nothing moved' };
    for (const report of reports) last = await this.adjust(unit, report);
    return last;
  }

  /** Money taken back from (or returned to) an order; see LedgerAdjustments.record. */
  async recordRefund(unit: LedgerUnit, order: OrderRow, report: RefundReport): Promise<RefundRow | null> {
    return this.adjustments.record(unit, order, report);
  }

  applySubscriptionPayment(unit: LedgerUnit, subscription: SubscriptionRow, payment: SubscriptionPayment) {
    return this.subscriptions.applyPayment(unit, subscription, payment);
  }

  markPastDue(unit: LedgerUnit, subscription: SubscriptionRow) {
    return this.subscriptions.markPastDue(unit, subscription);
  }

  setCancelAtPeriodEnd(unit: LedgerUnit, subscription: SubscriptionRow, cancel: boolean) {
    return this.subscriptions.setCancelAtPeriodEnd(unit, subscription, cancel);
  }

  endSubscription(unit: LedgerUnit, subscription: SubscriptionRow) {
    return this.subscriptions.end(unit, subscription);
  }

  /** Whether the buyer owns the order's song or album through another order (a second tab, another gateway). */
  private async ownedElsewhere(unit: LedgerUnit, order: OrderRow): Promise<boolean> {
    if (!order.userId) return false;
    if (order.status === 'paid' || order.status === 'refunded' || order.status === 'disputed') return true;
    if (order.itemType === 'song' && order.songId) {
      const song = await unit.repo.offers.findSong(order.songId, { anyStatus: true });
      return unit.repo.offers.ownsSong(order.userId, order.songId, song?.album?.id ?? null);
    }
    if (order.itemType === 'album' && order.albumId)
      return unit.repo.offers.ownsAlbum(order.userId, order.albumId);
    if (order.itemType === 'subscription' && order.subscriptionId && order.artistId && !order.renewal) {
      // A second gateway subscription to an artist whose music already plays for the buyer (two tabs).
      return unit.repo.subscriptions.hasOtherPlayingSubscription(
        order.userId,
        order.artistId,
        order.subscriptionId,
        unit.now,
      );
    }
    return false;
  }

  /**
   * Once an item is the buyer's, their other open orders for it (another tab, another gateway) are cancelled here
   * and, where the gateway allows, at the gateway (a job): they can no longer be paid. One paid anyway is refunded.
   */
  private async supersedeOpenOrders(unit: LedgerUnit, paid: OrderRow): Promise<void> {
    if (!paid.userId) return;
    const open = await unit.repo.openOrdersForItem(paid);
    for (const order of open) {
      await unit.repo.updateOrder(order.id, { status: 'cancelled', now: unit.now });
      if (order.externalId && order.gateway !== 'sandbox') {
        await this.queueJob(unit, PAYMENT_JOBS.cancelCheckout, { orderId: order.id }, AUTO_JOB_ATTEMPTS);
      }
    }
  }

  /** What a paid order gives: the song or album, or (sandbox subscriptions) one more cycle. */
  async grant(unit: LedgerUnit, order: OrderRow): Promise<void> {
    const userId = order.userId;
    if (!userId) return;
    unit.touchedUsers.add(userId);
    if (order.itemType === 'song' && order.songId) {
      await unit.repo.grants.grantSong(userId, order.songId, order.id, unit.now);
    } else if (order.itemType === 'album' && order.albumId) {
      await unit.repo.grants.grantAlbum(userId, order.albumId, order.id, unit.now);
    } else if (order.itemType === 'subscription' && order.artistId && !order.subscriptionId) {
      await this.subscriptions.grantSandboxCycle(unit, order, userId, order.artistId);
    } else if (order.itemType === 'subscription' && order.subscriptionId) {
      await this.subscriptions.restorePeriod(unit, order.subscriptionId);
    }
  }

  async queueReceipt(unit: LedgerUnit, job: ReceiptJob): Promise<void> {
    if (this.deps.receipts === false) return;
    await this.queueJob(unit, RECEIPT_JOB, { ...job }, 5);
  }

  /** Queues a job in the unit's transaction; it starts once the transaction committed. */
  async queueJob(unit: LedgerUnit, type: string, payload: Record<string, unknown>, maxAttempts: number) {
    await unit.repo.enqueueJob(type, payload, maxAttempts);
    unit.queuedJobs += 1;
  }
}
