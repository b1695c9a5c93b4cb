import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { PayPalButtons, PayPalScriptProvider, type ReactPayPalScriptOptions } from '@paypal/react-paypal-js';
import { FormAlert } from '../../../components/ui';
import { useSubscribeToArtistMutation } from '../commerce.api';
import { COMMERCE_MESSAGES } from '../commerce.constants';
import {
  useCapturePaypalOrderMutation,
  useConfirmPaypalSubscriptionMutation,
  useCreatePaypalOrderMutation,
} from '../payments.api';
import { purchaseBody, subscriptionRequest, type GatewayCheckoutProps } from './checkout-requests';
import { failurePath, failureText, successPath } from './checkout-result';

/**
 * Paying with the PayPal buttons. A purchase: the server creates the PayPal order, the buyer approves it in
 * PayPal's window, the server captures it (settled only at the order's amount). A subscription: the server creates
 * the PayPal subscription on the artist's plan, the buyer approves it, the server reads its first payment.
 */
export default function PaypalCheckout({ gateway, offer, cycle }: GatewayCheckoutProps) {
  const navigate = useNavigate();
  const [createOrder] = useCreatePaypalOrderMutation();
  const [capture] = useCapturePaypalOrderMutation();
  const [subscribe] = useSubscribeToArtistMutation();
  const [confirmSubscription] = useConfirmPaypalSubscriptionMutation();
  const [error, setError] = useState<string | null>(null);
  const transaction = useRef<string | null>(null);
  const subscription = offer.kind === 'subscription';

  const options: ReactPayPalScriptOptions = {
    clientId: gateway.publishableKey ?? '',
    currency: offer.currency,
    components: 'buttons',
    ...(subscription ? { intent: 'subscription', vault: true } : { intent: 'capture' }),
    ...(gateway.scriptUrl ? { sdkBaseUrl: gateway.scriptUrl } : {}),
  };

  async function fail(failure: unknown) {
    const message = failureText(failure, COMMERCE_MESSAGES.paymentFailed);
    setError(message);
    await navigate(failurePath(transaction.current, message));
  }

  return (
    <div className="flex flex-col gap-3">
      {error ? <FormAlert tone="error">{error}</FormAlert> : null}
      <PayPalScriptProvider options={options}>
        <PayPalButtons
          style={{
            layout: 'vertical',
            color: 'gold',
            shape: 'rect',
            label: subscription ? 'subscribe' : 'pay',
          }}
          forceReRender={[offer.itemId, offer.amount, cycle]}
          {...(subscription
            ? {
                createSubscription: async () => {
                  const created = await subscribe(subscriptionRequest(offer, 'paypal', cycle)).unwrap();
                  transaction.current = created.transactionId;
                  return created.subscriptionId!;
                },
                onApprove: async (data) => {
                  try {
                    await confirmSubscription({ subscriptionId: data.subscriptionID! }).unwrap();
                    await navigate(successPath(transaction.current!));
                  } catch (failure) {
                    await fail(failure);
                  }
                },
              }
            : {
                createOrder: async () => {
                  const created = await createOrder(purchaseBody(offer)).unwrap();
                  transaction.current = created.transactionId;
                  return created.id;
                },
                onApprove: async (data) => {
                  try {
                    const captured = await capture({ orderId: data.orderID }).unwrap();
                    await navigate(successPath(captured.order._id));
                  } catch (failure) {
                    await fail(failure);
                  }
                },
              })}
          onCancel={() => setError('You closed PayPal before paying. Nothing was charged.')}
          onError={(failure) => void fail(failure)}
        />
      </PayPalScriptProvider>
    </div>
  );
}
