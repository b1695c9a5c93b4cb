import {
  PAYMENT_ERROR_CODES,
  PAYMENT_MESSAGES,
  SUBSCRIPTION_CYCLE_MONTHS,
  SUBSCRIPTION_CYCLES,
  SUBSCRIPTION_MESSAGES,
  type ConfirmSandboxOrderResponse,
  type CreateSandboxOrderBody,
  type CreateSandboxOrderResponse,
  type MessageResponse,
  type PaymentGateway as GatewayName,
  type SubscriptionCycle,
} from '@backbeat/contract';
import { AppError, conflict, notFound } from '../../platform/errors';
import { addMonths } from './money';
import { assertPrice, purchaseOffer, subscriptionOffer, type Offer } from './offers';
import { presentOrder } from './order.presenter';
import { gatewayUnavailable, type GatewayRegistry, type PaymentConfirmation } from './payment-gateway';
import type { OrderRow, PaymentsRepository, PaymentsTransactor } from './payments.repository';
import type { SandboxGateway, SandboxOutcome } from './sandbox.gateway';

export interface PaymentsDeps {
  repo: PaymentsRepository;
  transaction: PaymentsTransactor;
  gateways: GatewayRegistry;
  /** The demo gateway when enabled by config (its confirmations come from the demo checkout). */
  sandbox: SandboxGateway | null;
  /** Drops the account's cached catalogue answers, so `canPlay` follows an entitlement change at once. */
  invalidateUser(userId: string): void;
  now?: () => Date;
}

interface Buyer {
  id: string;
}

const orderNotFound = () => notFound('Order not found', 'ORDER_NOT_FOUND');
const isCycle = (value: string | null): value is SubscriptionCycle =>
  (SUBSCRIPTION_CYCLES as readonly string[]).includes(value ?? '');

/**
 * Orders -> verified confirmation -> entitlement (ARCHITECTURE section 5). The order row is written before any
 * gateway is called; an entitlement is granted only by a confirmation, in the same transaction as its payment row,
 * and a confirmation already recorded (same gateway and external id) grants nothing new.
 */
export class PaymentsService {
  private readonly now: () => Date;

  constructor(private readonly deps: PaymentsDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** A song or album order, priced from the catalogue, and where to pay it. */
  async createPurchaseOrder(
    buyer: Buyer,
    gateway: GatewayName,
    body: CreateSandboxOrderBody,
  ): Promise<CreateSandboxOrderResponse> {
    this.deps.gateways.get(gateway);
    const offer = await purchaseOffer(this.deps.repo, buyer.id, body.itemType, body.itemId);
    assertPrice(offer, body);
    return this.openOrder(buyer, gateway, offer);
  }

  /** One cycle of a subscription to an artist, and where to pay it. */
  async createSubscriptionOrder(
    buyer: Buyer,
    artistId: string,
    body: { gateway: GatewayName; cycle: SubscriptionCycle; amount?: number },
  ): Promise<CreateSandboxOrderResponse> {
    this.deps.gateways.get(body.gateway);
    const offer = await subscriptionOffer(this.deps.repo, buyer.id, artistId, body.cycle, this.now());
    assertPrice(offer, body);
    return this.openOrder(buyer, body.gateway, offer);
  }

  /** Cancels the active subscription; it keeps playing until the end of the period paid for. */
  async cancelSubscription(buyer: Buyer, artistId: string): Promise<MessageResponse> {
    const artist = await this.deps.repo.findArtist(artistId);
    if (!artist) throw notFound('Artist not found', 'ARTIST_NOT_FOUND');
    const cancelled = await this.deps.repo.cancelActiveSubscriptions(buyer.id, artist.id, this.now());
    if (cancelled === 0) {
      throw notFound('You are not subscribed to this artist', PAYMENT_ERROR_CODES.notSubscribed);
    }
    this.deps.invalidateUser(buyer.id);
    return { message: SUBSCRIPTION_MESSAGES.cancelled };
  }

  /** The buyer's own order through the gateway; anyone else's answers 404. */
  async getOrder(buyer: Buyer, gateway: GatewayName, orderId: string) {
    this.deps.gateways.get(gateway);
    const order = await this.deps.repo.findOrderOf(orderId, buyer.id);
    if (!order || order.gateway !== gateway) throw orderNotFound();
    return { order: presentOrder(order) };
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
    const sandbox = this.deps.sandbox;
    if (!sandbox) throw gatewayUnavailable('sandbox');
    const decided = outcome === 'pay' ? 'paid' : 'failed';
    const now = this.now();
    const result = await this.deps.transaction(async (repo) => {
      const order = await repo.lockOrderOf(orderId, buyer.id);
      if (!order || order.gateway !== sandbox.name) throw orderNotFound();
      if (order.status !== 'pending') {
        if (order.status === decided) return { order, changed: false };
        throw conflict(`This order is already ${order.status}`, PAYMENT_ERROR_CODES.orderDecided);
      }
      if (outcome === 'pay' && (await this.alreadyOwns(repo, order))) {
        await repo.updateOrder(order.id, { status: 'cancelled', now });
        return { refused: conflict('You already own this item', PAYMENT_ERROR_CODES.alreadyOwned) };
      }
      const settled = await this.settle(repo, order, sandbox.confirm(order, outcome), now);
      return { order: settled, changed: true };
    });
    if ('refused' in result) throw result.refused;
    if (result.changed) this.deps.invalidateUser(buyer.id);
    const message = result.order.status === 'paid' ? PAYMENT_MESSAGES.paid : PAYMENT_MESSAGES.declined;
    return { order: presentOrder(result.order), message };
  }

  /** Writes the order row first, then asks the gateway for its checkout. */
  private async openOrder(
    buyer: Buyer,
    gatewayName: GatewayName,
    offer: Offer,
  ): Promise<CreateSandboxOrderResponse> {
    const gateway = this.deps.gateways.get(gatewayName);
    const order = await this.deps.repo.insertOrder({
      userId: buyer.id,
      itemType: offer.itemType,
      songId: offer.songId ?? null,
      albumId: offer.albumId ?? null,
      artistId: offer.artistId,
      itemTitle: offer.title,
      cycle: offer.cycle ?? null,
      amount: offer.amount,
      currency: offer.currency,
      gateway: gateway.name,
      status: 'pending',
    });
    let checkout;
    try {
      checkout = await gateway.createCheckout({
        orderId: order.id,
        amount: order.amount,
        currency: order.currency,
        description: order.itemTitle,
      });
    } catch (error) {
      await this.deps.repo.updateOrder(order.id, { status: 'failed', now: this.now() });
      throw error instanceof AppError ? error : gatewayUnavailable(gateway.name);
    }
    const saved = await this.deps.repo.updateOrder(order.id, {
      externalId: checkout.externalId,
      now: this.now(),
    });
    return { order: presentOrder(saved), checkoutUrl: checkout.checkoutUrl };
  }

  /** Whether a song or album order's item is already the buyer's (subscriptions extend instead). */
  private async alreadyOwns(repo: PaymentsRepository, order: OrderRow): Promise<boolean> {
    if (!order.userId) return false;
    if (order.itemType === 'song' && order.songId) {
      const song = await repo.findSong(order.songId);
      return repo.ownsSong(order.userId, order.songId, song?.album?.id ?? null);
    }
    if (order.itemType === 'album' && order.albumId) return repo.ownsAlbum(order.userId, order.albumId);
    return false;
  }

  /**
   * Applies a verified confirmation inside the caller's transaction (any gateway): the payment row, the order's
   * status and, when paid, the entitlement. A replayed confirmation changes nothing.
   */
  private async settle(
    repo: PaymentsRepository,
    order: OrderRow,
    confirmation: PaymentConfirmation,
    now: Date,
  ): Promise<OrderRow> {
    if (!(await repo.insertPayment(order.id, order.gateway, confirmation))) return order;
    const paid = confirmation.status === 'succeeded';
    const updated = await repo.updateOrder(order.id, { status: paid ? 'paid' : 'failed', now });
    if (paid) await this.grant(repo, updated, now);
    return updated;
  }

  private async grant(repo: PaymentsRepository, order: OrderRow, now: Date): Promise<void> {
    const userId = order.userId;
    if (!userId) return;
    if (order.itemType === 'song' && order.songId) {
      await repo.grantPurchase(userId, { songId: order.songId }, order.id);
    } else if (order.itemType === 'album' && order.albumId) {
      await repo.grantPurchase(userId, { albumId: order.albumId }, order.id);
    } else if (order.itemType === 'subscription' && order.artistId) {
      const cycle = isCycle(order.cycle) ? order.cycle : '1m';
      const months = SUBSCRIPTION_CYCLE_MONTHS[cycle];
      const current = await repo.lockPaidThroughSubscription(userId, order.artistId, now);
      if (current?.currentPeriodEnd) {
        const periodEnd = addMonths(current.currentPeriodEnd, months);
        await repo.extendSubscription(current.id, { periodEnd, cycle, now });
      } else {
        await repo.insertSubscription({
          userId,
          artistId: order.artistId,
          status: 'active',
          cycle,
          gateway: order.gateway,
          externalId: order.externalId,
          currentPeriodEnd: addMonths(now, months),
        });
      }
    }
  }
}
