import type { CreatePurchaseBody, GatewayInfo, PaymentGateway, SubscriptionCycle } from '@backbeat/contract';
import type { Offer } from '../commerce.types';
import { checkCycle } from '../subscription-cycles';

/** What every gateway's checkout is given: the gateway as the server describes it, the offer, the chosen cycle. */
export interface GatewayCheckoutProps {
  gateway: GatewayInfo;
  offer: Offer;
  cycle: SubscriptionCycle;
}

/** The body that orders a song or an album at any gateway, with the amount the buyer was shown. */
export function purchaseBody(offer: Offer): CreatePurchaseBody {
  if (offer.kind === 'subscription') throw new Error('A subscription is not bought as an order');
  return { itemType: offer.kind, itemId: offer.itemId, amount: offer.amount, currency: offer.currency };
}

/**
 * The subscribe call for an artist's offer at a gateway, with the amount the buyer was shown. The cycle is checked
 * first: a wrong one throws the SPEC's message and nothing is called.
 */
export function subscriptionRequest(offer: Offer, gateway: PaymentGateway, cycle: unknown) {
  return { artistId: offer.itemId, gateway, cycle: checkCycle(cycle), amount: offer.amount };
}
