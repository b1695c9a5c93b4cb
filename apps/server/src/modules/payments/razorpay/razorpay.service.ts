import { createHash } from 'node:crypto';
import {
  PAYMENT_ERROR_CODES,
  SUBSCRIPTION_CYCLE_MONTHS,
  type CreatePurchaseBody,
  type PaymentResultResponse,
  type RazorpayCreateOrderResponse,
  type RazorpayVerifyBody,
  type SubscriptionCycle,
} from '@backbeat/contract';
import { AppError, conflict } from '../../../platform/errors';
import { GatewayCheckout, type SubscriptionStarter } from '../gateway-checkout';
import type { Offer } from '../offers';
import type { EventOutcome, HandledEvent, LedgerUnit } from '../payment-ledger';
import type { RefundReport } from '../payment-gateway';
import type { OrderRow, SubscriptionRow } from '../payments.repository';
import { orderNotFound, type Buyer, type PaymentsService } from '../payments.service';
import { RazorpayApiError, type RzpPayment, type RzpSubscription } from './razorpay-api';
import { razorpayChargePeriod, razorpayConfirmation, moneyTaken } from './razorpay.facts';
import {
  razorpayDisputeReports,
  razorpayFailure,
  razorpayRefundReport,
  type RazorpayGateway,
} from './razorpay.gateway';

/** A verified webhook: `X-Razorpay-Event-Id` (or a hash of the body) and the event. */
export interface RazorpayEvent {
  id: string;
  event: string;
  payload: Record<string, { entity?: Record<string, unknown> } | undefined>;
}

const ignored = (note: string): EventOutcome => ({ status: 'ignored', note });
const unknownOrder = (note: string): EventOutcome => ({ status: 'unknown_order', note });
const invalidSignature = () => new AppError(400, 'INVALID_SIGNATURE', 'Invalid Razorpay signature');
const alreadyOwned = () =>
  conflict(
    'You already own this item, so this payment was not taken; your bank releases the held amount.',
    PAYMENT_ERROR_CODES.alreadyOwned,
  );

/** What Razorpay says now of what an event names (read, and an authorized payment captured, before the ledger). */
type Truth =
  | { kind: 'payment'; payment: RzpPayment; order: OrderRow | null }
  | { kind: 'subscription'; subscription: RzpSubscription; payment: RzpPayment | null; period: Period | null }
  | { kind: 'adjustments'; reports: RefundReport[] }
  | { kind: 'none' };
type Period = { periodStart: Date; periodEnd: Date };

/**
 * Razorpay's protocol: an Order per purchase paid in Razorpay Checkout, whose result (order id, payment id,
 * signature) is verified with the SDK's helper; the server captures each authorized payment for the server-priced
 * amount (whatever the account's auto-capture setting); a Plan per artist and cycle and a Subscription per
 * subscriber; webhooks verified with the SDK's helper and trusted for ids only: payments, subscriptions, refunds
 * and disputes are fetched again from Razorpay before they change anything.
 */
export class RazorpayService {
  private readonly checkout: GatewayCheckout;

  constructor(
    private readonly payments: PaymentsService,
    private readonly gateway: RazorpayGateway,
  ) {
    this.checkout = new GatewayCheckout(payments, 'razorpay', razorpayFailure);
  }

  private get api() {
    return this.gateway.api;
  }

  /** A Razorpay order at the server's price, for Checkout. */
  async createOrder(buyer: Buyer, body: CreatePurchaseBody): Promise<RazorpayCreateOrderResponse> {
    const offer = await this.payments.purchaseOffer(buyer, body);
    const { order, remote } = await this.checkout.open(buyer, offer, async (order) => {
      const remote = await this.api.createOrder({
        amount: order.amount,
        currency: order.currency,
        receipt: order.id,
        notes: { order_id: order.id, user_id: buyer.id },
      });
      return { remote, externalId: remote.id };
    });
    return {
      order: { ...remote, amount: Number(remote.amount), receipt: remote.receipt ?? null },
      transactionId: order.id,
      keyId: this.gateway.settings.keyId,
    };
  }

  /** A Razorpay subscription on the artist's plan for the cycle; Checkout opens with its id. */
  readonly subscribe: SubscriptionStarter = (buyer, artistId, cycle, body) =>
    this.checkout.subscribe(buyer, artistId, cycle, body, {
      plan: (offer) => this.planFor(offer, cycle),
      create: async (order, plan, offer) => {
        const remote = await this.api.createSubscription({
          plan_id: plan,
          // Razorpay needs a number of cycles: ten years of them.
          total_count: Math.ceil(120 / SUBSCRIPTION_CYCLE_MONTHS[cycle]),
          customer_notify: 1,
          notes: { order_id: order.id, user_id: buyer.id, artist_id: offer.artistId },
        });
        return { remote, externalId: remote.id };
      },
      answer: (remote) => ({ subscriptionId: remote.id, keyId: this.gateway.settings.keyId }),
    });

  /**
   * Checkout's handler result. The signature is checked first (nothing is read or written for a bad one), then
   * the payment is read from Razorpay, captured for the order's amount when only authorized, and settled.
   */
  async verify(buyer: Buyer, body: RazorpayVerifyBody): Promise<PaymentResultResponse> {
    const valid = this.gateway.verifyCheckout(
      {
        paymentId: body.razorpay_payment_id,
        orderId: body.razorpay_order_id,
        subscriptionId: body.razorpay_subscription_id,
      },
      body.razorpay_signature,
    );
    if (!valid) throw invalidSignature();
    const fetched = await this.fetchPayment(body.razorpay_payment_id, invalidSignature);
    if (body.razorpay_order_id) {
      if (fetched.order_id !== body.razorpay_order_id) throw invalidSignature();
      const known = await this.payments.repo.findOrderByExternal('razorpay', body.razorpay_order_id);
      if (!known || known.userId !== buyer.id) throw orderNotFound();
      const payment = await this.captureFor(known, fetched);
      if (payment.status === 'authorized') throw alreadyOwned();
      const confirmation = await this.confirmationOf(payment);
      const order = await this.payments.ledger.run(async (unit) => {
        const locked = (await unit.repo.lockOrder(known.id)) ?? known;
        if (confirmation) await this.payments.ledger.settle(unit, locked, confirmation);
        return (await unit.repo.findOrder(known.id)) ?? locked;
      });
      return this.payments.result(order);
    }
    const subscriptionId = body.razorpay_subscription_id!;
    const remote = await this.fetchSubscription(subscriptionId);
    const period = moneyTaken(fetched) ? await this.periodOf(fetched, remote) : null;
    const confirmation = await this.confirmationOf(fetched);
    return this.checkout.confirmSubscription(
      buyer,
      subscriptionId,
      confirmation?.status === 'succeeded' && period ? { confirmation, ...period } : null,
    );
  }

  // ---------------------------------------------------------------------------------------------------------
  // Webhooks

  /** The event's id: Razorpay's X-Razorpay-Event-Id header, else a hash of the exact body. */
  static eventId(header: string | undefined, rawBody: Buffer): string {
    return header || `sha256:${createHash('sha256').update(rawBody).digest('hex')}`;
  }

  /** A verified event, applied once; entities are fetched again from Razorpay first. */
  async handleEvent(event: RazorpayEvent): Promise<HandledEvent | null> {
    if (await this.payments.ledger.recorded('razorpay', event.id)) return null;
    const truth = await this.fetchTruth(event);
    const result = await this.payments.ledger.handleEvent(
      'razorpay',
      { id: event.id, type: event.event, payload: event },
      (unit) => this.apply(unit, event.event, truth),
    );
    return { outcome: result.outcome, changes: result.changes };
  }

  /** A payment Razorpay reports (an event, or reconciliation): captured if it must be, then its truth. */
  async paymentTruth(paymentId: string): Promise<Truth> {
    const fetched = await this.fetchPayment(paymentId, () => razorpayFailure(new Error('payment not found')));
    // A subscription's charge has an invoice (and an order of Razorpay's own): it belongs to the subscription.
    if (fetched.invoice_id) {
      const invoice = await this.wrap(() => this.api.fetchInvoice(fetched.invoice_id!));
      if (invoice.subscription_id) {
        const subscription = await this.fetchSubscription(invoice.subscription_id);
        const period = moneyTaken(fetched) ? await this.periodOf(fetched, subscription) : null;
        return { kind: 'subscription', subscription, payment: fetched, period };
      }
    }
    if (fetched.order_id) {
      const order = await this.payments.repo.findOrderByExternal('razorpay', fetched.order_id);
      const payment = order ? await this.captureFor(order, fetched) : fetched;
      return { kind: 'payment', payment, order };
    }
    return { kind: 'payment', payment: fetched, order: null };
  }

  private async fetchTruth(event: RazorpayEvent): Promise<Truth> {
    const entity = (name: string) => event.payload[name]?.entity as { id?: string } | undefined;
    const type = event.event;
    if (type.startsWith('subscription.')) {
      const subscriptionId = entity('subscription')?.id;
      if (!subscriptionId) return { kind: 'none' };
      const paymentId = entity('payment')?.id;
      const subscription = await this.fetchSubscription(subscriptionId);
      const payment = paymentId
        ? await this.fetchPayment(paymentId, () => razorpayFailure(new Error('payment not found')))
        : null;
      const period = payment && moneyTaken(payment) ? await this.periodOf(payment, subscription) : null;
      return { kind: 'subscription', subscription, payment, period };
    }
    if (type.startsWith('payment.') && !type.startsWith('payment.dispute.')) {
      const paymentId = entity('payment')?.id;
      return paymentId ? this.paymentTruth(paymentId) : { kind: 'none' };
    }
    if (type === 'order.paid') {
      const paymentId = entity('payment')?.id;
      return paymentId ? this.paymentTruth(paymentId) : { kind: 'none' };
    }
    if (type.startsWith('refund.')) {
      const refund = entity('refund') as { id?: string; payment_id?: string } | undefined;
      if (!refund?.id || !refund.payment_id) return { kind: 'none' };
      const fetched = await this.wrap(() => this.api.fetchRefund(refund.payment_id!, refund.id!));
      return {
        kind: 'adjustments',
        reports: fetched.status === 'processed' ? [razorpayRefundReport(fetched)] : [],
      };
    }
    if (type.startsWith('payment.dispute.')) {
      const dispute = entity('dispute') as { id?: string } | undefined;
      if (!dispute?.id) return { kind: 'none' };
      const fetched = await this.wrap(() => this.api.fetchDispute(dispute.id!));
      return { kind: 'adjustments', reports: razorpayDisputeReports(fetched) };
    }
    return { kind: 'none' };
  }

  /** Applies a truth read from Razorpay (a webhook's, or reconciliation's) in the ledger's transaction. */
  async apply(unit: LedgerUnit, type: string, truth: Truth): Promise<EventOutcome> {
    const ledger = this.payments.ledger;
    switch (truth.kind) {
      case 'payment': {
        const { payment } = truth;
        if (!payment.order_id) return ignored('a payment without an order');
        const order = await unit.repo.lockOrderByExternal('razorpay', payment.order_id);
        if (!order) return unknownOrder(`no order for ${payment.order_id}`);
        const confirmation = await this.confirmationOf(payment);
        if (!confirmation) return ignored(`payment is ${payment.status}`);
        const settled = await ledger.settle(unit, order, confirmation);
        return {
          status: 'processed',
          orderId: order.id,
          note: settled.mismatch ? 'amount differs from the order: refunding' : null,
        };
      }
      case 'subscription': {
        const remote = truth.subscription;
        const subscription = await unit.repo.subscriptions.lockSubscriptionByExternal('razorpay', remote.id);
        if (!subscription) return unknownOrder(`no subscription ${remote.id}`);
        if (truth.payment && truth.period && moneyTaken(truth.payment)) {
          const confirmation = await this.confirmationOf(truth.payment);
          if (confirmation?.status === 'succeeded') {
            await ledger.applySubscriptionPayment(unit, subscription, { confirmation, ...truth.period });
          }
        }
        return this.applySubscriptionState(unit, type, remote, subscription);
      }
      case 'adjustments':
        return ledger.adjustAll(unit, truth.reports);
      case 'none':
        return ignored(`not used: ${type}`);
    }
  }

  private async applySubscriptionState(
    unit: LedgerUnit,
    type: string,
    remote: RzpSubscription,
    subscription: SubscriptionRow,
  ): Promise<EventOutcome> {
    const ledger = this.payments.ledger;
    if (type === 'subscription.pending' || remote.status === 'pending') {
      await ledger.markPastDue(unit, subscription);
      return { status: 'processed', note: 'renewal failed: past due' };
    }
    if (['halted', 'cancelled', 'completed', 'expired'].includes(remote.status)) {
      await ledger.endSubscription(unit, subscription);
      return { status: 'processed', note: `ended (${remote.status})` };
    }
    return { status: 'processed' };
  }

  /**
   * Captures an authorized payment of one of our orders for the order's server-priced amount, once (a second
   * capture, from a racing webhook, finds it captured). A payment for an order that can no longer be paid (the item
   * is owned already, the order was superseded) or for another amount is not captured: Razorpay releases it.
   */
  private async captureFor(order: OrderRow, payment: RzpPayment): Promise<RzpPayment> {
    if (payment.status !== 'authorized') return payment;
    const sameMoney =
      Number(payment.amount) === order.amount &&
      payment.currency.toUpperCase() === order.currency.toUpperCase();
    if (!sameMoney || !(await this.payments.mayStillBePaid(order))) return payment;
    try {
      return await this.api.capturePayment(payment.id, order.amount, order.currency);
    } catch (error) {
      if (error instanceof RazorpayApiError && error.statusCode === 400) {
        // Captured meanwhile (a racing webhook or the checkout's own call): read what Razorpay holds now.
        const now = await this.fetchPayment(payment.id, () => razorpayFailure(error));
        if (now.status !== 'authorized') return now;
      }
      throw razorpayFailure(error);
    }
  }

  private async confirmationOf(payment: RzpPayment) {
    return this.wrap(() => razorpayConfirmation(this.api, payment));
  }

  private async periodOf(payment: RzpPayment, subscription: RzpSubscription): Promise<Period | null> {
    return this.wrap(() => razorpayChargePeriod(this.api, payment, subscription));
  }

  private fetchPayment(id: string, notFound: () => AppError): Promise<RzpPayment> {
    return this.fetchOr(() => this.api.fetchPayment(id), notFound);
  }

  private fetchSubscription(id: string): Promise<RzpSubscription> {
    return this.fetchOr(() => this.api.fetchSubscription(id), orderNotFound);
  }

  /** An object read from Razorpay; one it does not know (400 or 404) answers `notFound`. */
  private async fetchOr<T>(fetch: () => Promise<T>, notFound: () => AppError): Promise<T> {
    try {
      return await fetch();
    } catch (error) {
      if (error instanceof RazorpayApiError && (error.statusCode === 400 || error.statusCode === 404)) {
        throw notFound();
      }
      throw razorpayFailure(error);
    }
  }

  private wrap<T>(call: () => Promise<T>): Promise<T> {
    return this.checkout.call(call);
  }

  /** The artist's Razorpay plan for the cycle and amount: created once, then reused. */
  private planFor(offer: Offer, cycle: SubscriptionCycle): Promise<string> {
    return this.checkout.offerPlan(offer, cycle, async ({ artistId, amount, currency, title }) => {
      const plan = await this.wrap(() =>
        this.api.createPlan({
          period: 'monthly',
          interval: SUBSCRIPTION_CYCLE_MONTHS[cycle],
          item: { name: title, amount, currency },
          notes: { artist_id: artistId, cycle },
        }),
      );
      return plan.id;
    });
  }
}
