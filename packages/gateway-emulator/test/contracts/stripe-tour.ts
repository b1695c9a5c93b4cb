import Stripe from 'stripe';
import type { Exchange, GatewayEmulator } from '../../src/index';
import { browserPost, postJson, type LooseJson } from '../support';
import type { TypedSample } from './typecheck';

const DAY = 24 * 3600 * 1000;

/** The Stripe type of every JSON body a route answers (errors have Stripe's error envelope). */
export function stripeType(exchange: Exchange): string | null {
  if (exchange.path.startsWith('/_') || exchange.body === undefined) return null;
  if (exchange.status >= 400) return 'StripeErrorBody';
  const [, resource, id] = /^\/v1\/([a-z_]+)(?:\/([^/]+))?/.exec(exchange.path) ?? [];
  const types: Record<string, string> = {
    customers: 'Stripe.Customer',
    payment_methods: 'Stripe.PaymentMethod',
    payment_intents: 'Stripe.PaymentIntent',
    setup_intents: 'Stripe.SetupIntent',
    products: 'Stripe.Product',
    prices: 'Stripe.Price',
    subscriptions: 'Stripe.Subscription',
    invoices: 'Stripe.Invoice',
    charges: 'Stripe.Charge',
    refunds: 'Stripe.Refund',
    disputes: 'Stripe.Dispute',
    events: 'Stripe.Event',
  };
  const type = resource ? types[resource] : undefined;
  if (!type) return 'never';
  if (resource === 'customers' && (exchange.body as { deleted?: boolean }).deleted)
    return 'Stripe.DeletedCustomer';
  return id === undefined && exchange.method === 'GET' ? `Stripe.ApiList<${type}>` : type;
}

export const STRIPE_HEADER = `import type Stripe from 'stripe';
/** Stripe's error envelope: the raw error (type and message always present). */
type StripeErrorBody = { error: Stripe.StripeRawError & { type: Stripe.RawErrorType; message: string; request_log_url: string } };`;

export const stripeSamples = (exchanges: Exchange[], webhooks: string[]): TypedSample[] => [
  ...exchanges
    .filter((x) => x.gateway === 'stripe')
    .flatMap((x) => {
      const type = stripeType(x);
      return type ? [{ label: `${x.method} ${x.path} → ${x.status}`, type, value: x.body }] : [];
    }),
  ...webhooks.map((body) => {
    const event = JSON.parse(body) as { type: string; id: string };
    return { label: `webhook ${event.type} ${event.id}`, type: 'Stripe.Event', value: event };
  }),
];

/**
 * Calls every Stripe route the emulator has, as stripe-node and Stripe.js do, through the states Backbeat meets:
 * payments (paid, declined, 3-D Secure, cancelled), partial and full refunds, a failed refund, disputes won and
 * lost, a subscription through its first invoice, a renewal, a failed renewal and its end, lists and events, and
 * the errors on the way.
 */
export async function stripeTour(
  emulator: GatewayEmulator,
  stripe: Stripe,
  keys: { publishableKey: string; secretKey: string },
): Promise<void> {
  const base = emulator.stripe.url;
  const browser = (path: string, form: Record<string, string>) =>
    browserPost(base, keys.publishableKey, path, form);
  const card = async (number: string) =>
    (
      await browser('/v1/payment_methods', {
        type: 'card',
        'card[number]': number,
        'card[exp_month]': '12',
        'card[exp_year]': '39',
        'card[cvc]': '123',
        'billing_details[name]': 'Test Buyer',
      })
    ).body as LooseJson;
  const payIntent = async (intent: Stripe.PaymentIntent, number: string) =>
    browser(`/v1/payment_intents/${intent.id}/confirm`, {
      client_secret: intent.client_secret!,
      payment_method: (await card(number)).id as string,
    });
  const swallow = (promise: Promise<unknown>) => promise.catch(() => undefined);

  const customer = await stripe.customers.create({
    email: 'tour@example.com',
    name: 'Tour',
    metadata: { user_id: 'u1' },
  });
  await stripe.customers.retrieve(customer.id);
  await stripe.customers.update(customer.id, { name: 'Tour Buyer', address: { country: 'US' } });

  // One-off payments: paid, declined then paid, 3-D Secure, cancelled.
  const paid = await stripe.paymentIntents.create({
    amount: 1299,
    currency: 'usd',
    customer: customer.id,
    metadata: { order_id: 'o1' },
    automatic_payment_methods: { enabled: true },
  });
  await payIntent(paid, '4242424242424242');
  await stripe.paymentIntents.retrieve(paid.id, { expand: ['latest_charge'] });
  await browser(`/v1/payment_intents/${paid.id}`, { client_secret: paid.client_secret! }).catch(
    () => undefined,
  );
  await fetch(`${base}/v1/payment_intents/${paid.id}?client_secret=${paid.client_secret!}`, {
    headers: { authorization: `Bearer ${keys.publishableKey}` },
  });
  const declined = await stripe.paymentIntents.create({ amount: 500, currency: 'usd' });
  await payIntent(declined, '4000000000000002');
  await payIntent(declined, '4242424242424242');
  const challenged = await stripe.paymentIntents.create({ amount: 700, currency: 'eur' });
  await payIntent(challenged, '4000002500003155');
  await postJson(`${base}/_emulator/3ds/${challenged.id}`, {
    client_secret: challenged.client_secret,
    outcome: 'complete',
  });
  const abandoned = await stripe.paymentIntents.create({
    amount: 900,
    currency: 'usd',
    customer: customer.id,
  });
  await stripe.paymentIntents.cancel(abandoned.id, { cancellation_reason: 'abandoned' });
  await swallow(payIntent(abandoned, '4242424242424242'));
  await swallow(stripe.paymentIntents.cancel(paid.id));
  await stripe.paymentIntents.list({ customer: customer.id, limit: 2 });

  // Refunds: partial, the rest, one too many; a refund that fails later.
  const chargeId = (await stripe.paymentIntents.retrieve(paid.id)).latest_charge as string;
  await stripe.refunds.create({ payment_intent: paid.id, amount: 300, reason: 'requested_by_customer' });
  await swallow(stripe.refunds.create({ charge: chargeId, amount: 5000 }));
  const rest = await stripe.refunds.create({ charge: chargeId });
  await swallow(stripe.refunds.create({ charge: chargeId }));
  await swallow(stripe.refunds.create({ charge: chargeId, reason: 'changed_mind' as 'duplicate' }));
  await stripe.refunds.retrieve(rest.id);
  await stripe.charges.retrieve(chargeId, { expand: ['refunds'] });
  await stripe.refunds.list({ charge: chargeId });
  await stripe.refunds.list({ payment_intent: paid.id, limit: 1 });
  const failing = await stripe.refunds.create({ payment_intent: declined.id, amount: 100 });
  await postJson(`${base}/_emulator/refunds/${failing.id}/fail`, {});

  // Disputes: one won, one lost; a disputed charge cannot be refunded.
  const won = await postJson(`${base}/_emulator/charges/${challenged.id}/dispute`, {});
  await swallow(stripe.refunds.create({ payment_intent: challenged.id }));
  await postJson(`${base}/_emulator/disputes/${won.body.id as string}/close`, { outcome: 'won' });
  const another = await stripe.paymentIntents.create({
    amount: 1500,
    currency: 'usd',
    customer: customer.id,
  });
  await payIntent(another, '5555555555554444');
  const lost = await postJson(`${base}/_emulator/charges/${another.id}/dispute`, {});
  await postJson(`${base}/_emulator/disputes/${lost.body.id as string}/close`, { outcome: 'lost' });
  await stripe.disputes.retrieve(lost.body.id as string);
  await stripe.disputes.list({ payment_intent: another.id });
  await stripe.charges.list({ customer: customer.id });
  await stripe.charges.list({ payment_intent: another.id, created: { gte: 0 } });

  // A subscription: card saved with a SetupIntent, the first invoice paid in the browser, renewals on the clock.
  const setup = await stripe.setupIntents.create({ customer: customer.id, usage: 'off_session' });
  await stripe.setupIntents.retrieve(setup.id);
  const saved = await browser(`/v1/setup_intents/${setup.id}/confirm`, {
    client_secret: setup.client_secret!,
    payment_method: (await card('4242424242424242')).id as string,
  });
  const pm = saved.body.payment_method as string;
  await stripe.paymentMethods.retrieve(pm);
  const spare = await card('4242424242424242');
  await stripe.paymentMethods.attach(spare.id as string, { customer: customer.id });
  await stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: pm } });
  const product = await stripe.products.create({ name: 'Nova Reyes', metadata: { artist_id: 'a1' } });
  const price = await stripe.prices.create({
    unit_amount: 499,
    currency: 'usd',
    product: product.id,
    recurring: { interval: 'month', interval_count: 1 },
  });
  await stripe.prices.create({
    unit_amount: 1497,
    currency: 'usd',
    recurring: { interval: 'month', interval_count: 3 },
    product_data: { name: 'Three months' },
  });
  const subscription = await stripe.subscriptions.create({
    customer: customer.id,
    items: [{ price: price.id }],
    default_payment_method: pm,
    payment_behavior: 'default_incomplete',
    metadata: { order_id: 'o-sub' },
    expand: ['latest_invoice.confirmation_secret'],
  });
  const secret = (subscription.latest_invoice as Stripe.Invoice).confirmation_secret!.client_secret;
  await browser(`/v1/payment_intents/${secret.split('_secret_')[0]!}/confirm`, {
    client_secret: secret,
    payment_method: pm,
  });
  await stripe.invoices.retrieve((subscription.latest_invoice as Stripe.Invoice).id!, {
    expand: ['payments'],
  });
  await stripe.subscriptions.retrieve(subscription.id);
  await emulator.clock.advance(32 * DAY);
  await postJson(`${base}/_emulator/subscriptions/${subscription.id}/renew`, { outcome: 'failed' });
  await stripe.invoices.list({ subscription: subscription.id, status: 'open' });
  await stripe.subscriptions.update(subscription.id, {
    cancel_at_period_end: true,
    metadata: { note: 'leaving' },
  });
  await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: false });
  await stripe.subscriptions.cancel(subscription.id);
  await swallow(stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true }));
  const unpaid = await stripe.subscriptions.create({
    customer: customer.id,
    items: [{ price: price.id }],
    payment_behavior: 'default_incomplete',
  });
  await emulator.clock.advance(DAY);
  await stripe.subscriptions.retrieve(unpaid.id);
  await stripe.invoices.list({ customer: customer.id, limit: 3 });

  // Events, lists' cursors, deletions and the errors on the way.
  const events = await stripe.events.list({
    limit: 5,
    types: ['invoice.*', 'customer.subscription.deleted'],
  });
  await stripe.events.retrieve(events.data[0]!.id);
  await stripe.events.list({
    type: 'invoice.created',
    created: { gte: 0 },
    starting_after: events.data[0]!.id,
  });
  await stripe.charges.list({ limit: 1, ending_before: chargeId });
  await swallow(stripe.charges.list({ starting_after: 'ch_missing' }));
  await swallow(stripe.paymentIntents.retrieve('pi_missing'));
  await swallow(stripe.paymentIntents.create({ currency: 'usd' } as Stripe.PaymentIntentCreateParams));
  await swallow(stripe.paymentIntents.create({ amount: 'ten' as unknown as number, currency: 'usd' }));
  await swallow(
    new Stripe('sk_test_wrong', {
      host: new URL(base).hostname,
      port: Number(new URL(base).port),
      protocol: 'http',
    }).customers.list(),
  );
  await fetch(`${base}/v1/nowhere`, { headers: { authorization: `Bearer ${keys.secretKey}` } });
  await browser('/v1/customers', { email: 'x@example.com' });
  const leaving = await stripe.customers.create({ email: 'leaving@example.com' });
  await stripe.customers.del(leaving.id);
  await stripe.customers.retrieve(leaving.id);
  await swallow(stripe.customers.update(leaving.id, { name: 'gone' }));
}
