import { addMonths } from '@backbeat/contract';
import type Stripe from 'stripe';
import { PaypalGateway } from '../../src/modules/payments/paypal/paypal.gateway';
import { readSales } from '../../src/modules/payments/paypal/paypal.facts';
import { RazorpayApi, type RzpInvoice } from '../../src/modules/payments/razorpay/razorpay-api';
import { createStripeClient } from '../../src/modules/payments/stripe/stripe.gateway';
import { invoicePaymentIntent } from '../../src/modules/payments/stripe/stripe.facts';
import { browserForm, postJson } from '../gateways.fixtures';
import type { TestUser } from '../payments.fixtures';
import { MONTHLY, type World } from './world';

/** A subscription the model started: the gateway's id and our first order. */
export interface ModelSubscription {
  externalId: string;
  orderId: string;
}

/** One payment of a subscription at the gateway: the period it pays for and the money it still holds. */
export interface PaidPeriod {
  paymentId: string;
  start: Date;
  end: Date;
  captured: number;
  net: number;
}

/** A gateway's subscriptions as the model drives them. */
export interface SubscriptionDriver {
  subscribe(world: World, buyer: TestUser, confirm: boolean): Promise<ModelSubscription | null>;
  /** A renewal attempt that the bank declines (the subscription goes past due; the paid period still plays). */
  failRenewal(world: World, subscription: ModelSubscription): Promise<void>;
  /** The gateway refunds one of the subscription's payments in full (from its dashboard). */
  refundPeriod(world: World, subscription: ModelSubscription, pick: number): Promise<void>;
  periods(world: World, subscription: ModelSubscription): Promise<PaidPeriod[]>;
  /** Ends it at the gateway at once (between histories, so that it stops renewing on the moving clock). */
  end(world: World, subscription: ModelSubscription): Promise<void>;
}

const subscribeBody = (gateway: string, extra: Record<string, unknown> = {}) => ({
  gateway,
  cycle: '1m',
  amount: MONTHLY,
  ...extra,
});
const control = (base: string, path: string, body: Record<string, unknown> = {}) =>
  postJson(`${base}/_emulator${path}`, body);
const pickOf = <T>(list: T[], pick: number): T | undefined =>
  list.length ? list[pick % list.length] : undefined;

export function stripeSubscriptions(world: World): SubscriptionDriver {
  const { credentials, emulator } = world.g;
  const stripe: Stripe = createStripeClient({ ...credentials.stripe, apiBase: emulator.stripe.url });
  const key = credentials.stripe.publishableKey;
  const card = async () =>
    browserForm(emulator.stripe.url, key, '/v1/payment_methods', {
      type: 'card',
      'card[number]': '4242424242424242',
      'card[exp_month]': '12',
      'card[exp_year]': '39',
      'card[cvc]': '123',
    });
  const paidIntents = async (subscription: ModelSubscription) => {
    const out: Array<{ invoice: Stripe.Invoice; intent: string }> = [];
    for await (const invoice of stripe.invoices.list({
      subscription: subscription.externalId,
      expand: ['data.payments'],
      limit: 100,
    })) {
      const intent = invoicePaymentIntent(invoice);
      if (invoice.status === 'paid' && intent) out.push({ invoice, intent });
    }
    return out.sort((a, b) => a.invoice.created - b.invoice.created);
  };
  return {
    async subscribe(w, buyer) {
      const setup = await w.http.post('/api/subscriptions/setup-intent', {}, buyer);
      if (setup.statusCode !== 200) return null;
      const secret = setup.json<{ clientSecret: string }>().clientSecret;
      const method = await card();
      const saved = await browserForm(
        emulator.stripe.url,
        key,
        `/v1/setup_intents/${secret.split('_secret_')[0]}/confirm`,
        {
          client_secret: secret,
          payment_method: String(method.body.id),
        },
      );
      if (saved.body.status !== 'succeeded') return null;
      const created = await w.http.post(
        `/api/subscriptions/artist/${w.ids.artist}`,
        subscribeBody('stripe', { paymentMethodId: String(method.body.id) }),
        buyer,
      );
      if (created.statusCode !== 201) return null;
      const body = created.json<{
        transactionId: string;
        clientSecret: string | null;
        subscriptionId: string;
      }>();
      if (body.clientSecret) {
        await browserForm(
          emulator.stripe.url,
          key,
          `/v1/payment_intents/${body.clientSecret.split('_secret_')[0]}/confirm`,
          {
            client_secret: body.clientSecret,
            payment_method: String(method.body.id),
          },
        );
      }
      return { externalId: body.subscriptionId, orderId: body.transactionId };
    },
    async failRenewal(_w, subscription) {
      await control(emulator.stripe.url, `/subscriptions/${subscription.externalId}/renew`, {
        outcome: 'failed',
      });
    },
    async refundPeriod(_w, subscription, pick) {
      const paid = pickOf(await paidIntents(subscription), pick);
      if (paid) await control(emulator.stripe.url, `/charges/${paid.intent}/refund`);
    },
    async periods(_w, subscription) {
      const out: PaidPeriod[] = [];
      for (const { invoice, intent } of await paidIntents(subscription)) {
        const pi = await stripe.paymentIntents.retrieve(intent);
        const charge = await stripe.charges.retrieve(String(pi.latest_charge));
        const line = invoice.lines.data[0];
        out.push({
          paymentId: invoice.id!,
          start: new Date((line?.period?.start ?? invoice.period_start) * 1000),
          end: new Date((line?.period?.end ?? invoice.period_end) * 1000),
          captured: invoice.amount_paid,
          net: invoice.amount_paid - charge.amount_refunded,
        });
      }
      return out;
    },
    async end(_w, subscription) {
      const remote = await stripe.subscriptions.retrieve(subscription.externalId);
      if (remote.status !== 'canceled' && remote.status !== 'incomplete_expired') {
        await stripe.subscriptions.cancel(subscription.externalId);
      }
    },
  };
}

export function razorpaySubscriptions(world: World): SubscriptionDriver {
  const { credentials, emulator } = world.g;
  const api = new RazorpayApi({ ...credentials.razorpay, baseUrl: emulator.razorpay.url });
  const invoices = async (subscription: ModelSubscription) => {
    const out: RzpInvoice[] = [];
    for await (const invoice of api.list<RzpInvoice>(
      'invoices',
      0,
      Math.floor(emulator.clock.nowSeconds() + 60),
    )) {
      if (
        invoice.subscription_id === subscription.externalId &&
        invoice.status === 'paid' &&
        invoice.payment_id
      ) {
        out.push(invoice);
      }
    }
    return out.sort((a, b) => Number(a.billing_start) - Number(b.billing_start));
  };
  return {
    async subscribe(w, buyer, confirm) {
      const created = await w.http.post(
        `/api/subscriptions/artist/${w.ids.artist}`,
        subscribeBody('razorpay'),
        buyer,
      );
      if (created.statusCode !== 201) return null;
      const body = created.json<{ subscriptionId: string; transactionId: string }>();
      const paid = await control(emulator.razorpay.url, '/checkout/pay', {
        key: credentials.razorpay.keyId,
        card: '4111111111111111',
        outcome: 'success',
        subscription_id: body.subscriptionId,
      });
      const response = paid.body?.response as Record<string, string> | undefined;
      if (confirm && response) await w.http.post('/api/payments/razorpay/verify', response, buyer);
      return { externalId: body.subscriptionId, orderId: body.transactionId };
    },
    async failRenewal(_w, subscription) {
      await control(emulator.razorpay.url, `/subscriptions/${subscription.externalId}/charge`, {
        outcome: 'failed',
      });
    },
    async refundPeriod(_w, subscription, pick) {
      const invoice = pickOf(await invoices(subscription), pick);
      if (invoice) await control(emulator.razorpay.url, `/payments/${invoice.payment_id}/refund`);
    },
    async periods(_w, subscription) {
      const out: PaidPeriod[] = [];
      for (const invoice of await invoices(subscription)) {
        const payment = await api.fetchPayment(invoice.payment_id!);
        out.push({
          paymentId: payment.id,
          start: new Date(Number(invoice.billing_start) * 1000),
          end: new Date(Number(invoice.billing_end) * 1000),
          captured: Number(payment.amount),
          net: Number(payment.amount) - Number(payment.amount_refunded),
        });
      }
      return out;
    },
    async end(_w, subscription) {
      const remote = await api.fetchSubscription(subscription.externalId);
      if (!['cancelled', 'completed', 'expired'].includes(remote.status)) {
        await api.cancelSubscription(subscription.externalId, false);
      }
    },
  };
}

export function paypalSubscriptions(world: World): SubscriptionDriver {
  const { credentials, emulator } = world.g;
  const paypal = new PaypalGateway({
    ...credentials.paypal,
    environment: 'sandbox',
    apiBase: emulator.paypal.url,
  });
  const sales = async (subscription: ModelSubscription) => {
    const now = emulator.clock.now();
    const body = await paypal.subscriptionTransactions(
      subscription.externalId,
      new Date(now.getTime() - 400 * 24 * 3600 * 1000),
      new Date(now.getTime() + 24 * 3600 * 1000),
    );
    return readSales(body)
      .filter((sale) => ['COMPLETED', 'REFUNDED', 'PARTIALLY_REFUNDED'].includes(sale.status))
      .sort((a, b) => a.time.getTime() - b.time.getTime());
  };
  return {
    async subscribe(w, buyer, confirm) {
      const created = await w.http.post(
        `/api/subscriptions/artist/${w.ids.artist}`,
        subscribeBody('paypal'),
        buyer,
      );
      if (created.statusCode !== 201) return null;
      const body = created.json<{ subscriptionId: string; transactionId: string }>();
      await control(emulator.paypal.url, `/approve/subscription/${body.subscriptionId}`);
      if (confirm) {
        await w.http.post(
          '/api/payments/paypal/confirm-subscription',
          { subscriptionId: body.subscriptionId },
          buyer,
        );
      }
      return { externalId: body.subscriptionId, orderId: body.transactionId };
    },
    async failRenewal(_w, subscription) {
      await control(emulator.paypal.url, `/subscriptions/${subscription.externalId}/bill`, {
        outcome: 'failed',
      });
    },
    async refundPeriod(_w, subscription, pick) {
      const sale = pickOf(
        (await sales(subscription)).filter((entry) => entry.status === 'COMPLETED'),
        pick,
      );
      if (sale) await control(emulator.paypal.url, `/sales/${sale.saleId}/refund`);
    },
    async periods(_w, subscription) {
      const list = await sales(subscription);
      const remote = await paypal.subscriptions.getSubscription({ id: subscription.externalId });
      const next = remote.result.billingInfo?.nextBillingTime;
      return list.map((sale, index) => {
        const following = list[index + 1]?.time ?? (next ? new Date(next) : addMonths(sale.time, 1));
        return {
          paymentId: sale.saleId,
          start: sale.time,
          end: following,
          captured: sale.amount,
          net: sale.status === 'COMPLETED' ? sale.amount : 0,
        };
      });
    },
    async end(_w, subscription) {
      await paypal.cancelSubscription({ externalId: subscription.externalId } as never);
    },
  };
}

export const SUBSCRIPTION_DRIVERS = {
  stripe: stripeSubscriptions,
  razorpay: razorpaySubscriptions,
  paypal: paypalSubscriptions,
};
