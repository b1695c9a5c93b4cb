import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '../../lib/toast';
import { queryErrorText } from '../../lib/api-query';
import { useCreateSandboxOrderMutation, useSubscribeToArtistMutation } from './commerce.api';
import { COMMERCE_MESSAGES } from './commerce.constants';
import { checkoutTarget } from './commerce.offers';
import { useCommerceSelector } from './commerce.store';
import type { Offer, SubscriptionCycle } from './commerce.types';
import { purchaseBody, subscriptionRequest } from './checkout/checkout-requests';

/**
 * Starts buying an offer through the sandbox gateway: creates the order (or the subscription, for the chosen cycle,
 * checked first: a wrong cycle shows the SPEC's message and makes no call) with the amount the checkout showed,
 * then goes to the checkout the server names. Guests go to /login; a refusal toasts the server's text.
 */
export function useStartCheckout() {
  const navigate = useNavigate();
  const signedIn = useCommerceSelector((state) => state.auth.user !== null);
  const [createOrder] = useCreateSandboxOrderMutation();
  const [subscribe] = useSubscribeToArtistMutation();
  const [busy, setBusy] = useState(false);

  async function start(offer: Offer, cycle: SubscriptionCycle | string = '1m'): Promise<void> {
    if (!signedIn) {
      await navigate('/login');
      return;
    }
    setBusy(true);
    try {
      const { checkoutUrl } =
        offer.kind === 'subscription'
          ? await subscribe(subscriptionRequest(offer, 'sandbox', cycle)).unwrap()
          : await createOrder(purchaseBody(offer)).unwrap();
      const target = checkoutTarget(checkoutUrl ?? '');
      if (!target) throw new Error(COMMERCE_MESSAGES.paymentFailed);
      if ('path' in target) await navigate(target.path);
      else window.location.assign(target.href);
    } catch (error) {
      toast.error(
        queryErrorText(error, error instanceof Error ? error.message : COMMERCE_MESSAGES.paymentFailed),
      );
    } finally {
      setBusy(false);
    }
  }

  return { start, busy };
}
