import { createHash } from 'node:crypto';
import type Razorpay from 'razorpay';
import {
  SUBSCRIPTION_CYCLE_MONTHS,
  type CreatePurchaseBody,
  type PaymentResultResponse,
  type RazorpayCreateOrderResponse,
  type RazorpayVerifyBody,
  type SubscribeArtistBody,
  type SubscribeArtistResponse,
  type SubscriptionCycle,
} from '@backbeat/contract';
import { AppError } from '../../../platform/errors';
import { presentOrder } from '../order.presenter';
import type { EventOutcome, LedgerUnit } from '../payment-ledger';
import type { OrderRow } from '../payments.repository';
import { orderNotFound, type Buyer, type PaymentsService } from '../payments.service';
import { razorpayFailure, type RazorpayGateway } from './razorpay.gateway';

/** The fields of Razorpay entities this module reads (the SDK's own types are loose unions). */
interface RzpOrder {
  id: string;
  entity: string;
  amount: number | string;
  currency: string;
  receipt?: string | null;
  status: string;
  [field: string]: unknown;
}
interface RzpPayment {
  id: string;
  order_id?: string | null;
  invoice_id?: string | null;
  amount: number | string;
  currency: string;
  status: string;
  error_description?: string | null;
}
interface RzpSubscription {
  id: string;
  status: string;
  current_start?: number | null;
  current_end?: number | null;
  notes?: Record<string, string> | unknown[];
}
interface RzpRefund {
  id: string;
  payment_id: string;
  amount: number | string;
  currency: string;
  status: string;
}
interface RzpDispute {
  id: string;
  payment_id: string;
  amount: number | string;
  currency: string;
  reason_code?: string;
}

/** A verified webhook: `X-Razorpay-Event-Id` (or a hash of the body) and the event. */
export interface RazorpayEvent {
  id: string;
  event: string;
  payload: Record<string, { entity?: Record<string, unknown> } | undefined>;
}

const ignored = (note: string): EventOutcome => ({ status: 'ignored', note });
const unknownOrder = (note: string): EventOutcome => ({ status: 'unknown_order', note });
const invalidSignature = () => new AppError(400, 'INVALID_SIGNATURE', 'Invalid Razorpay signature');

/**
 * Razorpay's protocol: an Order per purchase paid in Razorpay Checkout, whose result (order id, payment id,
 * signature) is verified with the SDK's helper; a Plan per artist and cycle and a Subscription per subscriber; and
 * webhooks verified with the SDK's helper, trusted for ids only: payments, subscriptions and refunds are fetched
 * again from Razorpay before they change anything.
 */
export class RazorpayService {
  constructor(
    private readonly payments: PaymentsService,
    private readonly gateway: RazorpayGateway,
  ) {}

  private get razorpay(): Razorpay {
    return this.gateway.client;
  }

  /** A Razorpay order at the server's price, for Checkout. */
  async createOrder(buyer: Buyer, body: CreatePurchaseBody): Promise<RazorpayCreateOrderResponse> {
    const offer = await this.payments.purchaseOffer(buyer, body);
    const order = await this.payments.openOrder(buyer, 'razorpay', offer);
    let remote: RzpOrder;
    try {
      remote = (await this.razorpay.orders.create({
        amount: order.amount,
        currency: order.currency,
        receipt: order.id,
        notes: { order_id: order.id, user_id: buyer.id },
      })) as unknown as RzpOrder;
    } catch (error) {
      await this.payments.abandonOrder(order);
      throw razorpayFailure(error);
    }
    await this.payments.attachExternal(order, remote.id);
    return {
      order: { ...remote, amount: Number(remote.amount), receipt: remote.receipt ?? null },
      transactionId: order.id,
      keyId: this.gateway.settings.keyId,
    };
  }

  /** A Razorpay subscription on the artist's plan for the cycle; Checkout opens with its id. */
  async subscribe(
    buyer: Buyer,
    artistId: string,
    cycle: SubscriptionCycle,
    body: SubscribeArtistBody,
  ): Promise<SubscribeArtistResponse> {
    const offer = await this.payments.subscriptionOffer(buyer, artistId, cycle, body);
    const plan = await this.planFor(offer.artistId, cycle, offer.amount, offer.currency, offer.title);
    const order = await this.payments.openOrder(buyer, 'razorpay', offer);
    let remote: { id: string };
    try {
      remote = await this.razorpay.subscriptions.create({
        plan_id: plan,
        // Razorpay needs a number of cycles: ten years of them.
        total_count: Math.ceil(120 / SUBSCRIPTION_CYCLE_MONTHS[cycle]),
        customer_notify: 1,
        notes: { order_id: order.id, user_id: buyer.id, artist_id: offer.artistId },
      });
    } catch (error) {
      await this.payments.abandonOrder(order);
      throw razorpayFailure(error);
    }
    const saved = await this.payments.attachExternal(order, remote.id);
    await this.payments.recordPendingSubscription(saved, {
      gateway: 'razorpay',
      externalId: remote.id,
      cycle,
    });
    return {
      transactionId: order.id,
      gateway: 'razorpay',
      cycle,
      order: presentOrder(saved),
      subscriptionId: remote.id,
      keyId: this.gateway.settings.keyId,
    };
  }

  /**
   * Checkout's handler result. The signature is checked first (nothing is read or written for a bad one), then
   * the payment is fetched from Razorpay and must be captured for this order, at its amount.
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
    const payment = await this.fetchPayment(body.razorpay_payment_id);
    if (body.razorpay_order_id) {
      const orderId = body.razorpay_order_id;
      if (payment.order_id !== orderId) throw invalidSignature();
      const order = await this.payments.ledger.run(async (unit) => {
        const locked = await unit.repo.lockOrderByExternal('razorpay', orderId);
        if (!locked || locked.userId !== buyer.id) throw orderNotFound();
        await this.settlePayment(unit, locked, payment);
        return (await unit.repo.findOrder(locked.id)) ?? locked;
      });
      return this.payments.result(order);
    }
    const subscriptionId = body.razorpay_subscription_id!;
    const remote = await this.fetchSubscription(subscriptionId);
    const order = await this.payments.ledger.run(async (unit) => {
      const subscription = await unit.repo.lockSubscriptionByExternal('razorpay', subscriptionId);
      if (!subscription || subscription.userId !== buyer.id) throw orderNotFound();
      await this.applySubscriptionCharge(unit, subscription, remote, payment);
      const initial = await unit.repo.lockInitialOrderOf(subscription.id);
      if (!initial) throw orderNotFound();
      return initial;
    });
    return this.payments.result(order);
  }

  // ---------------------------------------------------------------------------------------------------------
  // Webhooks

  /** The event's id: Razorpay's X-Razorpay-Event-Id header, else a hash of the exact body. */
  static eventId(header: string | undefined, rawBody: Buffer): string {
    return header || `sha256:${createHash('sha256').update(rawBody).digest('hex')}`;
  }

  /** A verified event, applied once; entities are fetched again from Razorpay first. */
  async handleEvent(event: RazorpayEvent): Promise<void> {
    if (await this.payments.ledger.recorded('razorpay', event.id)) return;
    const truth = await this.fetchTruth(event);
    await this.payments.ledger.handleEvent(
      'razorpay',
      { id: event.id, type: event.event, payload: event },
      (unit) => this.apply(unit, event.event, truth),
    );
  }

  private async fetchTruth(event: RazorpayEvent): Promise<Truth> {
    const entity = (name: string) => event.payload[name]?.entity as { id?: string } | undefined;
    const type = event.event;
    if (type.startsWith('subscription.')) {
      const subscriptionId = entity('subscription')?.id;
      if (!subscriptionId) return { kind: 'none' };
      const paymentId = entity('payment')?.id;
      return {
        kind: 'subscription',
        subscription: await this.fetchSubscription(subscriptionId),
        payment: paymentId ? await this.fetchPayment(paymentId) : null,
      };
    }
    if (type === 'payment.captured' || type === 'payment.failed' || type === 'order.paid') {
      const paymentId = entity('payment')?.id;
      return paymentId ? { kind: 'payment', payment: await this.fetchPayment(paymentId) } : { kind: 'none' };
    }
    if (type === 'refund.processed' || type === 'refund.created' || type === 'payment.refunded') {
      const refund = entity('refund') as { id?: string; payment_id?: string } | undefined;
      if (!refund?.id || !refund.payment_id) return { kind: 'none' };
      try {
        const fetched = (await this.razorpay.refunds.fetch(refund.id, {
          payment_id: refund.payment_id,
        })) as unknown as RzpRefund;
        return { kind: 'refund', refund: fetched };
      } catch (error) {
        throw razorpayFailure(error);
      }
    }
    if (type === 'payment.dispute.created' || type === 'payment.dispute.lost') {
      const dispute = entity('dispute') as unknown as RzpDispute | undefined;
      if (!dispute?.id) return { kind: 'none' };
      try {
        return {
          kind: 'dispute',
          dispute: (await this.razorpay.disputes.fetch(dispute.id)) as unknown as RzpDispute,
        };
      } catch (error) {
        throw razorpayFailure(error);
      }
    }
    return { kind: 'none' };
  }

  private async apply(unit: LedgerUnit, type: string, truth: Truth): Promise<EventOutcome> {
    const ledger = this.payments.ledger;
    switch (truth.kind) {
      case 'payment': {
        const payment = truth.payment;
        if (!payment.order_id) return ignored('a payment without an order (a subscription charge)');
        const order = await unit.repo.lockOrderByExternal('razorpay', payment.order_id);
        if (!order) return unknownOrder(`no order for ${payment.order_id}`);
        const outcome = await this.settlePayment(unit, order, payment);
        return { status: outcome, orderId: order.id };
      }
      case 'subscription': {
        const remote = truth.subscription;
        const subscription = await unit.repo.lockSubscriptionByExternal('razorpay', remote.id);
        if (!subscription) return unknownOrder(`no subscription ${remote.id}`);
        if (type === 'subscription.charged' || type === 'subscription.activated') {
          if (!truth.payment) return ignored('no payment in the event');
          await this.applySubscriptionCharge(unit, subscription, remote, truth.payment);
          return { status: 'processed' };
        }
        if (type === 'subscription.pending') {
          await ledger.markPastDue(unit, subscription);
          return { status: 'processed', note: 'renewal failed: past due' };
        }
        if (
          type === 'subscription.halted' ||
          type === 'subscription.cancelled' ||
          type === 'subscription.completed' ||
          type === 'subscription.expired'
        ) {
          await ledger.endSubscription(unit, subscription);
          return { status: 'processed', note: `ended (${remote.status})` };
        }
        return ignored(`not used: ${type}`);
      }
      case 'refund': {
        const refund = truth.refund;
        if (refund.status !== 'processed') return ignored(`refund is ${refund.status}`);
        const paid = await unit.repo.findPaymentByGatewayId('razorpay', refund.payment_id);
        if (!paid) return unknownOrder(`no payment ${refund.payment_id}`);
        await ledger.recordRefund(unit, paid.order, {
          gateway: 'razorpay',
          externalId: refund.id,
          kind: 'refund',
          amount: Number(refund.amount),
          currency: refund.currency,
          raw: { refund: refund.id, payment: refund.payment_id },
        });
        return { status: 'processed', orderId: paid.order.id };
      }
      case 'dispute': {
        const dispute = truth.dispute;
        const paid = await unit.repo.findPaymentByGatewayId('razorpay', dispute.payment_id);
        if (!paid) return unknownOrder(`no payment ${dispute.payment_id}`);
        await ledger.recordRefund(unit, paid.order, {
          gateway: 'razorpay',
          externalId: dispute.id,
          kind: 'dispute',
          amount: Number(dispute.amount),
          currency: dispute.currency,
          reason: dispute.reason_code ?? null,
          raw: { dispute: dispute.id },
        });
        return { status: 'processed', orderId: paid.order.id };
      }
      case 'none':
        return ignored(`not used: ${type}`);
    }
  }

  /** A fetched payment applied to its order: captured settles it (at the order's amount only), failed fails it. */
  private async settlePayment(
    unit: LedgerUnit,
    order: OrderRow,
    payment: RzpPayment,
  ): Promise<'processed' | 'ignored'> {
    if (payment.status === 'captured') {
      const settled = await this.payments.ledger.settle(unit, order, {
        externalId: payment.id,
        status: 'succeeded',
        amount: Number(payment.amount),
        currency: payment.currency.toUpperCase(),
        raw: { payment: payment.id, order: payment.order_id },
      });
      return settled.mismatch ? 'ignored' : 'processed';
    }
    if (payment.status === 'failed') {
      await this.payments.ledger.failOrder(unit, order);
      return 'processed';
    }
    return 'ignored';
  }

  /** A captured subscription charge: the period Razorpay reports for the subscription now. */
  private async applySubscriptionCharge(
    unit: LedgerUnit,
    subscription: Parameters<PaymentsService['ledger']['applySubscriptionPayment']>[1],
    remote: RzpSubscription,
    payment: RzpPayment,
  ): Promise<void> {
    if (payment.status !== 'captured' || !remote.current_start || !remote.current_end) return;
    await this.payments.ledger.applySubscriptionPayment(unit, subscription, {
      confirmation: {
        externalId: payment.id,
        status: 'succeeded',
        amount: Number(payment.amount),
        currency: payment.currency.toUpperCase(),
        raw: { payment: payment.id, subscription: remote.id, invoice: payment.invoice_id ?? null },
      },
      periodStart: new Date(remote.current_start * 1000),
      periodEnd: new Date(remote.current_end * 1000),
    });
  }

  private async fetchPayment(id: string): Promise<RzpPayment> {
    try {
      return (await this.razorpay.payments.fetch(id)) as unknown as RzpPayment;
    } catch (error) {
      const failure = error as { statusCode?: number };
      if (failure?.statusCode === 400 || failure?.statusCode === 404) throw invalidSignature();
      throw razorpayFailure(error);
    }
  }

  private async fetchSubscription(id: string): Promise<RzpSubscription> {
    try {
      return (await this.razorpay.subscriptions.fetch(id)) as unknown as RzpSubscription;
    } catch (error) {
      const failure = error as { statusCode?: number };
      if (failure?.statusCode === 400 || failure?.statusCode === 404) throw orderNotFound();
      throw razorpayFailure(error);
    }
  }

  /** The artist's Razorpay plan for the cycle and amount: created once, then reused. */
  private async planFor(
    artistId: string,
    cycle: SubscriptionCycle,
    amount: number,
    currency: string,
    title: string,
  ): Promise<string> {
    const key = { gateway: 'razorpay' as const, artistId, cycle, amount, currency };
    const known = await this.payments.repo.findPlan(key);
    if (known) return known;
    try {
      const plan = await this.razorpay.plans.create({
        period: 'monthly',
        interval: SUBSCRIPTION_CYCLE_MONTHS[cycle],
        item: { name: title, amount, currency },
        notes: { artist_id: artistId, cycle },
      });
      return this.payments.repo.savePlan({ ...key, externalId: plan.id });
    } catch (error) {
      throw razorpayFailure(error);
    }
  }
}

type Truth =
  | { kind: 'payment'; payment: RzpPayment }
  | { kind: 'subscription'; subscription: RzpSubscription; payment: RzpPayment | null }
  | { kind: 'refund'; refund: RzpRefund }
  | { kind: 'dispute'; dispute: RzpDispute }
  | { kind: 'none' };
