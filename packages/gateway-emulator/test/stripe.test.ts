import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserPost, eventually, startForTest } from './support';

let env: Awaited<ReturnType<typeof startForTest>>;
let stripe: Stripe;
const DAY = 24 * 3600 * 1000;

/** What Stripe.js does with the Payment Element: a PaymentMethod from the card, then confirm with the secret. */
async function payInBrowser(clientSecret: string, number: string) {
  const base = env.emulator.stripe.url;
  const key = env.credentials.stripe.publishableKey;
  const method = await browserPost(base, key, '/v1/payment_methods', {
    type: 'card',
    'card[number]': number,
    'card[exp_month]': '12',
    'card[exp_year]': '39',
    'card[cvc]': '123',
  });
  expect(method.status).toBe(200);
  const id = clientSecret.split('_secret_')[0];
  const kind = id!.startsWith('seti_') ? 'setup_intents' : 'payment_intents';
  return browserPost(base, key, `/v1/${kind}/${id}/confirm`, {
    client_secret: clientSecret,
    payment_method: method.body.id as string,
  });
}

/** Events received and verified with the SDK's own check, exactly as Backbeat verifies them. */
function verified(type: string) {
  return env.hooks.received
    .map((raw) =>
      stripe.webhooks.constructEvent(
        raw.body,
        String(raw.headers['stripe-signature']),
        env.credentials.stripe.webhookSecret,
      ),
    )
    .filter((event) => event.type === type);
}

beforeAll(async () => {
  env = await startForTest();
  const base = new URL(env.emulator.stripe.url);
  stripe = new Stripe(env.credentials.stripe.secretKey, {
    host: base.hostname,
    port: Number(base.port),
    protocol: 'http',
    maxNetworkRetries: 0,
  });
});
afterAll(async () => {
  await env.emulator.close();
  await env.hooks.close();
});

describe('Stripe emulator through stripe-node', () => {
  it('refuses a wrong secret key with Stripe’s authentication error', async () => {
    const base = new URL(env.emulator.stripe.url);
    const wrong = new Stripe('sk_test_wrong', {
      host: base.hostname,
      port: Number(base.port),
      protocol: 'http',
    });
    await expect(wrong.customers.create({ email: 'x@example.com' })).rejects.toBeInstanceOf(
      Stripe.errors.StripeAuthenticationError,
    );
  });

  it('pays a PaymentIntent with 4242 and sends payment_intent.succeeded signed as Stripe signs it', async () => {
    const intent = await stripe.paymentIntents.create({
      amount: 129,
      currency: 'usd',
      metadata: { order_id: 'order-1' },
      automatic_payment_methods: { enabled: true },
    });
    expect(intent).toMatchObject({ status: 'requires_payment_method', amount: 129, currency: 'usd' });
    const paid = await payInBrowser(intent.client_secret!, '4242424242424242');
    expect(paid.body).toMatchObject({ status: 'succeeded', amount_received: 129 });
    const event = await eventually(() =>
      verified('payment_intent.succeeded').find(
        (e) => (e.data.object as Stripe.PaymentIntent).id === intent.id,
      ),
    );
    expect((event.data.object as Stripe.PaymentIntent).metadata).toEqual({ order_id: 'order-1' });
    const again = await stripe.paymentIntents.retrieve(intent.id);
    expect(again.latest_charge).toMatch(/^ch_/);
  });

  it('declines 0002 with Stripe.js’s card error and a payment_failed event; the intent can be paid again', async () => {
    const intent = await stripe.paymentIntents.create({ amount: 999, currency: 'usd' });
    const declined = await payInBrowser(intent.client_secret!, '4000000000000002');
    expect(declined.status).toBe(402);
    expect(declined.body.error).toMatchObject({
      type: 'card_error',
      code: 'card_declined',
      decline_code: 'generic_decline',
      message: 'Your card was declined.',
    });
    await eventually(() => verified('payment_intent.payment_failed').length > 0);
    const retried = await payInBrowser(intent.client_secret!, '4242424242424242');
    expect(retried.body.status).toBe('succeeded');
  });

  it('asks 3-D Secure for 3155 and completes after authentication', async () => {
    const intent = await stripe.paymentIntents.create({ amount: 500, currency: 'eur' });
    const challenged = await payInBrowser(intent.client_secret!, '4000002500003155');
    expect(challenged.body).toMatchObject({
      status: 'requires_action',
      next_action: { type: 'use_stripe_sdk' },
    });
    const page = await fetch(challenged.body.next_action.use_stripe_sdk.stripe_js as string);
    expect(await page.text()).toContain('Complete authentication');
    await fetch(`${env.emulator.stripe.url}/_emulator/3ds/${intent.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_secret: intent.client_secret, outcome: 'complete' }),
    });
    expect((await stripe.paymentIntents.retrieve(intent.id)).status).toBe('succeeded');
  });

  it('refunds through the API and sends charge.refunded; a second full refund is refused', async () => {
    const intent = await stripe.paymentIntents.create({ amount: 700, currency: 'usd' });
    await payInBrowser(intent.client_secret!, '4242424242424242');
    const refund = await stripe.refunds.create({ payment_intent: intent.id });
    expect(refund).toMatchObject({ status: 'succeeded', amount: 700 });
    await expect(stripe.refunds.create({ payment_intent: intent.id })).rejects.toBeInstanceOf(
      Stripe.errors.StripeInvalidRequestError,
    );
    const charge = await stripe.charges.retrieve(String(refund.charge));
    expect(charge).toMatchObject({ refunded: true, amount_refunded: 700 });
    await eventually(() =>
      verified('charge.refunded').some((e) => (e.data.object as Stripe.Charge).id === charge.id),
    );
    const listed = await stripe.refunds.list({ charge: charge.id });
    expect(listed.data.map((r) => r.id)).toEqual([refund.id]);
  });

  it('runs a subscription: setup, first invoice, renewal on the clock, failed renewal, deletion', async () => {
    const customer = await stripe.customers.create({ email: 'fan@example.com', metadata: { user_id: 'u1' } });
    const setup = await stripe.setupIntents.create({ customer: customer.id, usage: 'off_session' });
    const saved = await payInBrowser(setup.client_secret!, '4242424242424242');
    expect(saved.body.status).toBe('succeeded');
    const pm = saved.body.payment_method as string;
    expect((await stripe.paymentMethods.retrieve(pm)).customer).toBe(customer.id);
    await stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: pm } });
    const price = await stripe.prices.create({
      unit_amount: 1497,
      currency: 'usd',
      recurring: { interval: 'month', interval_count: 3 },
      product_data: { name: 'Nova Reyes · 3-month subscription' },
    });
    const subscription = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      default_payment_method: pm,
      payment_behavior: 'default_incomplete',
      metadata: { order_id: 'order-sub' },
      expand: ['latest_invoice.confirmation_secret'],
    });
    expect(subscription.status).toBe('incomplete');
    const invoice = subscription.latest_invoice as Stripe.Invoice;
    const secret = invoice.confirmation_secret!.client_secret;
    const confirmed = await browserPost(
      env.emulator.stripe.url,
      env.credentials.stripe.publishableKey,
      `/v1/payment_intents/${secret.split('_secret_')[0]}/confirm`,
      { client_secret: secret, payment_method: pm },
    );
    expect(confirmed.body.status).toBe('succeeded');
    const first = await eventually(() =>
      verified('invoice.paid').find((e) => (e.data.object as Stripe.Invoice).id === invoice.id),
    );
    const paidInvoice = await stripe.invoices.retrieve(invoice.id!, { expand: ['payments'] });
    expect(paidInvoice).toMatchObject({
      status: 'paid',
      amount_paid: 1497,
      billing_reason: 'subscription_create',
    });
    expect(paidInvoice.parent?.subscription_details?.subscription).toBe(subscription.id);
    expect(paidInvoice.payments?.data[0]?.payment.payment_intent).toMatch(/^pi_/);
    expect((first.data.object as Stripe.Invoice).lines.data[0]?.period).toBeTruthy();
    const active = await stripe.subscriptions.retrieve(subscription.id);
    expect(active.status).toBe('active');
    const firstEnd = active.items.data[0]!.current_period_end;

    // Three months later the clock reaches the period end: the renewal is charged and the period moves on.
    await env.emulator.clock.advance(95 * DAY);
    const renewal = await eventually(() =>
      verified('invoice.paid').find(
        (e) => (e.data.object as Stripe.Invoice).billing_reason === 'subscription_cycle',
      ),
    );
    const renewed = renewal.data.object as Stripe.Invoice;
    expect(renewed.lines.data[0]!.period.start).toBe(firstEnd);
    expect((await stripe.subscriptions.retrieve(subscription.id)).items.data[0]!.current_period_start).toBe(
      firstEnd,
    );

    // A forced failure: invoice.payment_failed and past_due; then the dunning ends it.
    const failed = await fetch(
      `${env.emulator.stripe.url}/_emulator/subscriptions/${subscription.id}/renew`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ outcome: 'failed' }),
      },
    );
    expect(failed.status).toBe(200);
    await eventually(() => verified('invoice.payment_failed').length > 0);
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('past_due');
    await fetch(`${env.emulator.stripe.url}/_emulator/subscriptions/${subscription.id}/delete`, {
      method: 'POST',
    });
    await eventually(() =>
      verified('customer.subscription.deleted').some(
        (e) => (e.data.object as Stripe.Subscription).id === subscription.id,
      ),
    );
  });

  it('cancels at period end: updated now, deleted when the clock passes the end', async () => {
    const customer = await stripe.customers.create({ email: 'later@example.com' });
    const setup = await stripe.setupIntents.create({ customer: customer.id });
    const pm = (await payInBrowser(setup.client_secret!, '4242424242424242')).body.payment_method as string;
    const price = await stripe.prices.create({
      unit_amount: 499,
      currency: 'usd',
      recurring: { interval: 'month' },
      product_data: { name: 'Monthly' },
    });
    const subscription = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      default_payment_method: pm,
      payment_behavior: 'default_incomplete',
      expand: ['latest_invoice.confirmation_secret'],
    });
    const secret = (subscription.latest_invoice as Stripe.Invoice).confirmation_secret!.client_secret;
    await browserPost(
      env.emulator.stripe.url,
      env.credentials.stripe.publishableKey,
      `/v1/payment_intents/${secret.split('_secret_')[0]}/confirm`,
      {
        client_secret: secret,
      },
    );
    const updated = await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });
    expect(updated.cancel_at_period_end).toBe(true);
    await env.emulator.clock.advance(40 * DAY);
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('canceled');
    await eventually(() =>
      verified('customer.subscription.deleted').some(
        (e) => (e.data.object as Stripe.Subscription).id === subscription.id,
      ),
    );
  });

  it('retries a webhook its receiver failed, with a fresh signature each time', async () => {
    const before = env.emulator.deliveries('stripe').length;
    env.hooks.failNext(2);
    const intent = await stripe.paymentIntents.create({ amount: 300, currency: 'usd' });
    await payInBrowser(intent.client_secret!, '4242424242424242');
    const retried = await eventually(() =>
      env.emulator
        .deliveries('stripe')
        .slice(before)
        .find((d) => d.attempt === 2 && d.status === 200),
    );
    const first = env.emulator
      .deliveries('stripe')
      .find((d) => d.eventId === retried.eventId && d.attempt === 1);
    expect(first?.status).toBe(500);
    // Both attempts carried a signature that verifies.
    expect(verified(retried.type).length).toBeGreaterThan(0);
  });

  it('answers unknown ids with Stripe’s resource_missing error', async () => {
    await expect(stripe.paymentIntents.retrieve('pi_missing')).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      code: 'resource_missing',
      statusCode: 404,
    });
  });
});
