import { useMemo, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Appearance, Stripe, StripeElementsOptions } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import type { GatewayInfo, SubscriptionCycle } from '@backbeat/contract';
import { Button, FormAlert } from '../../../components/ui';
import { formatMoney } from '../../../lib/format';
import { useSubscribeToArtistMutation } from '../commerce.api';
import { COMMERCE_MESSAGES } from '../commerce.constants';
import type { Offer } from '../commerce.types';
import { useCreateSetupIntentMutation, useCreateStripePaymentMutation } from '../payments.api';
import { purchaseBody, subscriptionRequest, type GatewayCheckoutProps } from './checkout-requests';
import { failurePath, failureText, successPath } from './checkout-result';
import { loadScriptOnce } from './load-script';

/** DESIGN.md's tokens, for the Payment Element. */
const appearance: Appearance = {
  theme: 'night',
  variables: {
    colorPrimary: '#ff5a36',
    colorBackground: '#1e1e28',
    colorText: '#f4f4f6',
    colorTextSecondary: '#a1a1b0',
    colorDanger: '#ff4d6d',
    borderRadius: '6px',
    fontFamily: 'Inter Variable, Inter, system-ui, sans-serif',
  },
};

const stripes = new Map<string, Promise<Stripe | null>>();

/** Stripe.js for the publishable key: the provider's script, or the emulator's stand-in in test mode. */
function stripeFor(gateway: GatewayInfo): Promise<Stripe | null> {
  const key = `${gateway.publishableKey}\n${gateway.scriptUrl ?? ''}`;
  let promise = stripes.get(key);
  if (!promise) {
    // loadStripe uses window.Stripe when it is already there (the stand-in); otherwise it loads js.stripe.com.
    promise = (gateway.scriptUrl ? loadScriptOnce(gateway.scriptUrl) : Promise.resolve()).then(() =>
      loadStripe(gateway.publishableKey ?? ''),
    );
    promise.catch(() => stripes.delete(key));
    stripes.set(key, promise);
  }
  return promise;
}

interface Prepared {
  clientSecret: string;
  /** Our order, known at once for purchases; a subscription's comes with the subscribe call. */
  transactionId: string | null;
}

/**
 * Paying with Stripe's Payment Element, in Stripe's deferred-intent flow: the card form shows at once and nothing is
 * created at Stripe (no order, no PaymentIntent) until the buyer presses Pay, so opening the checkout and paying
 * with another gateway leaves nothing pending behind. On Pay a purchase creates its PaymentIntent (priced by the
 * server) and confirms it; a declined card keeps the form, and trying again confirms the same PaymentIntent. A
 * subscription saves the card through a SetupIntent, subscribes with it and confirms the first invoice's payment
 * (3-D Secure when the bank asks). The webhook settles the order; the success page waits for it.
 */
export default function StripeCheckout({ gateway, offer, cycle }: GatewayCheckoutProps) {
  const stripePromise = useMemo(() => stripeFor(gateway), [gateway]);
  const currency = offer.currency.toLowerCase();
  const options: StripeElementsOptions =
    offer.kind === 'subscription'
      ? { mode: 'setup', currency, appearance }
      : { mode: 'payment', amount: offer.amount, currency, appearance };
  return (
    <Elements stripe={stripePromise} options={options}>
      <StripePaymentForm offer={offer} cycle={cycle} />
    </Elements>
  );
}

function StripePaymentForm({ offer, cycle }: { offer: Offer; cycle: SubscriptionCycle }) {
  const stripe = useStripe();
  const elements = useElements();
  const navigate = useNavigate();
  const [createPayment] = useCreateStripePaymentMutation();
  const [createSetupIntent] = useCreateSetupIntentMutation();
  const [subscribe] = useSubscribeToArtistMutation();
  const [ready, setReady] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** The intent made at the first Pay: a retry after a declined card confirms it again instead of a new order. */
  const prepared = useRef<Prepared | null>(null);
  const subscription = offer.kind === 'subscription';

  /** A refusal the buyer can act on stays in the form (try another card); the order, if any, stays open. */
  function refuse(failure: unknown) {
    setError(failureText(failure, COMMERCE_MESSAGES.paymentFailed));
  }

  async function prepare(): Promise<Prepared> {
    if (prepared.current) return prepared.current;
    if (offer.kind === 'subscription') {
      const { clientSecret } = await createSetupIntent().unwrap();
      prepared.current = { clientSecret, transactionId: null };
    } else {
      const created = await createPayment(purchaseBody(offer)).unwrap();
      prepared.current = { clientSecret: created.clientSecret, transactionId: created.transactionId };
    }
    return prepared.current;
  }

  async function pay(event: FormEvent) {
    event.preventDefault();
    if (!stripe || !elements || busy) return;
    setBusy(true);
    setError(null);
    try {
      const submitted = await elements.submit();
      if (submitted.error) {
        setError(submitted.error.message ?? COMMERCE_MESSAGES.paymentFailed);
        return;
      }
      const intent = await prepare();
      const returnUrl = `${window.location.origin}/payment-success`;
      if (!subscription) {
        const result = await stripe.confirmPayment({
          elements,
          clientSecret: intent.clientSecret,
          confirmParams: { return_url: `${returnUrl}?orderId=${intent.transactionId ?? ''}` },
          redirect: 'if_required',
        });
        if (result.error) return refuse(result.error);
        await navigate(successPath(intent.transactionId!));
        return;
      }
      // A subscription: save the card, subscribe with it, confirm the first payment if the bank asks.
      const setup = await stripe.confirmSetup({
        elements,
        clientSecret: intent.clientSecret,
        confirmParams: { return_url: returnUrl },
        redirect: 'if_required',
      });
      if (setup.error) {
        prepared.current = null; // a SetupIntent that failed cannot be confirmed again with another card
        return refuse(setup.error);
      }
      const method = setup.setupIntent.payment_method;
      const paymentMethodId = typeof method === 'string' ? method : method?.id;
      if (!paymentMethodId) return refuse(new Error(COMMERCE_MESSAGES.paymentFailed));
      const created = await subscribe({
        ...subscriptionRequest(offer, 'stripe', cycle),
        paymentMethodId,
      }).unwrap();
      if (created.clientSecret) {
        const confirmed = await stripe.confirmCardPayment(created.clientSecret, {
          payment_method: paymentMethodId,
        });
        if (confirmed.error) {
          await navigate(
            failurePath(created.transactionId, failureText(confirmed.error, COMMERCE_MESSAGES.paymentFailed)),
          );
          return;
        }
      }
      await navigate(successPath(created.transactionId));
    } catch (failure) {
      refuse(failure);
    } finally {
      setBusy(false);
    }
  }

  const price = formatMoney(offer.amount, offer.currency);
  return (
    <form onSubmit={(event) => void pay(event)} className="flex flex-col gap-4">
      <PaymentElement onReady={() => setReady(true)} options={{ layout: 'tabs' }} />
      {error ? <FormAlert tone="error">{error}</FormAlert> : null}
      <Button type="submit" size="lg" loading={busy} disabled={!stripe || !ready}>
        {subscription ? `Subscribe · ${price}` : `Pay ${price}`}
      </Button>
    </form>
  );
}
