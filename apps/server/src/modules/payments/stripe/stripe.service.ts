import type Stripe from 'stripe';
import {
  SUBSCRIPTION_CYCLE_MONTHS,
  type CreatePurchaseBody,
  type SetupIntentResponse,
  type StripeCreatePaymentResponse,
  type SubscribeArtistBody,
  type SubscriptionCycle,
} from '@backbeat/contract';
import { AppError } from '../../../platform/errors';
import { GatewayCheckout, type SubscriptionStarter } from '../gateway-checkout';
import type { Offer } from '../offers';
import type { Buyer, PaymentsService } from '../payments.service';
import { StripeEvents } from './stripe.events';
import { idOf } from './stripe.facts';
import { stripeFailure, type StripeGateway } from './stripe.gateway';

/**
 * Stripe's protocol: PaymentIntents for purchases (the Payment Element confirms them in the browser), a Customer per
 * user and a recurring Price per artist and cycle for subscriptions, and webhooks that are verified on the raw body,
 * then trusted only for ids: every object is fetched again from Stripe before it changes anything.
 */
export class StripeService {
  readonly events: StripeEvents;
  private readonly checkout: GatewayCheckout;

  constructor(
    private readonly payments: PaymentsService,
    private readonly gateway: StripeGateway,
  ) {
    this.events = new StripeEvents(payments.ledger, gateway.client);
    this.checkout = new GatewayCheckout(payments, 'stripe', stripeFailure);
  }

  private get stripe(): Stripe {
    return this.gateway.client;
  }

  /** A PaymentIntent for a song or album at the server's price; its client secret goes to the Payment Element. */
  async createPayment(buyer: Buyer, body: CreatePurchaseBody): Promise<StripeCreatePaymentResponse> {
    const offer = await this.payments.purchaseOffer(buyer, body);
    const { order, remote: intent } = await this.checkout.open(buyer, offer, async (order) => {
      const intent = await this.stripe.paymentIntents.create(
        {
          amount: order.amount,
          currency: order.currency.toLowerCase(),
          description: order.itemTitle,
          automatic_payment_methods: { enabled: true },
          metadata: { order_id: order.id, user_id: buyer.id },
        },
        { idempotencyKey: `order-${order.id}` },
      );
      return { remote: intent, externalId: intent.id };
    });
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
  readonly subscribe: SubscriptionStarter = async (buyer, artistId, cycle, body) => {
    const paymentMethodId = body.paymentMethodId;
    if (!paymentMethodId) {
      throw new AppError(400, 'VALIDATION_ERROR', 'paymentMethodId: is required for Stripe subscriptions');
    }
    return this.checkout.subscribe(buyer, artistId, cycle, body, {
      plan: async (offer) => {
        const customer = await this.customerOf(buyer.id);
        await this.checkout.call(() => this.attachCard(customer, paymentMethodId, body));
        return { customer, price: await this.priceFor(offer, cycle) };
      },
      create: async (order, { customer, price }, offer) => {
        const subscription = await this.stripe.subscriptions.create(
          {
            customer,
            items: [{ price }],
            default_payment_method: paymentMethodId,
            payment_behavior: 'default_incomplete',
            payment_settings: { save_default_payment_method: 'on_subscription' },
            metadata: { order_id: order.id, user_id: buyer.id, artist_id: offer.artistId },
            expand: ['latest_invoice.confirmation_secret'],
          },
          { idempotencyKey: `subscription-${order.id}` },
        );
        return { remote: subscription, externalId: subscription.id };
      },
      answer: (subscription) => {
        const invoice = typeof subscription.latest_invoice === 'object' ? subscription.latest_invoice : null;
        return {
          clientSecret: invoice?.confirmation_secret?.client_secret ?? null,
          subscriptionId: subscription.id,
        };
      },
    });
  };

  // ---------------------------------------------------------------------------------------------------------
  // Webhooks

  /** A verified event, applied once (see StripeEvents). */
  async handleEvent(event: Stripe.Event): Promise<void> {
    await this.events.handle(event);
  }

  // ---------------------------------------------------------------------------------------------------------

  /** The user's Stripe customer, created once and kept. */
  private async customerOf(userId: string): Promise<string> {
    const known = await this.payments.repo.findCustomer(userId, 'stripe');
    if (known) return known;
    const buyer = await this.payments.repo.offers.findBuyer(userId);
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
  private priceFor(offer: Offer, cycle: SubscriptionCycle): Promise<string> {
    return this.checkout.offerPlan(offer, cycle, async ({ artistId, amount, currency, title }) => {
      const price = await this.checkout.call(() =>
        this.stripe.prices.create(
          {
            unit_amount: amount,
            currency: currency.toLowerCase(),
            recurring: { interval: 'month', interval_count: SUBSCRIPTION_CYCLE_MONTHS[cycle] },
            product_data: { name: title, metadata: { artist_id: artistId } },
            metadata: { artist_id: artistId, cycle },
          },
          { idempotencyKey: `price-${artistId}-${cycle}-${amount}-${currency}` },
        ),
      );
      return price.id;
    });
  }
}
