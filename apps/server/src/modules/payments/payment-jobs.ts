import type { JobHandler, JobLog } from '../../jobs/job-runner';
import type { GatewayRegistry } from './payment-gateway';
import type { PaymentLedger } from './payment-ledger';
import { AUTO_JOB_ATTEMPTS, type AutoRefundJob } from './payment-jobs.types';
import type { PaymentsRepository } from './payments.repository';

export { PAYMENT_JOBS } from './payment-jobs.types';

/** A checkout nobody paid within this time is abandoned: it expires and is cancelled at its gateway. */
export const ORDER_TTL_MS = 2 * 60 * 60 * 1000;
/** How often abandoned orders are looked for. */
export const EXPIRE_EVERY_MS = 10 * 60 * 1000;

export interface PaymentJobDeps {
  repo: PaymentsRepository;
  ledger: PaymentLedger;
  gateways: GatewayRegistry;
  log: () => JobLog;
}

/** The last attempt of a job failed: an admin must see what the gateway kept refusing. */
const lastAttempt = (job: { attempts: number }) => job.attempts >= AUTO_JOB_ATTEMPTS;
const describe = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

/**
 * Gives back money that must not buy anything. The refund is idempotent at the gateway (one key per order), so a
 * retry after a crash never refunds twice; the refund is recorded when the gateway confirms it (now, or by its
 * webhook). Past the last attempt the admin sees a `refund_failed` issue.
 */
export function autoRefundHandler(deps: PaymentJobDeps): JobHandler {
  return async (payload, job) => {
    const { orderId, paymentId, reason } = payload as unknown as AutoRefundJob;
    const order = await deps.repo.findOrder(orderId);
    if (!order) return;
    const payment = await deps.repo.findPaymentByExternal(order.gateway, paymentId);
    if (!payment) return;
    const money = await deps.repo.adjustments.moneyOf(order.id);
    const remaining = money.paid - money.takenBack;
    if (remaining <= 0) return;
    if (money.everDisputed) {
      // The gateway would refuse: a disputed payment is kept and the buyer's other payment refunded instead.
      await deps.ledger.run((unit) => deps.ledger.refused.keepDisputed(unit, order.id, reason));
      return;
    }
    try {
      const report = await deps.gateways.get(order.gateway).refund(order, payment, {
        amount: remaining < payment.amount ? remaining : undefined,
        reason:
          reason === 'duplicate_payment'
            ? 'Refunded automatically: this was a second payment for something you already own.'
            : 'Refunded automatically: the amount taken differed from the order.',
        idempotencyKey: `auto-refund-${order.id}-${remaining}`,
        cause: reason,
      });
      if (report) {
        await deps.ledger.run(async (unit) => {
          const locked = (await unit.repo.lockOrder(order.id)) ?? order;
          await deps.ledger.recordRefund(unit, locked, report);
        });
      }
    } catch (error) {
      if (lastAttempt(job)) {
        await deps.repo.adjustments.openIssue({
          gateway: order.gateway,
          kind: 'refund_failed',
          externalId: paymentId,
          orderId: order.id,
          amount: remaining,
          currency: order.currency,
          detail: `the automatic refund kept failing: ${describe(error)}`,
          at: deps.ledger.now(),
        });
      }
      throw error;
    }
  };
}

/** Stops a subscription renewing at its gateway; past the last attempt the admin sees a `cancel_failed` issue. */
export function cancelSubscriptionHandler(deps: PaymentJobDeps): JobHandler {
  return async (payload, job) => {
    const subscription = await deps.repo.subscriptions.findSubscription(String(payload.subscriptionId));
    if (!subscription?.externalId || subscription.gateway === 'sandbox') return;
    try {
      await deps.gateways.get(subscription.gateway).cancelSubscription(subscription);
    } catch (error) {
      if (lastAttempt(job)) {
        await deps.repo.adjustments.openIssue({
          gateway: subscription.gateway,
          kind: 'cancel_failed',
          externalId: subscription.externalId,
          detail: `the subscription could not be cancelled at the gateway and may renew: ${describe(error)}`,
          at: deps.ledger.now(),
        });
      }
      throw error;
    }
  };
}

/** Makes a superseded order unpayable at its gateway, where the gateway allows it. */
export function cancelCheckoutHandler(deps: PaymentJobDeps): JobHandler {
  return async (payload) => {
    const order = await deps.repo.findOrder(String(payload.orderId));
    if (!order?.externalId || order.gateway === 'sandbox') return;
    const gateway = deps.gateways.get(order.gateway);
    const state = await gateway.cancelCheckout?.(order);
    if (state === 'paid') {
      deps
        .log()
        .warn(
          { orderId: order.id, gateway: order.gateway },
          'a superseded order was paid at the gateway; its payment is refunded when it is settled',
        );
    }
  };
}

/**
 * Expires checkouts left pending past `ORDER_TTL_MS`: each is cancelled at its gateway where the gateway allows
 * (a Stripe PaymentIntent), then marked expired; expired orders are not sales and leave the buyer's history. One the
 * gateway reports paid meanwhile (its webhook was lost) is left for reconciliation to settle.
 */
export function expireOrdersHandler(deps: PaymentJobDeps): JobHandler {
  return async () => {
    const before = new Date(deps.ledger.now().getTime() - ORDER_TTL_MS);
    for (const order of await deps.repo.abandonedOrders(before, 200)) {
      let state: 'cancelled' | 'paid' | 'open' = 'cancelled';
      if (order.externalId && order.gateway !== 'sandbox' && deps.gateways.has(order.gateway)) {
        try {
          state = (await deps.gateways.get(order.gateway).cancelCheckout?.(order)) ?? 'open';
        } catch (error) {
          deps
            .log()
            .warn({ orderId: order.id, err: error }, 'could not cancel an abandoned checkout; retried later');
          continue;
        }
      }
      if (state === 'paid') continue;
      await deps.ledger.run(async (unit) => {
        const locked = await unit.repo.lockOrder(order.id);
        if (locked?.status === 'pending') {
          await unit.repo.updateOrder(order.id, { status: 'expired', now: unit.now });
        }
      });
    }
  };
}
