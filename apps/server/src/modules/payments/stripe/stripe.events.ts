import type Stripe from 'stripe';
import type { EventOutcome, HandledEvent, LedgerUnit, PaymentLedger } from '../payment-ledger';
import type { RefundReport } from '../payment-gateway';
import { stripeFailure } from './stripe.gateway';
import {
  idOf,
  invoicePeriod,
  stripeDisputeReports,
  stripeIntentConfirmation,
  stripeInvoiceConfirmation,
  stripeRefundReport,
} from './stripe.facts';

const ignored = (note: string): EventOutcome => ({ status: 'ignored', note });
const unknownOrder = (note: string): EventOutcome => ({ status: 'unknown_order', note });

/** The event types Backbeat applies (the README's webhook list); reconciliation replays these. */
export const STRIPE_EVENT_TYPES = [
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_intent.canceled',
  'invoice.paid',
  'invoice.payment_succeeded',
  'invoice.payment_failed',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'charge.refunded',
  'refund.created',
  'refund.updated',
  'charge.dispute.created',
  'charge.dispute.updated',
  'charge.dispute.closed',
  'charge.dispute.funds_withdrawn',
  'charge.dispute.funds_reinstated',
] as const;

/** What Stripe says now of the object an event names (read before the transaction: no network call holds it). */
type Truth =
  | {
      kind: 'intent';
      intent: Stripe.PaymentIntent;
      confirmation: Awaited<ReturnType<typeof stripeIntentConfirmation>> | null;
    }
  | {
      kind: 'invoice';
      invoice: Stripe.Invoice;
      confirmation: Awaited<ReturnType<typeof stripeInvoiceConfirmation>> | null;
    }
  | { kind: 'subscription'; subscription: Stripe.Subscription }
  | { kind: 'adjustments'; reports: RefundReport[] }
  | { kind: 'none' };

/**
 * Stripe's webhooks, verified on the raw body by the route and trusted for ids only: each object is read again from
 * Stripe (with its charge's refunds and disputes) and applied through the ledger once per event id. Reconciliation
 * replays Stripe's event list through the same path.
 */
export class StripeEvents {
  constructor(
    private readonly ledger: PaymentLedger,
    private readonly stripe: Stripe,
  ) {}

  /** A verified event, applied once. Objects are fetched again from Stripe: the event is trusted for ids only. */
  async handle(event: Stripe.Event): Promise<HandledEvent | null> {
    if (await this.ledger.recorded('stripe', event.id)) return null;
    const object = event.data.object as { id?: string; object?: string };
    let truth: Truth;
    try {
      truth = await this.fetchTruth(event.type, object);
    } catch (error) {
      throw stripeFailure(error);
    }
    const result = await this.ledger.handleEvent(
      'stripe',
      { id: event.id, type: event.type, payload: event },
      (unit) => this.apply(unit, event.type, truth),
    );
    return { outcome: result.outcome, changes: result.changes };
  }

  private async fetchTruth(type: string, object: { id?: string }): Promise<Truth> {
    const id = object.id ?? '';
    if (type.startsWith('payment_intent.')) {
      const intent = await this.stripe.paymentIntents.retrieve(id);
      const confirmation =
        intent.status === 'succeeded' ? await stripeIntentConfirmation(this.stripe, intent) : null;
      return { kind: 'intent', intent, confirmation };
    }
    if (
      type === 'invoice.paid' ||
      type === 'invoice.payment_failed' ||
      type === 'invoice.payment_succeeded'
    ) {
      const invoice = await this.stripe.invoices.retrieve(id, { expand: ['payments'] });
      const confirmation =
        invoice.status === 'paid' ? await stripeInvoiceConfirmation(this.stripe, invoice) : null;
      return { kind: 'invoice', invoice, confirmation };
    }
    if (type.startsWith('customer.subscription.')) {
      return { kind: 'subscription', subscription: await this.stripe.subscriptions.retrieve(id) };
    }
    if (type === 'charge.refunded') {
      const charge = await this.stripe.charges.retrieve(id);
      const intent = idOf(charge.payment_intent);
      if (!intent) return { kind: 'none' };
      const reports: RefundReport[] = [];
      for await (const refund of this.stripe.refunds.list({ payment_intent: intent, limit: 100 })) {
        if (refund.status === 'succeeded') reports.push(stripeRefundReport(refund, intent));
      }
      return { kind: 'adjustments', reports };
    }
    if (type === 'refund.created' || type === 'refund.updated') {
      const refund = await this.stripe.refunds.retrieve(id);
      const intent = idOf(refund.payment_intent);
      if (!intent || refund.status !== 'succeeded') return { kind: 'adjustments', reports: [] };
      return { kind: 'adjustments', reports: [stripeRefundReport(refund, intent)] };
    }
    if (type.startsWith('charge.dispute.')) {
      const dispute = await this.stripe.disputes.retrieve(id);
      const intent = idOf(dispute.payment_intent);
      return { kind: 'adjustments', reports: intent ? stripeDisputeReports(dispute, intent) : [] };
    }
    return { kind: 'none' };
  }

  private async apply(unit: LedgerUnit, type: string, truth: Truth): Promise<EventOutcome> {
    switch (truth.kind) {
      case 'intent':
        return this.applyIntent(unit, type, truth.intent, truth.confirmation);
      case 'invoice':
        return this.applyInvoice(unit, type, truth.invoice, truth.confirmation);
      case 'subscription': {
        const remote = truth.subscription;
        const subscription = await unit.repo.subscriptions.lockSubscriptionByExternal('stripe', remote.id);
        if (!subscription) return unknownOrder(`no subscription ${remote.id}`);
        if (
          remote.status === 'canceled' ||
          remote.status === 'incomplete_expired' ||
          type.endsWith('.deleted')
        ) {
          await this.ledger.endSubscription(unit, subscription);
          return { status: 'processed', note: `ended (${remote.status})` };
        }
        if (remote.status === 'past_due' || remote.status === 'unpaid') {
          await this.ledger.markPastDue(unit, subscription);
        }
        await this.ledger.setCancelAtPeriodEnd(unit, subscription, remote.cancel_at_period_end);
        return { status: 'processed' };
      }
      case 'adjustments': {
        if (truth.reports.length === 0) return ignored('nothing moved');
        let last: EventOutcome = ignored('recorded before');
        for (const report of truth.reports) {
          const outcome = await this.ledger.adjust(unit, report);
          if (outcome.status === 'processed' || last.status !== 'processed') last = outcome;
        }
        return last;
      }
      case 'none':
        return ignored(`not used: ${type}`);
    }
  }

  private async applyIntent(
    unit: LedgerUnit,
    type: string,
    intent: Stripe.PaymentIntent,
    confirmation: Awaited<ReturnType<typeof stripeIntentConfirmation>> | null,
  ): Promise<EventOutcome> {
    const orderId = intent.metadata?.order_id;
    if (!orderId) return ignored('a PaymentIntent of an invoice (handled by invoice events)');
    const order = await unit.repo.lockOrder(orderId);
    // The order's own intent; an order whose intent id is not written yet (the event outran the create call's
    // commit) is this one: only our secret key could have put our order id in its metadata.
    if (!order || order.gateway !== 'stripe' || (order.externalId && order.externalId !== intent.id)) {
      return unknownOrder(`no order ${orderId} for ${intent.id}`);
    }
    const current = order.externalId
      ? order
      : await unit.repo.updateOrder(order.id, { externalId: intent.id, now: unit.now });
    if (confirmation) {
      const settled = await this.ledger.settle(unit, current, confirmation);
      return settled.mismatch
        ? {
            status: 'processed',
            orderId: order.id,
            note: 'amount or currency differs from the order: refunding',
          }
        : {
            status: 'processed',
            orderId: order.id,
            note: settled.duplicate ? 'already owned: refunding' : null,
          };
    }
    if (type === 'payment_intent.payment_failed' || intent.status === 'canceled') {
      await this.ledger.failOrder(unit, current);
      return { status: 'processed', orderId: order.id, note: intent.last_payment_error?.message ?? null };
    }
    return ignored(`intent is ${intent.status}`);
  }

  private async applyInvoice(
    unit: LedgerUnit,
    type: string,
    invoice: Stripe.Invoice,
    confirmation: Awaited<ReturnType<typeof stripeInvoiceConfirmation>> | null,
  ): Promise<EventOutcome> {
    const subscriptionId = idOf(invoice.parent?.subscription_details?.subscription);
    if (!subscriptionId) return ignored('an invoice without a subscription');
    const subscription = await unit.repo.subscriptions.lockSubscriptionByExternal('stripe', subscriptionId);
    if (!subscription) return unknownOrder(`no subscription ${subscriptionId}`);
    if (confirmation) {
      const settled = await this.ledger.applySubscriptionPayment(unit, subscription, {
        confirmation,
        ...invoicePeriod(invoice),
      });
      return {
        status: 'processed',
        orderId: settled?.order.id ?? null,
        note: settled?.mismatch ? 'amount or currency differs from the order: refunding' : null,
      };
    }
    if (type === 'invoice.payment_failed') {
      if (invoice.billing_reason === 'subscription_create') {
        const initial = await unit.repo.lockInitialOrderOf(subscription.id);
        if (initial) await this.ledger.failOrder(unit, initial);
        return { status: 'processed', orderId: initial?.id ?? null, note: 'first payment failed' };
      }
      await this.ledger.markPastDue(unit, subscription);
      return { status: 'processed', note: 'renewal failed: past due' };
    }
    return ignored(`invoice is ${invoice.status}`);
  }
}
