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
  toDecimalString,
  type PaymentResultResponse,
  type PaypalCaptureResponse,
  type PaypalCreateOrderBody,
  type PaypalCreateOrderResponse,
  type SubscriptionCycle,
} from '@backbeat/contract';
import { AppError, conflict } from '../../../platform/errors';
import { GatewayCheckout, type SubscriptionStarter } from '../gateway-checkout';
import type { Offer } from '../offers';
import { orderNotFound, type Buyer, type PaymentsService } from '../payments.service';
import { PaypalEvents, type PaypalEvent } from './paypal.events';
import { captureConfirmation, capturesIn, type Json } from './paypal.facts';
import { paypalFailure, paypalIssue, type PaypalGateway } from './paypal.gateway';
import { PaypalSubscriptions } from './paypal.subscriptions';

export type { PaypalEvent } from './paypal.events';

/**
 * PayPal's protocol: an Order per purchase that the buyer approves in PayPal's window and we capture (settled only
 * when the captured amount and currency are the order's); a catalog product and a billing plan per artist and cycle,
 * and a Subscription per subscriber; webhooks verified through PayPal's verify-webhook-signature call, trusted for
 * ids only: captures, refunds and subscriptions are fetched again before they change anything.
 */
export class PaypalService {
  readonly events: PaypalEvents;
  readonly sales: PaypalSubscriptions;
  private readonly checkout: GatewayCheckout;

  constructor(
    private readonly payments: PaymentsService,
    private readonly gateway: PaypalGateway,
    private readonly publicUrl: string,
  ) {
    this.sales = new PaypalSubscriptions(gateway, payments.repo, () => payments.now());
    this.events = new PaypalEvents(payments.ledger, gateway, this.sales);
    this.checkout = new GatewayCheckout(payments, 'paypal', paypalFailure);
  }

  /** A PayPal order at the server's price (the client's currency must be the item's; SPEC default USD). */
  async createOrder(buyer: Buyer, body: PaypalCreateOrderBody): Promise<PaypalCreateOrderResponse> {
    const offer = await this.payments.purchaseOffer(buyer, {
      itemType: body.itemType,
      itemId: body.itemId,
      amount: body.amount,
      currency: body.currency ?? 'USD',
    });
    const { order, remote, externalId } = await this.checkout.open(buyer, offer, async (order) => {
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
      return { remote: result, externalId: result.id };
    });
    return {
      id: externalId,
      status: remote.status,
      links: (remote.links ?? []).map((link) => ({ href: link.href, rel: link.rel, method: link.method })),
      transactionId: order.id,
    };
  }

  /**
   * Captures an approved PayPal order of the buyer, unless it can no longer be paid (the item is owned already, the
   * order was superseded): then nothing is captured and PayPal lets the approval lapse. The order is settled only
   * when the captured amount and currency equal ours (another amount is refunded); a declined instrument fails it
   * with PayPal's message (402).
   */
  async captureOrder(buyer: Buyer, paypalOrderId: string): Promise<PaypalCaptureResponse> {
    const order = await this.payments.repo.findOrderByExternal('paypal', paypalOrderId);
    if (!order || order.userId !== buyer.id) throw orderNotFound();
    if (order.status !== 'paid' && !(await this.payments.mayStillBePaid(order))) {
      throw conflict(
        'You already own this item, so PayPal was not charged.',
        PAYMENT_ERROR_CODES.alreadyOwned,
      );
    }
    let data: Json;
    try {
      const response = await this.gateway.orders.captureOrder({
        id: paypalOrderId,
        paypalRequestId: `capture-${order.id}`,
      });
      data = JSON.parse(String(response.body)) as Json;
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
      if (issue?.issue !== 'ORDER_ALREADY_CAPTURED') throw paypalFailure(error);
      data = await this.gateway.getOrder(paypalOrderId);
    }
    const capture = capturesIn(data)[0];
    const confirmation = capture ? captureConfirmation(capture) : null;
    if (!confirmation) {
      throw paypalFailure(new Error(`PayPal order ${paypalOrderId} has no completed capture`));
    }
    const settled = await this.payments.ledger.run(async (unit) => {
      const locked = (await unit.repo.lockOrder(order.id)) ?? order;
      return this.payments.ledger.settle(unit, locked, confirmation);
    });
    if (settled.mismatch) {
      throw new AppError(
        409,
        PAYMENT_ERROR_CODES.amountMismatch,
        'PayPal captured a different amount than this order; nothing was granted and the money is being refunded',
      );
    }
    return { data, ...this.payments.result(settled.order) };
  }

  /** A PayPal subscription on the artist's billing plan; the buttons' createSubscription returns its id. */
  readonly subscribe: SubscriptionStarter = (buyer, artistId, cycle, body) =>
    this.checkout.subscribe(buyer, artistId, cycle, body, {
      plan: (offer) => this.planFor(offer, cycle),
      create: async (order, plan) => {
        const { result: remote } = await this.gateway.subscriptions.createSubscription({
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
        });
        if (!remote.id) throw new Error('no subscription id');
        return { remote, externalId: remote.id };
      },
      answer: (remote: Subscription, subscriptionId) => ({
        subscriptionId,
        approveUrl: remote.links?.find((link) => link.rel === 'approve')?.href,
      }),
    });

  /** After the buyer approved the subscription in PayPal: its first payment (a sale), read from PayPal, starts it. */
  async confirmSubscription(buyer: Buyer, subscriptionId: string): Promise<PaymentResultResponse> {
    const known = await this.payments.repo.subscriptions.findSubscriptionByExternal('paypal', subscriptionId);
    if (!known || known.userId !== buyer.id) throw orderNotFound();
    const truth = await this.sales.saleTruth(subscriptionId, null);
    return this.checkout.confirmSubscription(
      buyer,
      subscriptionId,
      truth.kind === 'sale' ? truth.payment : null,
    );
  }

  // ---------------------------------------------------------------------------------------------------------
  // Webhooks

  /** A verified event, applied once (see PaypalEvents). */
  async handleEvent(event: PaypalEvent): Promise<void> {
    await this.events.handle(event);
  }

  /**
   * The artist's PayPal billing plan for the cycle and amount, created once and reused; its catalog product (one
   * per artist, kept in the same table under the cycle 'product') through PayPal's catalog REST call.
   */
  private planFor(offer: Offer, cycle: SubscriptionCycle): Promise<string> {
    return this.checkout.offerPlan(offer, cycle, async ({ artistId, amount, currency, title }) => {
      const product = await this.checkout.plan(
        { artistId, cycle: 'product', amount: 0, currency: '' },
        async () => {
          const created = await this.gateway.rest<{ id: string }>('POST', '/v1/catalogs/products', {
            name: title.split(' · ')[0] || 'Artist subscription',
            description: 'Backbeat artist subscription',
            type: 'DIGITAL',
            category: 'DIGITAL_MEDIA_BOOKS_MOVIES_MUSIC',
          });
          return created.id;
        },
      );
      const { result } = await this.checkout.call(() =>
        this.gateway.subscriptions.createBillingPlan({
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
        }),
      );
      if (!result.id) throw paypalFailure(new Error('no plan id'));
      return result.id;
    });
  }
}
