import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button, FormAlert } from '../../../components/ui';
import { formatMoney } from '../../../lib/format';
import { useSubscribeToArtistMutation } from '../commerce.api';
import { COMMERCE_MESSAGES } from '../commerce.constants';
import { useCommerceSelector } from '../commerce.store';
import { useCreateRazorpayOrderMutation, useVerifyRazorpayMutation } from '../payments.api';
import { failurePath, failureText, successPath } from './checkout-result';
import { purchaseBody, subscriptionRequest, type GatewayCheckoutProps } from './checkout-requests';
import { loadScriptOnce } from './load-script';

const RAZORPAY_CHECKOUT_URL = 'https://checkout.razorpay.com/v1/checkout.js';

/** The result Razorpay Checkout hands its `handler`. */
interface RazorpaySuccess {
  razorpay_payment_id: string;
  razorpay_order_id?: string;
  razorpay_subscription_id?: string;
  razorpay_signature: string;
}

interface RazorpayFailure {
  error?: { code?: string; description?: string; reason?: string };
}

interface RazorpayInstance {
  open(): void;
  on(event: 'payment.failed', handler: (response: RazorpayFailure) => void): void;
}

type RazorpayConstructor = new (options: Record<string, unknown>) => RazorpayInstance;

/**
 * Paying with Razorpay Checkout: the server creates the order (or the subscription), Checkout collects the payment,
 * and its signed result is verified by the server before anything is granted.
 */
export default function RazorpayCheckout({
  gateway,
  offer,
  cycle,
  onHandOff,
}: GatewayCheckoutProps & { onHandOff: () => void }) {
  const navigate = useNavigate();
  const user = useCommerceSelector((state) => state.auth.user);
  const [createOrder] = useCreateRazorpayOrderMutation();
  const [subscribe] = useSubscribeToArtistMutation();
  const [verify] = useVerifyRazorpayMutation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function fail(orderId: string | null, failure: unknown) {
    const message = failureText(failure, COMMERCE_MESSAGES.paymentFailed);
    setError(message);
    setBusy(false);
    await navigate(failurePath(orderId, message));
  }

  async function start() {
    setBusy(true);
    setError(null);
    let transactionId: string | null = null;
    try {
      await loadScriptOnce(gateway.scriptUrl ?? RAZORPAY_CHECKOUT_URL);
      const Razorpay = (window as unknown as { Razorpay?: RazorpayConstructor }).Razorpay;
      if (!Razorpay) throw new Error('Razorpay Checkout could not be loaded');
      const common = {
        key: gateway.publishableKey,
        name: 'Backbeat',
        description: offer.itemTitle,
        prefill: { name: user?.name ?? '', email: user?.email ?? '' },
        theme: { color: '#ff5a36' },
        modal: { ondismiss: () => setBusy(false) },
      };
      let target: Record<string, unknown>;
      if (offer.kind === 'subscription') {
        const created = await subscribe(subscriptionRequest(offer, 'razorpay', cycle)).unwrap();
        transactionId = created.transactionId;
        target = { subscription_id: created.subscriptionId };
      } else {
        const created = await createOrder(purchaseBody(offer)).unwrap();
        transactionId = created.transactionId;
        target = {
          order_id: created.order.id,
          amount: created.order.amount,
          currency: created.order.currency,
        };
      }
      const orderId = transactionId ?? '';
      const checkout = new Razorpay({
        ...common,
        ...target,
        handler: (response: RazorpaySuccess) => {
          verify(response)
            .unwrap()
            .then(async () => {
              await navigate(successPath(orderId));
            })
            .catch((failure: unknown) => fail(orderId, failure));
        },
      });
      checkout.on('payment.failed', (response) => {
        void fail(orderId, response.error ?? new Error(COMMERCE_MESSAGES.paymentFailed));
      });
      // Razorpay's window lives outside our modal dialog, which would make it inert: hand over to it.
      onHandOff();
      checkout.open();
    } catch (failure) {
      await fail(transactionId, failure);
    }
  }

  return (
    <div className="flex flex-col gap-3">
      <p className="text-body text-muted">
        UPI, cards, netbanking and wallets, in Razorpay&apos;s secure window.
      </p>
      {error ? <FormAlert tone="error">{error}</FormAlert> : null}
      <Button size="lg" loading={busy} onClick={() => void start()}>
        Pay {formatMoney(offer.amount, offer.currency)} with Razorpay
      </Button>
    </div>
  );
}
