import type {
  PaymentGateway as GatewayName,
  PaymentResultResponse,
  SubscribeArtistBody,
  SubscribeArtistResponse,
  SubscriptionCycle,
} from '@backbeat/contract';
import type { AppError } from '../../platform/errors';
import type { SubscriptionPayment } from './ledger-subscriptions';
import type { Offer } from './offers';
import { presentOrder } from './order.presenter';
import type { OrderRow } from './payments.repository';
import { orderNotFound, type Buyer, type PaymentsService } from './payments.service';

/** What a gateway created for an order: its object, and the id the order is known by at the gateway. */
export interface Opened<R> {
  remote: R;
  externalId: string;
}

/** Starts a subscription through one gateway: its own protocol, after the cycle and price were checked. */
export type SubscriptionStarter = (
  buyer: Buyer,
  artistId: string,
  cycle: SubscriptionCycle,
  body: SubscribeArtistBody,
) => Promise<SubscribeArtistResponse>;

/**
 * What differs per gateway when a subscription starts: its plan (or recurring price, with whatever else it needs
 * first) for the offer, its subscription on that plan for the order, and its own keys of the answer (its
 * subscription id and what its checkout needs).
 */
export interface SubscriptionSteps<P, R> {
  plan: (offer: Offer) => Promise<P>;
  create: (order: OrderRow, plan: P, offer: Offer) => Promise<Opened<R>>;
  answer: (
    remote: R,
    externalId: string,
  ) => Omit<SubscribeArtistResponse, 'transactionId' | 'gateway' | 'cycle' | 'order'>;
}

/**
 * The checkout scaffold the Stripe, Razorpay and PayPal services share: the order is written before the gateway is
 * called, abandoned (never charged) when the gateway fails, and linked to the gateway's id when it answers; a
 * subscription's pending row is recorded the same way; plans are created once per artist, cycle and amount; a
 * subscription's first payment, read from the gateway, starts it through the ledger. What differs per gateway is
 * passed in: its name, how its failures map to answers, and the calls that create its side.
 */
export class GatewayCheckout {
  constructor(
    private readonly payments: PaymentsService,
    readonly gateway: GatewayName,
    /** The gateway's failure as an answer (402 declined, 429-like busy, 502); AppErrors pass through. */
    readonly failure: (error: unknown) => AppError,
  ) {}

  /** A gateway call whose failure is answered as the gateway's failure. */
  async call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      throw this.failure(error);
    }
  }

  /**
   * Opens the order for the offer, has the gateway create its side, and records the gateway's id on the order. If
   * the gateway fails, the order is abandoned and the failure answered.
   */
  async open<R>(
    buyer: Buyer,
    offer: Offer,
    create: (order: OrderRow) => Promise<Opened<R>>,
  ): Promise<{ order: OrderRow } & Opened<R>> {
    const order = await this.payments.openOrder(buyer, this.gateway, offer);
    let opened: Opened<R>;
    try {
      opened = await create(order);
    } catch (error) {
      await this.payments.abandonOrder(order);
      throw this.failure(error);
    }
    return { order: await this.payments.attachExternal(order, opened.externalId), ...opened };
  }

  /**
   * A subscription to the artist at the server's price: the gateway's plan for it, the subscription opened at the
   * gateway (see `open`), its pending row recorded, and the answer the web app continues with: the common keys,
   * then the gateway's own (`steps.answer`).
   */
  async subscribe<P, R>(
    buyer: Buyer,
    artistId: string,
    cycle: SubscriptionCycle,
    body: SubscribeArtistBody,
    steps: SubscriptionSteps<P, R>,
  ): Promise<SubscribeArtistResponse> {
    const offer = await this.payments.subscriptionOffer(buyer, artistId, cycle, body);
    const plan = await steps.plan(offer);
    const { order, remote, externalId } = await this.open(buyer, offer, (order) =>
      steps.create(order, plan, offer),
    );
    await this.payments.recordPendingSubscription(order, { gateway: this.gateway, externalId, cycle });
    return {
      transactionId: order.id,
      gateway: this.gateway,
      cycle,
      order: presentOrder(order),
      ...steps.answer(remote, externalId),
    };
  }

  /**
   * The gateway's plan (or recurring price) for the offer's artist and amount on the cycle: created once through
   * `create` (given the offer), then reused.
   */
  offerPlan(
    offer: Offer,
    cycle: SubscriptionCycle,
    create: (offer: Offer) => Promise<string>,
  ): Promise<string> {
    const { artistId, amount, currency } = offer;
    return this.plan({ artistId, cycle, amount, currency }, () => create(offer));
  }

  /** A gateway object kept per artist, cycle and amount (a plan, a price, a product): created once, then reused. */
  async plan(
    key: { artistId: string; cycle: string; amount: number; currency: string },
    create: () => Promise<string>,
  ): Promise<string> {
    const known = await this.payments.repo.findPlan({ gateway: this.gateway, ...key });
    if (known) return known;
    const externalId = await create();
    return this.payments.repo.savePlan({ gateway: this.gateway, ...key, externalId });
  }

  /**
   * The buyer came back from approving a subscription at the gateway: its first payment (read from the gateway,
   * null when there is none yet) starts it through the ledger. Answers the subscription's first order; a
   * subscription that is not the buyer's answers 404.
   */
  async confirmSubscription(
    buyer: Buyer,
    externalId: string,
    payment: SubscriptionPayment | null,
  ): Promise<PaymentResultResponse> {
    const ledger = this.payments.ledger;
    const order = await ledger.run(async (unit) => {
      const subscription = await unit.repo.subscriptions.lockSubscriptionByExternal(this.gateway, externalId);
      if (!subscription || subscription.userId !== buyer.id) throw orderNotFound();
      if (payment) await ledger.applySubscriptionPayment(unit, subscription, payment);
      const initial = await unit.repo.lockInitialOrderOf(subscription.id);
      if (!initial) throw orderNotFound();
      return initial;
    });
    return this.payments.result(order);
  }
}
