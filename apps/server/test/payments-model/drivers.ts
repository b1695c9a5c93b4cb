import type Stripe from 'stripe';
import { PaypalGateway, paypalIssue } from '../../src/modules/payments/paypal/paypal.gateway';
import { capturesIn } from '../../src/modules/payments/paypal/paypal.facts';
import { RazorpayApi } from '../../src/modules/payments/razorpay/razorpay-api';
import { createStripeClient } from '../../src/modules/payments/stripe/stripe.gateway';
import { browserForm, postJson } from '../gateways.fixtures';
import type { TestUser } from '../payments.fixtures';
import { PRICES, type ItemKey, type World } from './world';

/** One checkout the model opened: our order and the gateway's ids for it, as they become known. */
export interface ModelOrder {
  item: ItemKey;
  orderId: string;
  /** The gateway's checkout object: PaymentIntent, Razorpay order, PayPal order. */
  checkoutId: string;
  clientSecret?: string;
  /** The gateway's id of the money once taken: PaymentIntent, Razorpay payment, PayPal capture. */
  paymentId?: string;
  disputeId?: string;
}

/** What the gateway holds for an order now, read from its API (the truth the ledger must match). */
export interface ProviderMoney {
  /** The money id it took, if any. */
  paymentId: string | null;
  captured: number;
  /** Captured, less refunds, less what a dispute holds back (given back when won). */
  net: number;
}

/** A gateway as the model drives it: the buyer's side (checkout, pay) and the gateway's (refunds, disputes). */
export interface Driver {
  gateway: 'stripe' | 'razorpay' | 'paypal';
  open(world: World, buyer: TestUser, item: ItemKey): Promise<ModelOrder | null>;
  /** The buyer pays (or is declined); `confirm` says whether their browser reports back to our server. */
  pay(world: World, buyer: TestUser, order: ModelOrder, ok: boolean, confirm: boolean): Promise<void>;
  refund(world: World, order: ModelOrder, partial: boolean): Promise<void>;
  dispute(world: World, order: ModelOrder): Promise<void>;
  closeDispute(world: World, order: ModelOrder, won: boolean): Promise<void>;
  truth(world: World, order: ModelOrder): Promise<ProviderMoney>;
}

const itemBody = (world: World, item: ItemKey) => ({
  itemType: item === 'albumX' ? ('album' as const) : ('song' as const),
  itemId: world.ids[item],
  amount: PRICES[item],
});

const control = (base: string, path: string, body: Record<string, unknown> = {}) =>
  postJson(`${base}/_emulator${path}`, body);

// ---------------------------------------------------------------------------------------------------------------

export function stripeDriver(world: World): Driver {
  const { credentials, emulator } = world.g;
  const stripe: Stripe = createStripeClient({ ...credentials.stripe, apiBase: emulator.stripe.url });
  return {
    gateway: 'stripe',
    async open(w, buyer, item) {
      const res = await w.http.post('/api/payments/stripe/create-payment', itemBody(w, item), buyer);
      if (res.statusCode !== 200) return null;
      const body = res.json<{ clientSecret: string; transactionId: string; paymentIntentId: string }>();
      return {
        item,
        orderId: body.transactionId,
        checkoutId: body.paymentIntentId,
        clientSecret: body.clientSecret,
      };
    },
    async pay(_w, _buyer, order, ok) {
      const key = credentials.stripe.publishableKey;
      const method = await browserForm(emulator.stripe.url, key, '/v1/payment_methods', {
        type: 'card',
        'card[number]': ok ? '4242424242424242' : '4000000000000002',
        'card[exp_month]': '12',
        'card[exp_year]': '39',
        'card[cvc]': '123',
      });
      // Stripe.js confirms in the browser; a cancelled PaymentIntent is refused (the model expects that).
      const confirmed = await browserForm(
        emulator.stripe.url,
        key,
        `/v1/payment_intents/${order.checkoutId}/confirm`,
        { client_secret: order.clientSecret!, payment_method: String(method.body.id) },
      );
      if (confirmed.body.status === 'succeeded') order.paymentId = order.checkoutId;
    },
    async refund(_w, order, partial) {
      await control(
        emulator.stripe.url,
        `/charges/${order.checkoutId}/refund`,
        partial ? { amount: 10 } : {},
      );
    },
    async dispute(_w, order) {
      const res = await control(emulator.stripe.url, `/charges/${order.checkoutId}/dispute`);
      if (res.status === 200 && typeof res.body?.id === 'string') order.disputeId = res.body.id;
    },
    async closeDispute(_w, order, won) {
      if (!order.disputeId) return;
      await control(emulator.stripe.url, `/disputes/${order.disputeId}/close`, {
        outcome: won ? 'won' : 'lost',
      });
    },
    async truth(_w, order) {
      const intent = await stripe.paymentIntents.retrieve(order.checkoutId);
      if (intent.status !== 'succeeded') return { paymentId: null, captured: 0, net: 0 };
      const charge = await stripe.charges.retrieve(String(intent.latest_charge));
      let held = 0;
      if (charge.disputed) {
        for await (const dispute of stripe.disputes.list({ payment_intent: intent.id })) {
          if (
            dispute.status !== 'won' &&
            !dispute.status.startsWith('warning') &&
            dispute.status !== 'prevented'
          ) {
            held += dispute.amount;
          }
        }
      }
      return {
        paymentId: intent.id,
        captured: intent.amount_received,
        net: intent.amount_received - charge.amount_refunded - held,
      };
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------

export function razorpayDriver(world: World): Driver {
  const { credentials, emulator } = world.g;
  const api = new RazorpayApi({ ...credentials.razorpay, baseUrl: emulator.razorpay.url });
  return {
    gateway: 'razorpay',
    async open(w, buyer, item) {
      const res = await w.http.post('/api/payments/razorpay/create-order', itemBody(w, item), buyer);
      if (res.statusCode !== 200) return null;
      const body = res.json<{ order: { id: string }; transactionId: string }>();
      return { item, orderId: body.transactionId, checkoutId: body.order.id };
    },
    async pay(w, buyer, order, ok, confirm) {
      const paid = await control(emulator.razorpay.url, '/checkout/pay', {
        key: credentials.razorpay.keyId,
        card: '4111111111111111',
        outcome: ok ? 'success' : 'failure',
        order_id: order.checkoutId,
      });
      const response = paid.body?.response as Record<string, string> | undefined;
      if (response?.razorpay_payment_id) order.paymentId = response.razorpay_payment_id;
      // Checkout's handler posts the signed result to our server (unless the buyer closed the tab first).
      if (ok && confirm && response) await w.http.post('/api/payments/razorpay/verify', response, buyer);
    },
    async refund(_w, order, partial) {
      if (!order.paymentId) return;
      await control(
        emulator.razorpay.url,
        `/payments/${order.paymentId}/refund`,
        partial ? { amount: 10 } : {},
      );
    },
    async dispute(_w, order) {
      if (!order.paymentId) return;
      const res = await control(emulator.razorpay.url, `/payments/${order.paymentId}/dispute`);
      if (res.status === 200 && typeof res.body?.id === 'string') order.disputeId = res.body.id;
    },
    async closeDispute(_w, order, won) {
      if (!order.disputeId) return;
      await control(emulator.razorpay.url, `/disputes/${order.disputeId}/close`, {
        outcome: won ? 'won' : 'lost',
      });
    },
    async truth(_w, order) {
      // An order may carry several payments (paid again from a second tab): what Razorpay holds is their sum.
      const all = (await api.paymentsOfOrder(order.checkoutId)).items;
      let captured = 0;
      let net = 0;
      let paymentId: string | null = null;
      for (const payment of all) {
        if (payment.status !== 'captured' && payment.status !== 'refunded') continue;
        paymentId ??= payment.id;
        let held = 0;
        if (order.disputeId) {
          const dispute = await api.fetchDispute(order.disputeId);
          if (dispute.payment_id === payment.id && dispute.status !== 'won')
            held = Number(dispute.amount_deducted ?? 0);
        }
        captured += Number(payment.amount);
        net += Number(payment.amount) - Number(payment.amount_refunded) - held;
      }
      return { paymentId, captured, net };
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------

export function paypalDriver(world: World): Driver {
  const { credentials, emulator } = world.g;
  const paypal = new PaypalGateway({
    ...credentials.paypal,
    environment: 'sandbox',
    apiBase: emulator.paypal.url,
  });
  const captureOf = async (order: ModelOrder) => {
    try {
      const { body } = await paypal.orders.getOrder({ id: order.checkoutId });
      return capturesIn(JSON.parse(String(body)) as Record<string, unknown>)[0] ?? null;
    } catch (error) {
      // An order nobody captured is forgotten by PayPal three hours later: it took no money.
      if (paypalIssue(error)?.status === 404) return null;
      throw error;
    }
  };
  return {
    gateway: 'paypal',
    async open(w, buyer, item) {
      const res = await w.http.post('/api/payments/paypal/create-order', itemBody(w, item), buyer);
      if (res.statusCode !== 200) return null;
      const body = res.json<{ id: string; transactionId: string }>();
      return { item, orderId: body.transactionId, checkoutId: body.id };
    },
    async pay(w, buyer, order, ok, confirm) {
      const approved = await control(emulator.paypal.url, `/orders/${order.checkoutId}/approve`, {
        buyer: ok ? 'pays' : 'declined',
      });
      // The buttons' onApprove asks our server to capture (unless the buyer closed the window first).
      if (approved.status === 200 && confirm) {
        const captured = await w.http.post(
          '/api/payments/paypal/capture-order',
          { orderId: order.checkoutId },
          buyer,
        );
        if (captured.statusCode === 200 || captured.statusCode === 409) order.paymentId = order.checkoutId;
      }
    },
    async refund(_w, order, partial) {
      const capture = await captureOf(order);
      if (!capture) return;
      await control(emulator.paypal.url, `/captures/${capture.id}/refund`, partial ? { amount: '0.10' } : {});
    },
    async dispute(_w, order) {
      const capture = await captureOf(order);
      if (!capture) return;
      const res = await control(emulator.paypal.url, `/transactions/${capture.id}/dispute`);
      const id = res.body?.dispute_id;
      if (res.status === 200 && typeof id === 'string') order.disputeId = id;
    },
    async closeDispute(_w, order, won) {
      if (!order.disputeId) return;
      await control(emulator.paypal.url, `/disputes/${order.disputeId}/resolve`, {
        outcome: won ? 'seller' : 'buyer',
      });
    },
    async truth(_w, order) {
      const capture = await captureOf(order);
      if (!capture || !['COMPLETED', 'PARTIALLY_REFUNDED', 'REFUNDED'].includes(capture.status)) {
        return { paymentId: null, captured: 0, net: 0 };
      }
      const refunded = capture.refunds.reduce((sum, refund) => sum + refund.amount, 0);
      let held = 0;
      if (order.disputeId) {
        const dispute = await paypal.getDispute(order.disputeId);
        const outcome = (dispute.dispute_outcome as { outcome_code?: string } | undefined)?.outcome_code;
        const won = dispute.status === 'RESOLVED' && outcome === 'RESOLVED_SELLER_FAVOUR';
        if (!won) held = capture.amount;
      }
      return { paymentId: capture.id, captured: capture.amount, net: capture.amount - refunded - held };
    },
  };
}

export const DRIVERS = { stripe: stripeDriver, razorpay: razorpayDriver, paypal: paypalDriver };
