import type {
  EventOutcome,
  HandledEvent,
  LedgerUnit,
  PaymentLedger,
  SubscriptionPayment,
} from '../payment-ledger';
import type { PaymentConfirmation, RefundReport } from '../payment-gateway';
import {
  captureConfirmation,
  capturesIn,
  linkedId,
  paypalDisputeReports,
  paypalRefundReport,
  str,
} from './paypal.facts';
import type { PaypalGateway } from './paypal.gateway';
import type { PaypalSubscriptions } from './paypal.subscriptions';

/** A verified PayPal webhook event (`resource` is the object it is about). */
export interface PaypalEvent {
  id: string;
  event_type: string;
  resource_type?: string;
  resource: Record<string, unknown>;
}

const ignored = (note: string): EventOutcome => ({ status: 'ignored', note });
const unknownOrder = (note: string): EventOutcome => ({ status: 'unknown_order', note });

/** What PayPal says now of what an event names (read before the ledger's transaction). */
export type PaypalTruth =
  | { kind: 'capture'; paypalOrderId: string; confirmation: PaymentConfirmation | null }
  | { kind: 'sale'; subscriptionId: string; payment: SubscriptionPayment | null; status: string }
  | { kind: 'subscription'; subscriptionId: string; status: string }
  | { kind: 'adjustments'; reports: RefundReport[] }
  | { kind: 'none' };

/**
 * PayPal's webhooks, verified by the route through PayPal's verify-webhook-signature call and trusted for ids only:
 * captures (with their order's refunds), subscription sales, refunds and disputes are read again from PayPal before
 * the ledger applies them, once per event id. Reconciliation feeds the same truths from PayPal's transaction search.
 */
export class PaypalEvents {
  constructor(
    private readonly ledger: PaymentLedger,
    private readonly gateway: PaypalGateway,
    private readonly subscriptions: PaypalSubscriptions,
  ) {}

  async handle(event: PaypalEvent): Promise<HandledEvent | null> {
    if (await this.ledger.recorded('paypal', event.id)) return null;
    const truth = await this.fetchTruth(event);
    const result = await this.ledger.handleEvent(
      'paypal',
      { id: event.id, type: event.event_type, payload: event },
      (unit) => this.apply(unit, event.event_type, truth),
    );
    return { outcome: result.outcome, changes: result.changes };
  }

  /** A capture read from PayPal with its order (for the refunds PayPal lists there). */
  async captureTruth(captureId: string): Promise<PaypalTruth> {
    const capture = await this.gateway.getCapture(captureId);
    const related = (capture.supplementary_data as { related_ids?: { order_id?: string } } | undefined)
      ?.related_ids?.order_id;
    if (!related) return { kind: 'none' };
    const order = await this.gateway.getOrder(related);
    const found = capturesIn(order).find((candidate) => candidate.id === captureId);
    return {
      kind: 'capture',
      paypalOrderId: related,
      confirmation: found ? captureConfirmation(found) : null,
    };
  }

  private async fetchTruth(event: PaypalEvent): Promise<PaypalTruth> {
    const resource = event.resource;
    const type = event.event_type;
    const id = str(resource.id) ?? '';
    if (
      type === 'PAYMENT.CAPTURE.COMPLETED' ||
      type === 'PAYMENT.CAPTURE.DENIED' ||
      type === 'PAYMENT.CAPTURE.PENDING'
    ) {
      return this.captureTruth(id);
    }
    if (type === 'PAYMENT.CAPTURE.REFUNDED' || type === 'PAYMENT.CAPTURE.REVERSED') {
      const refund = await this.gateway.getRefund(id);
      const captureId = linkedId(refund, 'up');
      const report = captureId ? paypalRefundReport(refund, captureId) : null;
      return { kind: 'adjustments', reports: report ? [report] : [] };
    }
    if (type === 'PAYMENT.SALE.REFUNDED' || type === 'PAYMENT.SALE.REVERSED') {
      // A v1 sale refund: read again through the v1 refund call, as PayPal documents it.
      const refund = await this.gateway.getSaleRefund(id);
      const saleId = str(refund.sale_id) ?? str(resource.sale_id);
      const report = saleId ? paypalRefundReport(refund, saleId) : null;
      return { kind: 'adjustments', reports: report ? [report] : [] };
    }
    if (type === 'PAYMENT.SALE.COMPLETED') {
      const subscriptionId = str(resource.billing_agreement_id);
      if (!subscriptionId) return { kind: 'none' };
      return this.subscriptions.saleTruth(subscriptionId, id);
    }
    if (type.startsWith('BILLING.SUBSCRIPTION.')) {
      if (type === 'BILLING.SUBSCRIPTION.ACTIVATED' || type === 'BILLING.SUBSCRIPTION.RE-ACTIVATED') {
        return this.subscriptions.saleTruth(id, null);
      }
      const remote = await this.subscriptions.fetch(id);
      return { kind: 'subscription', subscriptionId: id, status: remote.status ?? '' };
    }
    if (type.startsWith('CUSTOMER.DISPUTE.')) {
      const disputeId = str(resource.dispute_id) ?? id;
      const dispute = await this.gateway.getDispute(disputeId);
      return { kind: 'adjustments', reports: paypalDisputeReports(dispute) };
    }
    return { kind: 'none' };
  }

  async apply(unit: LedgerUnit, type: string, truth: PaypalTruth): Promise<EventOutcome> {
    switch (truth.kind) {
      case 'capture': {
        const order = await unit.repo.lockOrderByExternal('paypal', truth.paypalOrderId);
        if (!order) return unknownOrder(`no order for ${truth.paypalOrderId}`);
        if (!truth.confirmation) return ignored('capture pending');
        const settled = await this.ledger.settle(unit, order, truth.confirmation);
        return {
          status: 'processed',
          orderId: order.id,
          note: settled.mismatch ? 'amount or currency differs from the order: refunding' : null,
        };
      }
      case 'sale': {
        const subscription = await unit.repo.subscriptions.lockSubscriptionByExternal(
          'paypal',
          truth.subscriptionId,
        );
        if (!subscription) return unknownOrder(`no subscription ${truth.subscriptionId}`);
        if (!truth.payment) return ignored(`no payment yet (${truth.status})`);
        const settled = await this.ledger.applySubscriptionPayment(unit, subscription, truth.payment);
        return { status: 'processed', orderId: settled?.order.id ?? null };
      }
      case 'subscription': {
        const subscription = await unit.repo.subscriptions.lockSubscriptionByExternal(
          'paypal',
          truth.subscriptionId,
        );
        if (!subscription) return unknownOrder(`no subscription ${truth.subscriptionId}`);
        if (type === 'BILLING.SUBSCRIPTION.PAYMENT.FAILED' || truth.status === 'SUSPENDED') {
          await this.ledger.markPastDue(unit, subscription);
          return { status: 'processed', note: 'payment failed: past due' };
        }
        if (truth.status === 'CANCELLED' || truth.status === 'EXPIRED') {
          await this.ledger.endSubscription(unit, subscription);
          return { status: 'processed', note: `ended (${truth.status})` };
        }
        return ignored(`subscription is ${truth.status}`);
      }
      case 'adjustments':
        return this.ledger.adjustAll(unit, truth.reports);
      case 'none':
        return ignored(`not used: ${type}`);
    }
  }
}
