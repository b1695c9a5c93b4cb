import {
  ApplicationContextUserAction,
  CheckoutPaymentIntent,
  IntervalUnit,
  TenureType,
  type Subscription,
} from '@paypal/paypal-server-sdk';
import {
  PAYMENT_ERROR_CODES,
  SUBSCRIPTION_CYCLE_MONTHS,
  type PaymentResultResponse,
  type PaypalCaptureResponse,
  type PaypalCreateOrderBody,
  type PaypalCreateOrderResponse,
  type SubscribeArtistBody,
  type SubscribeArtistResponse,
  type SubscriptionCycle,
} from '@backbeat/contract';
import { AppError } from '../../../platform/errors';
import { fromDecimalString, toDecimalString } from '../money';
import { presentOrder } from '../order.presenter';
import type { EventOutcome, LedgerUnit } from '../payment-ledger';
import type { OrderRow, SubscriptionRow } from '../payments.repository';
import { orderNotFound, type Buyer, type PaymentsService } from '../payments.service';
import { paypalFailure, paypalIssue, type PaypalGateway } from './paypal.gateway';

/** A verified PayPal webhook event (`resource` is the object it is about). */
export interface PaypalEvent {
  id: string;
  event_type: string;
  resource_type?: string;
  resource: Record<string, unknown>;
}

interface Capture {
  id: string;
  status: string;
  amount: number;
  currency: string;
  paypalOrderId: string | null;
}

const ignored = (note: string): EventOutcome => ({ status: 'ignored', note });
const unknownOrder = (note: string): EventOutcome => ({ status: 'unknown_order', note });
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The id PayPal gives each subscription payment in both paths (our confirm call and its webhook). */
const subscriptionPaymentId = (subscriptionId: string, paidAt: string) => `${subscriptionId}@${paidAt}`;

/**
 * PayPal's protocol: an Order per purchase that the buyer approves in PayPal's window and we capture (settled only
 * when the captured amount and currency are the order's); a catalog product and a billing plan per artist and cycle,
 * and a Subscription per subscriber; webhooks verified through PayPal's verify-webhook-signature call, trusted for
 * ids only: captures, refunds and subscriptions are fetched again before they change anything.
 */
export class PaypalService {
  constructor(
    private readonly payments: PaymentsService,
    private readonly gateway: PaypalGateway,
    private readonly publicUrl: string,
  ) {}

  /** A PayPal order at the server's price (the client's currency must be the item's; SPEC default USD). */
  async createOrder(buyer: Buyer, body: PaypalCreateOrderBody): Promise<PaypalCreateOrderResponse> {
    const offer = await this.payments.purchaseOffer(buyer, {
      itemType: body.itemType,
      itemId: body.itemId,
      amount: body.amount,
      currency: body.currency ?? 'USD',
    });
    const order = await this.payments.openOrder(buyer, 'paypal', offer);
    try {
      const { result } = await this.gateway.orders.createOrder({
        paypalRequestId: `order-${order.id}`,
        body: {
          intent: CheckoutPaymentIntent.Capture,
          purchaseUnits: [
            {
              referenceId: order.id,
              customId: order.id,
              description: order.itemTitle.slice(0, 127),
              amount: { currencyCode: order.currency, value: toDecimalString(order.amount, order.currency) },
            },
          ],
        },
      });
      if (!result.id) throw new Error('no order id');
      await this.payments.attachExternal(order, result.id);
      return {
        id: result.id,
        status: result.status,
        links: (result.links ?? []).map((link) => ({ href: link.href, rel: link.rel, method: link.method })),
        transactionId: order.id,
      };
    } catch (error) {
      await this.payments.abandonOrder(order);
      throw paypalFailure(error);
    }
  }

  /**
   * Captures an approved PayPal order of the buyer. The order is settled only when the captured amount and
   * currency equal ours; a declined instrument fails it with PayPal's message (402).
   */
  async captureOrder(buyer: Buyer, paypalOrderId: string): Promise<PaypalCaptureResponse> {
    const order = await this.payments.repo.findOrderByExternal('paypal', paypalOrderId);
    if (!order || order.userId !== buyer.id) throw orderNotFound();
    let data: Record<string, unknown>;
    try {
      const response = await this.gateway.orders.captureOrder({
        id: paypalOrderId,
        paypalRequestId: `capture-${order.id}`,
      });
      data = JSON.parse(String(response.body)) as Record<string, unknown>;
    } catch (error) {
      const issue = paypalIssue(error);
      if (issue?.issue === 'INSTRUMENT_DECLINED' || issue?.issue === 'PAYER_ACTION_REQUIRED') {
        await this.payments.ledger.run(async (unit) => {
          const locked = await unit.repo.lockOrder(order.id);
          if (locked) await this.payments.ledger.failOrder(unit, locked);
        });
        throw new AppError(402, PAYMENT_ERROR_CODES.paymentDeclined, issue.description);
      }
      if (issue?.issue === 'ORDER_NOT_APPROVED') {
        throw new AppError(409, 'ORDER_NOT_APPROVED', 'The buyer has not approved this PayPal order yet');
      }
      if (issue?.issue === 'ORDER_ALREADY_CAPTURED') {
        data = await this.fetchOrderJson(paypalOrderId);
      } else {
        throw paypalFailure(error);
      }
    }
    const capture = captureIn(data, paypalOrderId);
    if (!capture) throw new AppError(502, 'GATEWAY_ERROR', 'PayPal returned no capture for this order');
    const settled = await this.payments.ledger.run(async (unit) => {
      const locked = (await unit.repo.lockOrder(order.id)) ?? order;
      return this.settleCapture(unit, locked, capture);
    });
    if (settled.mismatch) {
      throw new AppError(
        409,
        PAYMENT_ERROR_CODES.amountMismatch,
        'PayPal captured a different amount or currency than this order; nothing was granted',
      );
    }
    return { data, ...this.payments.result(settled.order) };
  }

  /** A PayPal subscription on the artist's billing plan; the buttons' createSubscription returns its id. */
  async subscribe(
    buyer: Buyer,
    artistId: string,
    cycle: SubscriptionCycle,
    body: SubscribeArtistBody,
  ): Promise<SubscribeArtistResponse> {
    const offer = await this.payments.subscriptionOffer(buyer, artistId, cycle, body);
    const plan = await this.planFor(offer.artistId, cycle, offer.amount, offer.currency, offer.title);
    const order = await this.payments.openOrder(buyer, 'paypal', offer);
    let remote: Subscription;
    try {
      ({ result: remote } = await this.gateway.subscriptions.createSubscription({
        paypalRequestId: `subscription-${order.id}`,
        body: {
          planId: plan,
          customId: order.id,
          applicationContext: {
            brandName: 'Backbeat',
            userAction: ApplicationContextUserAction.SubscribeNow,
            returnUrl: `${this.publicUrl}/payment-success?orderId=${order.id}`,
            cancelUrl: `${this.publicUrl}/payment-fail?orderId=${order.id}`,
          },
        },
      }));
    } catch (error) {
      await this.payments.abandonOrder(order);
      throw paypalFailure(error);
    }
    if (!remote.id) throw paypalFailure(new Error('no subscription id'));
    const saved = await this.payments.attachExternal(order, remote.id);
    await this.payments.recordPendingSubscription(saved, { gateway: 'paypal', externalId: remote.id, cycle });
    return {
      transactionId: order.id,
      gateway: 'paypal',
      cycle,
      order: presentOrder(saved),
      subscriptionId: remote.id,
      approveUrl: remote.links?.find((link) => link.rel === 'approve')?.href,
    };
  }

  /** After the buyer approved the subscription in PayPal: its first payment, read from PayPal, starts it. */
  async confirmSubscription(buyer: Buyer, subscriptionId: string): Promise<PaymentResultResponse> {
    const known = await this.payments.repo.findSubscriptionByExternal('paypal', subscriptionId);
    if (!known || known.userId !== buyer.id) throw orderNotFound();
    const remote = await this.fetchSubscription(subscriptionId);
    const order = await this.payments.ledger.run(async (unit) => {
      const subscription = await unit.repo.lockSubscriptionByExternal('paypal', subscriptionId);
      if (!subscription) throw orderNotFound();
      await this.applySubscriptionPayment(unit, subscription, remote, null);
      const initial = await unit.repo.lockInitialOrderOf(subscription.id);
      if (!initial) throw orderNotFound();
      return initial;
    });
    return this.payments.result(order);
  }

  // ---------------------------------------------------------------------------------------------------------
  // Webhooks

  /** A verified event, applied once; the objects it names are fetched again from PayPal first. */
  async handleEvent(event: PaypalEvent): Promise<void> {
    if (await this.payments.ledger.recorded('paypal', event.id)) return;
    const truth = await this.fetchTruth(event);
    await this.payments.ledger.handleEvent(
      'paypal',
      { id: event.id, type: event.event_type, payload: event },
      (unit) => this.apply(unit, event.event_type, truth),
    );
  }

  private async fetchTruth(event: PaypalEvent): Promise<Truth> {
    const resource = event.resource;
    const type = event.event_type;
    const id = str(resource.id) ?? '';
    if (type === 'PAYMENT.CAPTURE.COMPLETED' || type === 'PAYMENT.CAPTURE.DENIED') {
      try {
        const { body } = await this.gateway.captures.getCapturedPayment({ captureId: id });
        return { kind: 'capture', capture: readCapture(JSON.parse(String(body)) as Record<string, unknown>) };
      } catch (error) {
        throw paypalFailure(error);
      }
    }
    if (type === 'PAYMENT.CAPTURE.REFUNDED') {
      try {
        const { body } = await this.gateway.captures.getRefund({ refundId: id });
        const refund = JSON.parse(String(body)) as Record<string, unknown>;
        const links = (refund.links as Array<{ rel?: string; href?: string }> | undefined) ?? [];
        const captureId = links
          .find((link) => link.rel === 'up')
          ?.href?.split('/')
          .pop();
        const amount = refund.amount as { value?: string; currency_code?: string } | undefined;
        const currency = amount?.currency_code ?? 'USD';
        return {
          kind: 'refund',
          refundId: str(refund.id) ?? id,
          status: str(refund.status) ?? '',
          paidId: captureId ?? null,
          amount: fromDecimalString(amount?.value, currency),
          currency,
        };
      } catch (error) {
        throw paypalFailure(error);
      }
    }
    if (type === 'PAYMENT.SALE.REFUNDED') {
      // v1 sale refunds: the SDK has no call to fetch them; the verified event is what PayPal sent.
      const amount = resource.amount as { total?: string; currency?: string } | undefined;
      const currency = amount?.currency ?? 'USD';
      return {
        kind: 'refund',
        refundId: id,
        status: (str(resource.state) ?? '').toUpperCase(),
        paidId: str(resource.sale_id) ?? null,
        amount: fromDecimalString(amount?.total, currency),
        currency,
      };
    }
    if (type === 'PAYMENT.SALE.COMPLETED') {
      const subscriptionId = str(resource.billing_agreement_id);
      if (!subscriptionId) return { kind: 'none' };
      return { kind: 'subscription', subscription: await this.fetchSubscription(subscriptionId), saleId: id };
    }
    if (type.startsWith('BILLING.SUBSCRIPTION.')) {
      return { kind: 'subscription', subscription: await this.fetchSubscription(id), saleId: null };
    }
    if (type === 'CUSTOMER.DISPUTE.CREATED') {
      // No SDK call reads disputes; the event itself was verified by PayPal's verify-webhook-signature.
      const transactions =
        (resource.disputed_transactions as Array<{ seller_transaction_id?: string }>) ?? [];
      const amount = resource.dispute_amount as { value?: string; currency_code?: string } | undefined;
      const currency = amount?.currency_code ?? 'USD';
      return {
        kind: 'dispute',
        disputeId: str(resource.dispute_id) ?? id,
        paidId: transactions[0]?.seller_transaction_id ?? null,
        amount: fromDecimalString(amount?.value, currency),
        currency,
        reason: str(resource.reason) ?? null,
      };
    }
    return { kind: 'none' };
  }

  private async apply(unit: LedgerUnit, type: string, truth: Truth): Promise<EventOutcome> {
    const ledger = this.payments.ledger;
    switch (truth.kind) {
      case 'capture': {
        const capture = truth.capture;
        if (!capture.paypalOrderId) return ignored('a capture without an order');
        const order = await unit.repo.lockOrderByExternal('paypal', capture.paypalOrderId);
        if (!order) return unknownOrder(`no order for ${capture.paypalOrderId}`);
        if (type === 'PAYMENT.CAPTURE.DENIED' || capture.status === 'DECLINED') {
          await ledger.failOrder(unit, order);
          return { status: 'processed', orderId: order.id };
        }
        const settled = await this.settleCapture(unit, order, capture);
        return {
          status: settled.mismatch ? 'ignored' : 'processed',
          orderId: order.id,
          note: settled.mismatch ? 'amount or currency differs from the order' : null,
        };
      }
      case 'refund': {
        if (truth.status !== 'COMPLETED') return ignored(`refund is ${truth.status}`);
        const paid = truth.paidId ? await unit.repo.findPaymentByGatewayId('paypal', truth.paidId) : null;
        if (!paid) return unknownOrder(`no payment ${truth.paidId ?? ''}`);
        await ledger.recordRefund(unit, paid.order, {
          gateway: 'paypal',
          externalId: truth.refundId,
          kind: 'refund',
          amount: truth.amount,
          currency: truth.currency,
          raw: { refund: truth.refundId, paid: truth.paidId },
        });
        return { status: 'processed', orderId: paid.order.id };
      }
      case 'dispute': {
        const paid = truth.paidId ? await unit.repo.findPaymentByGatewayId('paypal', truth.paidId) : null;
        if (!paid) return unknownOrder(`no payment ${truth.paidId ?? ''}`);
        await ledger.recordRefund(unit, paid.order, {
          gateway: 'paypal',
          externalId: truth.disputeId,
          kind: 'dispute',
          amount: Number.isFinite(truth.amount) ? truth.amount : paid.payment.amount,
          currency: truth.currency,
          reason: truth.reason,
          raw: { dispute: truth.disputeId },
        });
        return { status: 'processed', orderId: paid.order.id };
      }
      case 'subscription': {
        const remote = truth.subscription;
        const subscription = remote.id
          ? await unit.repo.lockSubscriptionByExternal('paypal', remote.id)
          : null;
        if (!subscription) return unknownOrder(`no subscription ${remote.id ?? ''}`);
        switch (type) {
          case 'PAYMENT.SALE.COMPLETED':
          case 'BILLING.SUBSCRIPTION.ACTIVATED':
          case 'BILLING.SUBSCRIPTION.RE-ACTIVATED': {
            const applied = await this.applySubscriptionPayment(unit, subscription, remote, truth.saleId);
            return applied ? { status: 'processed' } : ignored('no payment yet');
          }
          case 'BILLING.SUBSCRIPTION.PAYMENT.FAILED':
          case 'BILLING.SUBSCRIPTION.SUSPENDED':
            await ledger.markPastDue(unit, subscription);
            return { status: 'processed', note: 'payment failed: past due' };
          case 'BILLING.SUBSCRIPTION.CANCELLED':
          case 'BILLING.SUBSCRIPTION.EXPIRED':
            await ledger.endSubscription(unit, subscription);
            return { status: 'processed', note: `ended (${remote.status ?? type})` };
          default:
            return ignored(`not used: ${type}`);
        }
      }
      case 'none':
        return ignored(`not used: ${type}`);
    }
  }

  private async settleCapture(unit: LedgerUnit, order: OrderRow, capture: Capture) {
    if (capture.status !== 'COMPLETED') {
      return { order, changed: false, mismatch: false };
    }
    return this.payments.ledger.settle(unit, order, {
      externalId: capture.id,
      reference: capture.paypalOrderId,
      status: 'succeeded',
      amount: capture.amount,
      currency: capture.currency,
      raw: { capture: capture.id, order: capture.paypalOrderId },
    });
  }

  /** The subscription's latest payment, for the period [last payment, next billing time] PayPal reports. */
  private async applySubscriptionPayment(
    unit: LedgerUnit,
    subscription: SubscriptionRow,
    remote: Subscription,
    saleId: string | null,
  ): Promise<boolean> {
    const last = remote.billingInfo?.lastPayment;
    const next = remote.billingInfo?.nextBillingTime;
    if (!remote.id || remote.status !== 'ACTIVE' || !last?.time || !last.amount || !next) return false;
    const currency = last.amount.currencyCode;
    await this.payments.ledger.applySubscriptionPayment(unit, subscription, {
      confirmation: {
        externalId: subscriptionPaymentId(remote.id, last.time),
        reference: saleId,
        status: 'succeeded',
        amount: fromDecimalString(last.amount.value, currency),
        currency,
        raw: { subscription: remote.id, sale: saleId, paid_at: last.time },
      },
      periodStart: new Date(last.time),
      periodEnd: new Date(next),
    });
    return true;
  }

  private async fetchSubscription(id: string): Promise<Subscription> {
    try {
      const { result } = await this.gateway.subscriptions.getSubscription({ id });
      return result;
    } catch (error) {
      if (paypalIssue(error)?.status === 404) throw orderNotFound();
      throw paypalFailure(error);
    }
  }

  private async fetchOrderJson(id: string): Promise<Record<string, unknown>> {
    try {
      const { body } = await this.gateway.orders.getOrder({ id });
      return JSON.parse(String(body)) as Record<string, unknown>;
    } catch (error) {
      throw paypalFailure(error);
    }
  }

  /**
   * The artist's PayPal billing plan for the cycle and amount, created once and reused; its catalog product (one
   * per artist, kept in the same table under the cycle 'product') through PayPal's catalog REST call.
   */
  private async planFor(
    artistId: string,
    cycle: SubscriptionCycle,
    amount: number,
    currency: string,
    title: string,
  ): Promise<string> {
    const key = { gateway: 'paypal' as const, artistId, cycle, amount, currency };
    const known = await this.payments.repo.findPlan(key);
    if (known) return known;
    const productKey = { gateway: 'paypal' as const, artistId, cycle: 'product', amount: 0, currency: '' };
    let product = await this.payments.repo.findPlan(productKey);
    if (!product) {
      const created = await this.gateway.rest<{ id: string }>('POST', '/v1/catalogs/products', {
        name: title.split(' · ')[0] || 'Artist subscription',
        description: 'Backbeat artist subscription',
        type: 'DIGITAL',
        category: 'DIGITAL_MEDIA_BOOKS_MOVIES_MUSIC',
      });
      product = await this.payments.repo.savePlan({ ...productKey, externalId: created.id });
    }
    try {
      const { result } = await this.gateway.subscriptions.createBillingPlan({
        paypalRequestId: `plan-${artistId}-${cycle}-${amount}-${currency}`,
        body: {
          productId: product,
          name: title.slice(0, 127),
          billingCycles: [
            {
              frequency: {
                intervalUnit: IntervalUnit.Month,
                intervalCount: SUBSCRIPTION_CYCLE_MONTHS[cycle],
              },
              tenureType: TenureType.Regular,
              sequence: 1,
              totalCycles: 0,
              pricingScheme: {
                fixedPrice: { currencyCode: currency, value: toDecimalString(amount, currency) },
              },
            },
          ],
          paymentPreferences: { autoBillOutstanding: true, paymentFailureThreshold: 3 },
        },
      });
      if (!result.id) throw new Error('no plan id');
      return this.payments.repo.savePlan({ ...key, externalId: result.id });
    } catch (error) {
      throw paypalFailure(error);
    }
  }
}

/** The first capture of a PayPal order (its JSON as the REST API returns it). */
function captureIn(data: Record<string, unknown>, paypalOrderId: string): Capture | null {
  const units =
    (data.purchase_units as Array<{ payments?: { captures?: Array<Record<string, unknown>> } }>) ?? [];
  const capture = units[0]?.payments?.captures?.[0];
  return capture ? readCapture(capture, paypalOrderId) : null;
}

function readCapture(capture: Record<string, unknown>, paypalOrderId?: string): Capture {
  const amount = capture.amount as { value?: string; currency_code?: string } | undefined;
  const currency = amount?.currency_code ?? '';
  const related = (capture.supplementary_data as { related_ids?: { order_id?: string } } | undefined)
    ?.related_ids;
  return {
    id: str(capture.id) ?? '',
    status: str(capture.status) ?? '',
    amount: fromDecimalString(amount?.value, currency || 'USD'),
    currency,
    paypalOrderId: paypalOrderId ?? related?.order_id ?? null,
  };
}

type Truth =
  | { kind: 'capture'; capture: Capture }
  | {
      kind: 'refund';
      refundId: string;
      status: string;
      paidId: string | null;
      amount: number;
      currency: string;
    }
  | {
      kind: 'dispute';
      disputeId: string;
      paidId: string | null;
      amount: number;
      currency: string;
      reason: string | null;
    }
  | { kind: 'subscription'; subscription: Subscription; saleId: string | null }
  | { kind: 'none' };
