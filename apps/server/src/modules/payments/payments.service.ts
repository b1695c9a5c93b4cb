/**
 * Over 400 lines on purpose: the order lifecycle every gateway shares (offers priced on the server, orders opened
 * and limited, the demo gateway, refunds, history and receipts) in one service. The checkout scaffold the three
 * gateway services share on top of it is gateway-checkout.ts; their routes' scaffold is gateway-routes.ts.
 */
import {
  formatMoney,
  INVALID_CYCLE_MESSAGE,
  PAYMENT_ERROR_CODES,
  PAYMENT_EVENT_MESSAGES,
  PAYMENT_MESSAGES,
  SUBSCRIPTION_CYCLES,
  SUBSCRIPTION_MESSAGES,
  type ConfirmSandboxOrderResponse,
  type CreatePurchaseBody,
  type CreateSandboxOrderResponse,
  type GatewaysResponse,
  type MessageResponse,
  type PaymentGateway as GatewayName,
  type PaymentHistoryEntry,
  type PaymentResultResponse,
  type SubscribeArtistResponse,
  type SubscriptionCycle,
} from '@backbeat/contract';
import { AppError, conflict, notFound } from '../../platform/errors';
import { assertPrice, purchaseOffer, subscriptionOffer, type Offer } from './offers';
import { presentOrder } from './order.presenter';
import { minimumCharge } from './money';
import {
  GATEWAY_LABELS,
  gatewayUnavailable,
  type GatewayRegistry,
  type PaymentGateway,
} from './payment-gateway';
import type { PaymentLedger } from './payment-ledger';
import { AUTO_JOB_ATTEMPTS, PAYMENT_JOBS } from './payment-jobs.types';
import type { OrderRow, PaymentsRepository, SubscriptionRow } from './payments.repository';
import type { SandboxGateway, SandboxOutcome } from './sandbox.gateway';

export interface PaymentsDeps {
  repo: PaymentsRepository;
  ledger: PaymentLedger;
  gateways: GatewayRegistry;
  /** The demo gateway when enabled by config (its confirmations come from the demo checkout). */
  sandbox: SandboxGateway | null;
  /**
   * Outside production, demo-gateway orders (the demo's seeded sales history) stay refundable when the demo
   * checkout itself is off (the gateway emulator is on): no money moved, so nothing needs the checkout.
   */
  sandboxRefunds?: SandboxGateway | null;
  currency: string;
  /** Orders one account may open per hour (pending orders cost the gateways calls and rows). */
  ordersPerHour?: number;
}

export interface Buyer {
  id: string;
}

const ORDERS_PER_HOUR = 60;
const HOUR_MS = 60 * 60 * 1000;

export const tooManyOrders = (retryAfterSeconds: number) => {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  const failure = new AppError(
    429,
    PAYMENT_ERROR_CODES.tooManyOrders,
    `Too many orders in a short time. Please finish or wait ${minutes} minute${minutes === 1 ? '' : 's'} before starting another.`,
  );
  Object.defineProperty(failure, 'retryAfterSeconds', { value: retryAfterSeconds });
  return failure;
};

export const orderNotFound = () => notFound('Order not found', 'ORDER_NOT_FOUND');

/** The cycle of a subscription request, or the SPEC's exact refusal (no field prefix). */
export function parseCycle(value: string | undefined): SubscriptionCycle {
  const cycle = value ?? '1m';
  if (!(SUBSCRIPTION_CYCLES as readonly string[]).includes(cycle)) {
    throw new AppError(400, PAYMENT_ERROR_CODES.invalidCycle, INVALID_CYCLE_MESSAGE);
  }
  return cycle as SubscriptionCycle;
}

/**
 * Orders -> verified confirmation -> entitlement (ARCHITECTURE section 5), the parts every gateway shares: offers
 * priced by the server, order rows written before any gateway is called, the buyer's orders and history, cancelling
 * a subscription, refunds. Each gateway's own checkout protocol lives in its module (stripe/, razorpay/, paypal/,
 * the sandbox here) and settles through the `PaymentLedger`.
 */
export class PaymentsService {
  constructor(private readonly deps: PaymentsDeps) {}

  get ledger(): PaymentLedger {
    return this.deps.ledger;
  }

  get repo(): PaymentsRepository {
    return this.deps.repo;
  }

  now(): Date {
    return this.deps.ledger.now();
  }

  /** The configured gateways, as the web app offers them. */
  gatewaysInfo(): GatewaysResponse {
    return {
      gateways: this.deps.gateways
        .all()
        .map((g) => ({ ...g.describe(), minimumAmount: minimumCharge(g.name, this.deps.currency) })),
      currency: this.deps.currency,
    };
  }

  gateway(name: GatewayName): PaymentGateway {
    return this.deps.gateways.get(name);
  }

  /** A song or album offer for the buyer at the server's price; a stale client price is refused (400). */
  async purchaseOffer(buyer: Buyer, body: CreatePurchaseBody): Promise<Offer> {
    const offer = await purchaseOffer(this.deps.repo, buyer.id, body.itemType, body.itemId);
    assertPrice(offer, body);
    return offer;
  }

  /** One cycle of a subscription to the artist at the server's price. */
  async subscriptionOffer(
    buyer: Buyer,
    artistId: string,
    cycle: SubscriptionCycle,
    shown: { amount?: number },
  ): Promise<Offer> {
    const offer = await subscriptionOffer(this.deps.repo, buyer.id, artistId, cycle, this.now());
    assertPrice(offer, shown);
    return offer;
  }

  /**
   * Writes the pending order before any gateway call. Refused (429, with Retry-After) past the hourly number of
   * orders of one account: each pending order costs the gateways calls and rows.
   */
  async openOrder(
    buyer: Buyer,
    gateway: GatewayName,
    offer: Offer,
    extra: { subscriptionId?: string } = {},
  ): Promise<OrderRow> {
    const minimum = minimumCharge(gateway, offer.currency);
    if (offer.amount < minimum) {
      throw new AppError(
        400,
        'AMOUNT_TOO_SMALL',
        `${GATEWAY_LABELS[gateway]} takes payments of at least ${formatMoney(minimum, offer.currency)}; please choose another way to pay.`,
      );
    }
    const limit = this.deps.ordersPerHour ?? ORDERS_PER_HOUR;
    const since = new Date(this.now().getTime() - HOUR_MS);
    const recent = await this.deps.repo.countOrdersSince(buyer.id, since);
    if (recent >= limit) {
      const oldest = await this.deps.repo.oldestOrderSince(buyer.id, since);
      const retryAfter = oldest ? Math.ceil((oldest.getTime() + HOUR_MS - this.now().getTime()) / 1000) : 60;
      throw tooManyOrders(Math.max(1, retryAfter));
    }
    return this.deps.repo.insertOrder({
      userId: buyer.id,
      itemType: offer.itemType,
      songId: offer.songId ?? null,
      albumId: offer.albumId ?? null,
      artistId: offer.artistId,
      itemTitle: offer.title,
      cycle: offer.cycle ?? null,
      amount: offer.amount,
      currency: offer.currency,
      gateway,
      status: 'pending',
      subscriptionId: extra.subscriptionId ?? null,
      createdAt: this.now(),
      updatedAt: this.now(),
    });
  }

  /**
   * Whether an order may still take money (read before a capture the server makes: Razorpay, PayPal): it is
   * undecided, and its song, album or artist is not the buyer's through another order meanwhile.
   */
  async mayStillBePaid(order: OrderRow): Promise<boolean> {
    if (!['pending', 'expired', 'failed'].includes(order.status) || !order.userId) return false;
    const repo = this.deps.repo;
    if (order.itemType === 'song' && order.songId) {
      const song = await repo.offers.findSong(order.songId, { anyStatus: true });
      return !(await repo.offers.ownsSong(order.userId, order.songId, song?.album?.id ?? null));
    }
    if (order.itemType === 'album' && order.albumId)
      return !(await repo.offers.ownsAlbum(order.userId, order.albumId));
    if (order.itemType === 'subscription' && order.artistId && order.subscriptionId) {
      return !(await repo.subscriptions.hasOtherPlayingSubscription(
        order.userId,
        order.artistId,
        order.subscriptionId,
        this.now(),
      ));
    }
    return true;
  }

  /** Records the gateway's id for the order once the gateway created its side. */
  async attachExternal(order: OrderRow, externalId: string, subscriptionId?: string): Promise<OrderRow> {
    return this.deps.repo.updateOrder(order.id, { externalId, subscriptionId, now: this.now() });
  }

  /** The gateway refused or failed to open the checkout: the order is abandoned (never charged). */
  async abandonOrder(order: OrderRow): Promise<void> {
    await this.deps.repo.updateOrder(order.id, { status: 'cancelled', now: this.now() });
  }

  /** A pending subscription row for a gateway subscription just created, linked to its order. */
  async recordPendingSubscription(
    order: OrderRow,
    values: { gateway: GatewayName; externalId: string; cycle: SubscriptionCycle },
  ): Promise<SubscriptionRow> {
    const subscription = await this.deps.repo.subscriptions.insertSubscription({
      userId: order.userId!,
      artistId: order.artistId!,
      status: 'pending',
      cycle: values.cycle,
      gateway: values.gateway,
      externalId: values.externalId,
      amount: order.amount,
      currency: order.currency,
      createdAt: this.now(),
      updatedAt: this.now(),
    });
    await this.deps.repo.updateOrder(order.id, { subscriptionId: subscription.id, now: this.now() });
    return subscription;
  }

  // ---------------------------------------------------------------------------------------------------------
  // The demo sandbox gateway

  /** A song or album order through the sandbox, and its demo checkout address. */
  async createSandboxPurchase(buyer: Buyer, body: CreatePurchaseBody): Promise<CreateSandboxOrderResponse> {
    const sandbox = this.requireSandbox();
    const offer = await this.purchaseOffer(buyer, body);
    return this.openSandboxOrder(buyer, sandbox, offer);
  }

  /** One cycle of a subscription through the sandbox (each paid order extends the period). */
  async createSandboxSubscription(
    buyer: Buyer,
    artistId: string,
    cycle: SubscriptionCycle,
    shown: { amount?: number },
  ): Promise<SubscribeArtistResponse> {
    const sandbox = this.requireSandbox();
    const offer = await this.subscriptionOffer(buyer, artistId, cycle, shown);
    const created = await this.openSandboxOrder(buyer, sandbox, offer);
    return {
      transactionId: created.order._id,
      gateway: 'sandbox',
      cycle,
      order: created.order,
      checkoutUrl: created.checkoutUrl,
    };
  }

  /**
   * The demo checkout's Pay / Decline. Repeating the outcome of a decided order answers the same and writes
   * nothing; the other outcome is refused (409). Paying for something the buyer came to own meanwhile (another
   * order of the same item) cancels this order instead of charging twice (409 ALREADY_OWNED).
   */
  async confirmSandbox(
    buyer: Buyer,
    orderId: string,
    outcome: SandboxOutcome,
  ): Promise<ConfirmSandboxOrderResponse> {
    const sandbox = this.requireSandbox();
    const decided = outcome === 'pay' ? 'paid' : 'failed';
    const result = await this.deps.ledger.run(async (unit) => {
      const order = await unit.repo.lockOrderOf(orderId, buyer.id);
      if (!order || order.gateway !== sandbox.name) throw orderNotFound();
      if (order.status !== 'pending') {
        if (order.status === decided) return { order };
        if (outcome === 'pay' && order.status === 'cancelled' && (await alreadyOwns(unit.repo, order))) {
          // Cancelled when another order of the same item was paid: say why, as before it was.
          return { refused: conflict('You already own this item', PAYMENT_ERROR_CODES.alreadyOwned) };
        }
        throw conflict(`This order is already ${order.status}`, PAYMENT_ERROR_CODES.orderDecided);
      }
      if (outcome === 'pay' && (await alreadyOwns(unit.repo, order))) {
        await unit.repo.updateOrder(order.id, { status: 'cancelled', now: unit.now });
        return { refused: conflict('You already own this item', PAYMENT_ERROR_CODES.alreadyOwned) };
      }
      const settled = await this.deps.ledger.settle(unit, order, sandbox.confirm(order, outcome));
      return { order: settled.order };
    });
    if ('refused' in result) throw result.refused;
    const message = result.order.status === 'paid' ? PAYMENT_MESSAGES.paid : PAYMENT_MESSAGES.declined;
    return { order: presentOrder(result.order), message };
  }

  private requireSandbox(): SandboxGateway {
    if (!this.deps.sandbox) throw gatewayUnavailable('sandbox');
    return this.deps.sandbox;
  }

  private async openSandboxOrder(
    buyer: Buyer,
    sandbox: SandboxGateway,
    offer: Offer,
  ): Promise<CreateSandboxOrderResponse> {
    const order = await this.openOrder(buyer, sandbox.name, offer);
    const checkout = sandbox.createCheckout({ orderId: order.id });
    const saved = await this.attachExternal(order, checkout.externalId);
    return { order: presentOrder(saved), checkoutUrl: checkout.checkoutUrl };
  }

  // ---------------------------------------------------------------------------------------------------------
  // Orders, history, cancellation, refunds

  /** The buyer's own order (any gateway; `gateway` narrows it); anyone else's answers 404. */
  async getOrder(buyer: Buyer, orderId: string, gateway?: GatewayName) {
    if (gateway) this.deps.gateways.get(gateway);
    const order = await this.deps.repo.findOrderOf(orderId, buyer.id);
    if (!order || (gateway && order.gateway !== gateway)) throw orderNotFound();
    return { order: presentOrder(order) };
  }

  /** The result of a settlement as the buyer sees it. */
  result(order: OrderRow): PaymentResultResponse {
    const message =
      order.status === 'paid'
        ? PAYMENT_MESSAGES.paid
        : order.status === 'pending'
          ? PAYMENT_EVENT_MESSAGES.pending
          : PAYMENT_MESSAGES.declined;
    return { order: presentOrder(order), message };
  }

  /** Every order, renewal and refund of the buyer, newest first. */
  async history(buyer: Buyer): Promise<{ history: PaymentHistoryEntry[] }> {
    const rows = await this.deps.repo.historyOf(buyer.id);
    return {
      history: rows.map(({ order, refunds }) => ({
        ...presentOrder(order),
        cycle: order.cycle ?? null,
        renewal: order.renewal,
        refunds: refunds.map((refund) => ({
          _id: refund.id,
          kind: refund.kind,
          amount: refund.amount,
          currency: refund.currency,
          createdAt: refund.createdAt.toISOString(),
        })),
      })),
    };
  }

  /**
   * Cancels the buyer's subscription to the artist: at the gateway first (it stops renewing there), then here. It
   * keeps playing until the end of the period already paid for.
   */
  async cancelSubscription(buyer: Buyer, artistId: string): Promise<MessageResponse> {
    const artist = await this.deps.repo.offers.findArtist(artistId);
    if (!artist) throw notFound('Artist not found', 'ARTIST_NOT_FOUND');
    const running = await this.deps.repo.subscriptions.renewingSubscriptionsOf(
      buyer.id,
      artist.id,
      this.now(),
    );
    if (running.length === 0) {
      throw notFound('You are not subscribed to this artist', PAYMENT_ERROR_CODES.notSubscribed);
    }
    for (const subscription of running) {
      if (subscription.gateway !== 'sandbox' && subscription.externalId) {
        await this.deps.gateways.get(subscription.gateway).cancelSubscription(subscription);
      }
      await this.deps.ledger.run(async (unit) => {
        const locked = await unit.repo.subscriptions.lockSubscription(subscription.id);
        if (locked) await this.deps.ledger.setCancelAtPeriodEnd(unit, locked, true);
      });
    }
    return { message: SUBSCRIPTION_MESSAGES.cancelled };
  }

  /**
   * An admin refund: the money goes back through the order's gateway; the refund is recorded (taking back what the
   * order bought) when the gateway confirms it, at once or by webhook. A refunded subscription payment also stops the
   * subscription renewing at the gateway, through a job that retries until the gateway agrees (and is listed for the
   * admin if it never does).
   */
  async refundOrder(orderId: string, reason: string | null): Promise<PaymentResultResponse> {
    const order = await this.deps.repo.findOrder(orderId);
    if (!order) throw orderNotFound();
    if (order.status !== 'paid') {
      throw conflict(
        `Only a paid order can be refunded (this one is ${order.status})`,
        PAYMENT_ERROR_CODES.notRefundable,
      );
    }
    const payment = await this.deps.repo.findSucceededPayment(order.id);
    if (!payment) throw conflict('This order has no payment to refund', PAYMENT_ERROR_CODES.notRefundable);
    const money = await this.deps.repo.adjustments.moneyOf(order.id);
    const remaining = money.paid - money.takenBack;
    const gateway =
      order.gateway === 'sandbox' && !this.deps.gateways.has('sandbox') && this.deps.sandboxRefunds
        ? this.deps.sandboxRefunds
        : this.deps.gateways.get(order.gateway);
    const report = await gateway.refund(order, payment, {
      amount: remaining < payment.amount ? remaining : undefined,
      reason,
      idempotencyKey: `refund-${order.id}-${remaining}`,
      cause: 'requested',
    });
    const updated = await this.deps.ledger.run(async (unit) => {
      const locked = (await unit.repo.lockOrder(order.id)) ?? order;
      if (report) await this.deps.ledger.recordRefund(unit, locked, report);
      if (locked.itemType === 'subscription' && locked.subscriptionId && locked.gateway !== 'sandbox') {
        await this.deps.ledger.queueJob(
          unit,
          PAYMENT_JOBS.cancelSubscription,
          { subscriptionId: locked.subscriptionId },
          AUTO_JOB_ATTEMPTS,
        );
      }
      return (await unit.repo.findOrder(order.id)) ?? locked;
    });
    return {
      order: presentOrder(updated),
      message: report ? PAYMENT_EVENT_MESSAGES.refunded : 'Refund requested; the gateway will confirm it',
    };
  }
}

/** Whether a song or album order's item is already the buyer's (subscriptions extend instead). */
async function alreadyOwns(repo: PaymentsRepository, order: OrderRow): Promise<boolean> {
  if (!order.userId) return false;
  if (order.itemType === 'song' && order.songId) {
    const song = await repo.offers.findSong(order.songId);
    return repo.offers.ownsSong(order.userId, order.songId, song?.album?.id ?? null);
  }
  if (order.itemType === 'album' && order.albumId) return repo.offers.ownsAlbum(order.userId, order.albumId);
  return false;
}
