import type Stripe from 'stripe';
import {
  SUBSCRIPTION_CYCLE_MONTHS,
  type CreatePurchaseBody,
  type SetupIntentResponse,
  type StripeCreatePaymentResponse,
  type SubscribeArtistBody,
  type SubscribeArtistResponse,
  type SubscriptionCycle,
} from '@backbeat/contract';
import { AppError } from '../../../platform/errors';
import { presentOrder } from '../order.presenter';
import type { EventOutcome, LedgerUnit } from '../payment-ledger';
import type { Buyer, PaymentsService } from '../payments.service';
import { stripeFailure, type StripeGateway } from './stripe.gateway';

const ignored = (note: string): EventOutcome => ({ status: 'ignored', note });
const unknownOrder = (note: string): EventOutcome => ({ status: 'unknown_order', note });
const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value ? (typeof value === 'string' ? value : value.id) : null;

/**
 * Stripe's protocol: PaymentIntents for purchases (the Payment Element confirms them in the browser), a Customer per
 * user and a recurring Price per artist and cycle for subscriptions, and webhooks that are verified on the raw body,
 * then trusted only for ids: every object is fetched again from Stripe before it changes anything.
 */
export class StripeService {
  constructor(
    private readonly payments: PaymentsService,
    private readonly gateway: StripeGateway,
  ) {}

  private get stripe(): Stripe {
    return this.gateway.client;
  }

  /** A PaymentIntent for a song or album at the server's price; its client secret goes to the Payment Element. */
  async createPayment(buyer: Buyer, body: CreatePurchaseBody): Promise<StripeCreatePaymentResponse> {
    const offer = await this.payments.purchaseOffer(buyer, body);
    const order = await this.payments.openOrder(buyer, 'stripe', offer);
    let intent: Stripe.PaymentIntent;
    try {
      intent = await this.stripe.paymentIntents.create(
        {
          amount: order.amount,
          currency: order.currency.toLowerCase(),
          description: order.itemTitle,
          automatic_payment_methods: { enabled: true },
          metadata: { order_id: order.id, user_id: buyer.id },
        },
        { idempotencyKey: `order-${order.id}` },
      );
    } catch (error) {
      await this.payments.abandonOrder(order);
      throw stripeFailure(error);
    }
    await this.payments.attachExternal(order, intent.id);
    if (!intent.client_secret) throw stripeFailure(new Error('no client secret'));
    return { clientSecret: intent.client_secret, transactionId: order.id, paymentIntentId: intent.id };
  }

  /** A SetupIntent on the user's Stripe customer, to save the card a subscription will charge. */
  async setupIntent(buyer: Buyer): Promise<SetupIntentResponse> {
    const customer = await this.customerOf(buyer.id);
    try {
      const intent = await this.stripe.setupIntents.create({
        customer,
        usage: 'off_session',
        automatic_payment_methods: { enabled: true },
        metadata: { user_id: buyer.id },
      });
      if (!intent.client_secret) throw new Error('no client secret');
      return { clientSecret: intent.client_secret };
    } catch (error) {
      throw stripeFailure(error);
    }
  }

  /**
   * A Stripe Subscription on the artist's recurring price for the cycle, charging the saved card. Its first
   * invoice's PaymentIntent secret goes back to the browser for 3-D Secure; `invoice.paid` then activates it.
   */
  async subscribe(
    buyer: Buyer,
    artistId: string,
    cycle: SubscriptionCycle,
    body: SubscribeArtistBody,
  ): Promise<SubscribeArtistResponse> {
    if (!body.paymentMethodId) {
      throw new AppError(400, 'VALIDATION_ERROR', 'paymentMethodId: is required for Stripe subscriptions');
    }
    const offer = await this.payments.subscriptionOffer(buyer, artistId, cycle, body);
    const customer = await this.customerOf(buyer.id);
    try {
      await this.attachCard(customer, body.paymentMethodId, body);
    } catch (error) {
      throw stripeFailure(error);
    }
    const price = await this.priceFor(offer.artistId, cycle, offer.amount, offer.currency, offer.title);
    const order = await this.payments.openOrder(buyer, 'stripe', offer);
    let subscription: Stripe.Subscription;
    try {
      subscription = await this.stripe.subscriptions.create(
        {
          customer,
          items: [{ price }],
          default_payment_method: body.paymentMethodId,
          payment_behavior: 'default_incomplete',
          payment_settings: { save_default_payment_method: 'on_subscription' },
          metadata: { order_id: order.id, user_id: buyer.id, artist_id: offer.artistId },
          expand: ['latest_invoice.confirmation_secret'],
        },
        { idempotencyKey: `subscription-${order.id}` },
      );
    } catch (error) {
      await this.payments.abandonOrder(order);
      throw stripeFailure(error);
    }
    const saved = await this.payments.attachExternal(order, subscription.id);
    await this.payments.recordPendingSubscription(saved, {
      gateway: 'stripe',
      externalId: subscription.id,
      cycle,
    });
    const invoice = typeof subscription.latest_invoice === 'object' ? subscription.latest_invoice : null;
    return {
      transactionId: order.id,
      gateway: 'stripe',
      cycle,
      order: presentOrder(saved),
      clientSecret: invoice?.confirmation_secret?.client_secret ?? null,
      subscriptionId: subscription.id,
    };
  }

  // ---------------------------------------------------------------------------------------------------------
  // Webhooks

  /** A verified event, applied once. Objects are fetched again from Stripe: the event is trusted for ids only. */
  async handleEvent(event: Stripe.Event): Promise<void> {
    if (await this.payments.ledger.recorded('stripe', event.id)) return;
    const object = event.data.object as { id?: string; object?: string };
    // Read the truth before opening the transaction (no network call holds a database connection).
    const truth = await this.fetchTruth(event.type, object);
    await this.payments.ledger.handleEvent(
      'stripe',
      { id: event.id, type: event.type, payload: event },
      (unit) => this.apply(unit, event.type, truth),
    );
  }

  private async fetchTruth(type: string, object: { id?: string }): Promise<Truth> {
    const id = object.id ?? '';
    try {
      if (type.startsWith('payment_intent.')) {
        return { kind: 'intent', intent: await this.stripe.paymentIntents.retrieve(id) };
      }
      if (
        type === 'invoice.paid' ||
        type === 'invoice.payment_failed' ||
        type === 'invoice.payment_succeeded'
      ) {
        return {
          kind: 'invoice',
          invoice: await this.stripe.invoices.retrieve(id, { expand: ['payments'] }),
        };
      }
      if (type.startsWith('customer.subscription.')) {
        return { kind: 'subscription', subscription: await this.stripe.subscriptions.retrieve(id) };
      }
      if (type === 'charge.refunded' || type === 'refund.created' || type === 'refund.updated') {
        const chargeId = type === 'charge.refunded' ? id : idOf((object as { charge?: string }).charge);
        if (!chargeId) return { kind: 'none' };
        const charge = await this.stripe.charges.retrieve(chargeId);
        const refunds = await this.stripe.refunds.list({ charge: chargeId, limit: 100 });
        return { kind: 'refunds', charge, refunds: refunds.data };
      }
      if (type === 'charge.dispute.created') {
        return { kind: 'dispute', dispute: await this.stripe.disputes.retrieve(id) };
      }
    } catch (error) {
      throw stripeFailure(error);
    }
    return { kind: 'none' };
  }

  private async apply(unit: LedgerUnit, type: string, truth: Truth): Promise<EventOutcome> {
    const ledger = this.payments.ledger;
    switch (truth.kind) {
      case 'intent': {
        const intent = truth.intent;
        const orderId = intent.metadata?.order_id;
        if (!orderId) return ignored('a PaymentIntent of an invoice (handled by invoice events)');
        const order = await unit.repo.lockOrder(orderId);
        if (!order || order.gateway !== 'stripe' || order.externalId !== intent.id) {
          return unknownOrder(`no order ${orderId} for ${intent.id}`);
        }
        if (intent.status === 'succeeded') {
          const settled = await ledger.settle(unit, order, {
            externalId: intent.id,
            reference: idOf(intent.latest_charge),
            status: 'succeeded',
            amount: intent.amount_received,
            currency: intent.currency.toUpperCase(),
            raw: { payment_intent: intent.id, charge: idOf(intent.latest_charge) },
          });
          return settled.mismatch
            ? { status: 'ignored', orderId: order.id, note: 'amount or currency differs from the order' }
            : { status: 'processed', orderId: order.id };
        }
        if (type === 'payment_intent.payment_failed' || intent.status === 'canceled') {
          await ledger.failOrder(unit, order);
          return { status: 'processed', orderId: order.id, note: intent.last_payment_error?.message ?? null };
        }
        return ignored(`intent is ${intent.status}`);
      }
      case 'invoice': {
        const invoice = truth.invoice;
        const subscriptionId = idOf(invoice.parent?.subscription_details?.subscription);
        if (!subscriptionId) return ignored('an invoice without a subscription');
        const subscription = await unit.repo.lockSubscriptionByExternal('stripe', subscriptionId);
        if (!subscription) return unknownOrder(`no subscription ${subscriptionId}`);
        if (invoice.status === 'paid') {
          const line = invoice.lines.data[0];
          const start = line?.period?.start ?? invoice.period_start;
          const end = line?.period?.end ?? invoice.period_end;
          const paymentIntent = invoice.payments?.data
            .map((p) => idOf(p.payment?.payment_intent))
            .find((value): value is string => Boolean(value));
          const settled = await ledger.applySubscriptionPayment(unit, subscription, {
            confirmation: {
              externalId: invoice.id!,
              reference: paymentIntent ?? null,
              status: 'succeeded',
              amount: invoice.amount_paid,
              currency: invoice.currency.toUpperCase(),
              raw: {
                invoice: invoice.id,
                billing_reason: invoice.billing_reason,
                payment_intent: paymentIntent,
              },
            },
            periodStart: new Date(start * 1000),
            periodEnd: new Date(end * 1000),
          });
          return {
            status: settled?.mismatch ? 'ignored' : 'processed',
            orderId: settled?.order.id ?? null,
            note: settled?.mismatch ? 'amount or currency differs from the order' : null,
          };
        }
        if (type === 'invoice.payment_failed') {
          if (invoice.billing_reason === 'subscription_create') {
            const initial = await unit.repo.lockInitialOrderOf(subscription.id);
            if (initial) await ledger.failOrder(unit, initial);
            return { status: 'processed', orderId: initial?.id ?? null, note: 'first payment failed' };
          }
          await ledger.markPastDue(unit, subscription);
          return { status: 'processed', note: 'renewal failed: past due' };
        }
        return ignored(`invoice is ${invoice.status}`);
      }
      case 'subscription': {
        const remote = truth.subscription;
        const subscription = await unit.repo.lockSubscriptionByExternal('stripe', remote.id);
        if (!subscription) return unknownOrder(`no subscription ${remote.id}`);
        if (
          remote.status === 'canceled' ||
          remote.status === 'incomplete_expired' ||
          type.endsWith('.deleted')
        ) {
          await ledger.endSubscription(unit, subscription);
          return { status: 'processed', note: `ended (${remote.status})` };
        }
        if (remote.status === 'past_due' || remote.status === 'unpaid')
          await ledger.markPastDue(unit, subscription);
        await ledger.setCancelAtPeriodEnd(unit, subscription, remote.cancel_at_period_end);
        return { status: 'processed' };
      }
      case 'refunds': {
        const intent = idOf(truth.charge.payment_intent);
        const paid = intent ? await unit.repo.findPaymentByGatewayId('stripe', intent) : null;
        if (!paid) return unknownOrder(`no payment for charge ${truth.charge.id}`);
        let recorded = 0;
        for (const refund of truth.refunds) {
          if (refund.status !== 'succeeded') continue;
          const row = await ledger.recordRefund(unit, paid.order, {
            gateway: 'stripe',
            externalId: refund.id,
            kind: 'refund',
            amount: refund.amount,
            currency: refund.currency.toUpperCase(),
            reason: refund.reason ?? null,
            raw: { refund: refund.id, charge: truth.charge.id },
          });
          if (row) recorded += 1;
        }
        return { status: recorded > 0 ? 'processed' : 'ignored', orderId: paid.order.id };
      }
      case 'dispute': {
        const dispute = truth.dispute;
        const intent = idOf(dispute.payment_intent);
        const paid = intent ? await unit.repo.findPaymentByGatewayId('stripe', intent) : null;
        if (!paid) return unknownOrder(`no payment for dispute ${dispute.id}`);
        await ledger.recordRefund(unit, paid.order, {
          gateway: 'stripe',
          externalId: dispute.id,
          kind: 'dispute',
          amount: dispute.amount,
          currency: dispute.currency.toUpperCase(),
          reason: dispute.reason,
          raw: { dispute: dispute.id },
        });
        return { status: 'processed', orderId: paid.order.id };
      }
      case 'none':
        return ignored(`not used: ${type}`);
    }
  }

  // ---------------------------------------------------------------------------------------------------------

  /** The user's Stripe customer, created once and kept. */
  private async customerOf(userId: string): Promise<string> {
    const known = await this.payments.repo.findCustomer(userId, 'stripe');
    if (known) return known;
    const buyer = await this.payments.repo.findBuyer(userId);
    if (!buyer) throw new AppError(401, 'UNAUTHORIZED', 'User not found');
    try {
      const customer = await this.stripe.customers.create(
        { email: buyer.email, name: buyer.name, metadata: { user_id: userId } },
        { idempotencyKey: `customer-${userId}` },
      );
      return this.payments.repo.saveCustomer(userId, 'stripe', customer.id);
    } catch (error) {
      throw stripeFailure(error);
    }
  }

  private async attachCard(customer: string, paymentMethodId: string, body: SubscribeArtistBody) {
    const method = await this.stripe.paymentMethods.retrieve(paymentMethodId);
    const owner = idOf(method.customer);
    if (owner && owner !== customer) {
      throw new AppError(400, 'VALIDATION_ERROR', 'paymentMethodId: this card belongs to another customer');
    }
    if (!owner) await this.stripe.paymentMethods.attach(paymentMethodId, { customer });
    await this.stripe.customers.update(customer, {
      invoice_settings: { default_payment_method: paymentMethodId },
      ...(body.name && { name: body.name }),
      ...(body.address && {
        address: {
          line1: body.address.line1,
          line2: body.address.line2,
          city: body.address.city,
          state: body.address.state,
          postal_code: body.address.postalCode,
          country: body.address.country?.toUpperCase(),
        },
      }),
    });
  }

  /** The artist's recurring price for the cycle and amount: created once at Stripe, then reused. */
  private async priceFor(
    artistId: string,
    cycle: SubscriptionCycle,
    amount: number,
    currency: string,
    title: string,
  ): Promise<string> {
    const key = { gateway: 'stripe' as const, artistId, cycle, amount, currency };
    const known = await this.payments.repo.findPlan(key);
    if (known) return known;
    try {
      const price = await this.stripe.prices.create(
        {
          unit_amount: amount,
          currency: currency.toLowerCase(),
          recurring: { interval: 'month', interval_count: SUBSCRIPTION_CYCLE_MONTHS[cycle] },
          product_data: { name: title, metadata: { artist_id: artistId } },
          metadata: { artist_id: artistId, cycle },
        },
        { idempotencyKey: `price-${artistId}-${cycle}-${amount}-${currency}` },
      );
      return this.payments.repo.savePlan({ ...key, externalId: price.id });
    } catch (error) {
      throw stripeFailure(error);
    }
  }
}

type Truth =
  | { kind: 'intent'; intent: Stripe.PaymentIntent }
  | { kind: 'invoice'; invoice: Stripe.Invoice }
  | { kind: 'subscription'; subscription: Stripe.Subscription }
  | { kind: 'refunds'; charge: Stripe.Charge; refunds: Stripe.Refund[] }
  | { kind: 'dispute'; dispute: Stripe.Dispute }
  | { kind: 'none' };
