import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Appearance, Stripe } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import type { GatewayInfo, SubscriptionCycle } from '@backbeat/contract';
import { Button, FormAlert, Spinner } from '../../../components/ui';
import { formatMoney } from '../../../lib/format';
import { useSubscribeToArtistMutation } from '../commerce.api';
import { COMMERCE_MESSAGES } from '../commerce.constants';
import { useCommerceDispatch } from '../commerce.store';
import type { Offer } from '../commerce.types';
import { paymentFailed, paymentStarted, stripeIntentReady } from '../payment.slice';
import { useCreateSetupIntentMutation, useCreateStripePaymentMutation } from '../payments.api';
import { checkCycle } from '../subscription-cycles';
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
 * Paying with Stripe's Payment Element. A purchase creates its PaymentIntent first (priced by the server); a
 * subscription saves the card through a SetupIntent, then subscribes with it and confirms the first invoice's
 * payment (3-D Secure when the bank asks). The webhook settles the order; the success page waits for it.
 */
export default function StripeCheckout({
  gateway,
  offer,
  cycle,
}: {
  gateway: GatewayInfo;
  offer: Offer;
  cycle: SubscriptionCycle;
}) {
  const dispatch = useCommerceDispatch();
  const [createPayment] = useCreateStripePaymentMutation();
  const [createSetupIntent] = useCreateSetupIntentMutation();
  const [prepared, setPrepared] = useState<Prepared | null>(null);
  const [error, setError] = useState<string | null>(null);
  const stripePromise = useMemo(() => stripeFor(gateway), [gateway]);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    dispatch(paymentStarted({ gateway: 'stripe', cycle }));
    const prepare = async (): Promise<Prepared> => {
      if (offer.kind === 'subscription') {
        const { clientSecret } = await createSetupIntent().unwrap();
        return { clientSecret, transactionId: null };
      }
      const created = await createPayment({
        itemType: offer.kind,
        itemId: offer.itemId,
        amount: offer.amount,
        currency: offer.currency,
      }).unwrap();
      return { clientSecret: created.clientSecret, transactionId: created.transactionId };
    };
    prepare().then(
      (ready) => {
        dispatch(stripeIntentReady(ready));
        setPrepared(ready);
      },
      (failure: unknown) => {
        dispatch(paymentFailed(failure));
        setError(failureText(failure, COMMERCE_MESSAGES.paymentFailed));
      },
    );
  }, [createPayment, createSetupIntent, cycle, dispatch, offer]);

  if (error) return <FormAlert tone="error">{error}</FormAlert>;
  if (!prepared) {
    return (
      <p className="flex items-center gap-2 text-body text-muted" role="status">
        <Spinner size="sm" /> Preparing a secure card form…
      </p>
    );
  }
  return (
    <Elements stripe={stripePromise} options={{ clientSecret: prepared.clientSecret, appearance }}>
      <StripePaymentForm offer={offer} cycle={cycle} prepared={prepared} />
    </Elements>
  );
}

function StripePaymentForm({
  offer,
  cycle,
  prepared,
}: {
  offer: Offer;
  cycle: SubscriptionCycle;
  prepared: Prepared;
}) {
  const stripe = useStripe();
  const elements = useElements();
  const navigate = useNavigate();
  const dispatch = useCommerceDispatch();
  const [subscribe] = useSubscribeToArtistMutation();
  const [ready, setReady] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const subscription = offer.kind === 'subscription';

  async function fail(orderId: string | null, failure: unknown) {
    const message = failureText(failure, COMMERCE_MESSAGES.paymentFailed);
    dispatch(paymentFailed(failure));
    setError(message);
    await navigate(failurePath(orderId, message));
  }

  /**
   * A declined card or a card detail Stripe refused: said inside the form, which stays open for another card
   * (the intent is back to `requires_payment_method`, so the same order takes the next attempt).
   */
  function declined(failure: { type?: string; message?: string }): boolean {
    if (failure.type !== 'card_error' && failure.type !== 'validation_error') return false;
    dispatch(paymentFailed(failure));
    setError(failure.message ?? COMMERCE_MESSAGES.paymentFailed);
    return true;
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
      const returnUrl = `${window.location.origin}/payment-success`;
      if (!subscription) {
        const result = await stripe.confirmPayment({
          elements,
          clientSecret: prepared.clientSecret,
          confirmParams: { return_url: `${returnUrl}?orderId=${prepared.transactionId ?? ''}` },
          redirect: 'if_required',
        });
        if (result.error) {
          if (!declined(result.error)) await fail(prepared.transactionId, result.error);
          return;
        }
        await navigate(successPath(prepared.transactionId!));
        return;
      }
      // A subscription: save the card, subscribe with it, confirm the first payment if the bank asks.
      const setup = await stripe.confirmSetup({
        elements,
        clientSecret: prepared.clientSecret,
        confirmParams: { return_url: returnUrl },
        redirect: 'if_required',
      });
      if (setup.error) {
        if (!declined(setup.error)) await fail(null, setup.error);
        return;
      }
      const method = setup.setupIntent.payment_method;
      const paymentMethodId = typeof method === 'string' ? method : method?.id;
      if (!paymentMethodId) return await fail(null, new Error(COMMERCE_MESSAGES.paymentFailed));
      const created = await subscribe({
        artistId: offer.itemId,
        gateway: 'stripe',
        cycle: checkCycle(cycle),
        amount: offer.amount,
        paymentMethodId,
      }).unwrap();
      if (created.clientSecret) {
        const confirmed = await stripe.confirmCardPayment(created.clientSecret, {
          payment_method: paymentMethodId,
        });
        if (confirmed.error) return await fail(created.transactionId, confirmed.error);
      }
      await navigate(successPath(created.transactionId));
    } catch (failure) {
      await fail(prepared.transactionId, failure);
    } finally {
      setBusy(false);
    }
  }

  const price = formatMoney(offer.amount, offer.currency);
  return (
    <form onSubmit={(event) => void pay(event)} className="flex flex-col gap-4">
      <PaymentElement onReady={() => setReady(true)} options={{ layout: 'tabs' }} />
      {error ? (
        <FormAlert tone="error">{error} Check the details or use another card, then try again.</FormAlert>
      ) : null}
      <Button type="submit" size="lg" loading={busy} disabled={!stripe || !ready}>
        {subscription ? `Subscribe · ${price}` : `Pay ${price}`}
      </Button>
    </form>
  );
}
