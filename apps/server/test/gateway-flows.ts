import { expect } from 'vitest';
import { browserForm, postJson, type GatewayTestApp } from './gateways.fixtures';
import type { requests, TestUser } from './payments.fixtures';

type Http = ReturnType<typeof requests>;

/**
 * Each gateway's checkout as the web app and the buyer drive it (the provider's browser script stand-in, its test
 * checkout), for tests that need a paid order or subscription to start from.
 */
export function gatewayFlows(g: GatewayTestApp, http: Http) {
  const stripeKey = g.credentials.stripe.publishableKey;
  /** What Stripe.js does in the Payment Element: a PaymentMethod from the card, then confirm with the secret. */
  async function stripeConfirm(clientSecret: string, card = '4242424242424242') {
    const method = await browserForm(g.emulator.stripe.url, stripeKey, '/v1/payment_methods', {
      type: 'card',
      'card[number]': card,
      'card[exp_month]': '12',
      'card[exp_year]': '39',
      'card[cvc]': '123',
    });
    const id = clientSecret.split('_secret_')[0]!;
    const kind = id.startsWith('seti_') ? 'setup_intents' : 'payment_intents';
    const confirmed = await browserForm(g.emulator.stripe.url, stripeKey, `/v1/${kind}/${id}/confirm`, {
      client_secret: clientSecret,
      payment_method: String(method.body.id),
    });
    return { ...confirmed, paymentMethod: String(method.body.id) };
  }

  return {
    stripeConfirm,

    /** A Stripe subscription: save the card, subscribe, confirm the first invoice's payment. */
    async stripeSubscribe(user: TestUser, artistId: string, amount: number) {
      const setup = await http.post('/api/subscriptions/setup-intent', {}, user);
      expect(setup.statusCode, setup.body).toBe(200);
      const saved = await stripeConfirm(setup.json<{ clientSecret: string }>().clientSecret);
      const created = await http.post(
        `/api/subscriptions/artist/${artistId}`,
        { gateway: 'stripe', cycle: '1m', amount, paymentMethodId: saved.paymentMethod },
        user,
      );
      expect(created.statusCode, created.body).toBe(201);
      const body = created.json<{ transactionId: string; clientSecret: string; subscriptionId: string }>();
      const confirmed = await browserForm(
        g.emulator.stripe.url,
        stripeKey,
        `/v1/payment_intents/${body.clientSecret.split('_secret_')[0]}/confirm`,
        { client_secret: body.clientSecret, payment_method: saved.paymentMethod },
      );
      expect(confirmed.body.status).toBe('succeeded');
      return body;
    },

    /** A PayPal subscription: create, the buyer approves it in PayPal, the web app confirms it. */
    async paypalSubscribe(user: TestUser, artistId: string, amount: number) {
      const created = await http.post(
        `/api/subscriptions/artist/${artistId}`,
        { gateway: 'paypal', cycle: '1m', amount },
        user,
      );
      expect(created.statusCode, created.body).toBe(201);
      const body = created.json<{ subscriptionId: string; transactionId: string }>();
      expect(
        (await postJson(`${g.emulator.paypal.url}/_emulator/approve/subscription/${body.subscriptionId}`, {}))
          .status,
      ).toBe(200);
      const confirmed = await http.post(
        '/api/payments/paypal/confirm-subscription',
        { subscriptionId: body.subscriptionId },
        user,
      );
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      return body;
    },

    /** Razorpay Checkout paid (or failed) for one of our orders; answers the signed handler result. */
    async razorpayCheckout(target: { order_id?: string; subscription_id?: string }, outcome = 'success') {
      const paid = await postJson(`${g.emulator.razorpay.url}/_emulator/checkout/pay`, {
        key: g.credentials.razorpay.keyId,
        card: '4111111111111111',
        outcome,
        ...target,
      });
      expect(paid.status, JSON.stringify(paid.body)).toBe(200);
      return paid.body!.response as Record<string, string>;
    },
  };
}
