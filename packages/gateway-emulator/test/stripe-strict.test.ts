import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserPost, postJson, startForTest, type LooseJson } from './support';

let env: Awaited<ReturnType<typeof startForTest>>;
let stripe: Stripe;
const DAY = 24 * 3600 * 1000;

/** A raw form POST with the secret key, as stripe-node sends it (to see headers and exact bodies). */
async function post(path: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await fetch(`${env.emulator.stripe.url}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${env.credentials.stripe.secretKey}`,
      'content-type': 'application/x-www-form-urlencoded',
      ...headers,
    },
    body: new URLSearchParams(form).toString(),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as LooseJson };
}
async function paid(amount = 2000) {
  const intent = await stripe.paymentIntents.create({ amount, currency: 'usd' });
  const key = env.credentials.stripe.publishableKey;
  const method = await browserPost(env.emulator.stripe.url, key, '/v1/payment_methods', {
    type: 'card',
    'card[number]': '4242424242424242',
    'card[exp_month]': '12',
    'card[exp_year]': '39',
  });
  await browserPost(env.emulator.stripe.url, key, `/v1/payment_intents/${intent.id}/confirm`, {
    client_secret: intent.client_secret!,
    payment_method: method.body.id as string,
  });
  return stripe.paymentIntents.retrieve(intent.id);
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

describe('Stripe idempotency as Stripe documents it', () => {
  it('replays the saved answer with Idempotent-Replayed; other parameters with the same key are a 400', async () => {
    const first = await post('/v1/customers', { email: 'a@example.com' }, { 'idempotency-key': 'k-1' });
    expect(first.headers.get('request-id')).toMatch(/^req_/);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const replay = await post('/v1/customers', { email: 'a@example.com' }, { 'idempotency-key': 'k-1' });
    expect(replay.body.id).toBe(first.body.id);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const other = await post('/v1/customers', { email: 'b@example.com' }, { 'idempotency-key': 'k-1' });
    expect(other.status).toBe(400);
    expect(other.body.error).toMatchObject({ type: 'idempotency_error' });
    expect(other.body.error.message).toContain("Try using a key other than 'k-1'");
  });

  it('does not save a request refused by parameter validation; saves one refused while running', async () => {
    const invalid = await post('/v1/payment_intents', { currency: 'usd' }, { 'idempotency-key': 'k-2' });
    expect(invalid.body.error).toMatchObject({ code: 'parameter_missing', param: 'amount' });
    const valid = await post(
      '/v1/payment_intents',
      { amount: '500', currency: 'usd' },
      { 'idempotency-key': 'k-2' },
    );
    expect(valid.status).toBe(200);
    const missing = await post('/v1/refunds', { charge: 'ch_nope' }, { 'idempotency-key': 'k-3' });
    expect(missing.status).toBe(404);
    const again = await post('/v1/refunds', { charge: 'ch_nope' }, { 'idempotency-key': 'k-3' });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('keys expire after 24 hours of the emulator’s clock', async () => {
    const first = await post('/v1/customers', { email: 'c@example.com' }, { 'idempotency-key': 'k-4' });
    await env.emulator.clock.advance(DAY + 60_000);
    const later = await post('/v1/customers', { email: 'c@example.com' }, { 'idempotency-key': 'k-4' });
    expect(later.body.id).not.toBe(first.body.id);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('Stripe refuses what Stripe refuses', () => {
  it('a cancelled PaymentIntent cannot be confirmed; a succeeded one cannot be cancelled', async () => {
    const intent = await stripe.paymentIntents.create({ amount: 900, currency: 'usd' });
    const cancelled = await stripe.paymentIntents.cancel(intent.id, { cancellation_reason: 'abandoned' });
    expect(cancelled).toMatchObject({ status: 'canceled', cancellation_reason: 'abandoned' });
    expect(cancelled.canceled_at).toBeGreaterThan(0);
    const confirm = await browserPost(
      env.emulator.stripe.url,
      env.credentials.stripe.publishableKey,
      `/v1/payment_intents/${intent.id}/confirm`,
      {
        client_secret: intent.client_secret!,
        payment_method: 'pm_whatever',
      },
    );
    expect(confirm.status).toBe(400);
    expect(confirm.body.error).toMatchObject({
      code: 'payment_intent_unexpected_state',
      message: 'You cannot confirm this PaymentIntent because it has been canceled.',
    });
    const done = await paid();
    await expect(stripe.paymentIntents.cancel(done.id)).rejects.toMatchObject({
      code: 'payment_intent_unexpected_state',
      statusCode: 400,
    });
    await expect(stripe.paymentIntents.cancel(intent.id)).rejects.toMatchObject({
      code: 'payment_intent_unexpected_state',
    });
  });

  it('refund reasons are Stripe’s three; more than remains is amount_too_large, then charge_already_refunded', async () => {
    const intent = await paid(1000);
    await expect(
      stripe.refunds.create({ payment_intent: intent.id, reason: 'changed_mind' as 'duplicate' }),
    ).rejects.toMatchObject({
      statusCode: 400,
      param: 'reason',
      message: 'Invalid reason: must be one of duplicate, fraudulent, or requested_by_customer',
    });
    const part = await stripe.refunds.create({ payment_intent: intent.id, amount: 400, reason: 'duplicate' });
    const charge = await stripe.charges.retrieve(intent.latest_charge as string, { expand: ['refunds'] });
    expect(charge).toMatchObject({ amount_refunded: 400, refunded: false });
    expect(charge.refunds?.data.map((r) => r.id)).toEqual([part.id]);
    await expect(stripe.refunds.create({ payment_intent: intent.id, amount: 601 })).rejects.toMatchObject({
      code: 'amount_too_large',
      message: 'Refund amount ($6.01) is greater than unrefunded amount on charge ($6.00)',
    });
    await stripe.refunds.create({ charge: charge.id });
    expect(await stripe.charges.retrieve(charge.id)).toMatchObject({ amount_refunded: 1000, refunded: true });
    await expect(stripe.refunds.create({ charge: charge.id })).rejects.toMatchObject({
      code: 'charge_already_refunded',
    });
  });

  it('a disputed charge cannot be refunded; closing the dispute sends Stripe’s events', async () => {
    const intent = await paid(1500);
    const dispute = (await postJson(`${env.emulator.stripe.url}/_emulator/charges/${intent.id}/dispute`, {}))
      .body;
    expect(await stripe.charges.retrieve(intent.latest_charge as string)).toMatchObject({ disputed: true });
    await expect(stripe.refunds.create({ payment_intent: intent.id })).rejects.toMatchObject({
      code: 'charge_disputed',
    });
    const closed = await postJson(
      `${env.emulator.stripe.url}/_emulator/disputes/${dispute.id as string}/close`,
      { outcome: 'won' },
    );
    expect(closed.body).toMatchObject({ status: 'won' });
    expect(
      (
        await postJson(`${env.emulator.stripe.url}/_emulator/disputes/${dispute.id as string}/close`, {
          outcome: 'lost',
        })
      ).status,
    ).toBe(400);
    const types = (await stripe.events.list({ types: ['charge.dispute.*'], limit: 10 })).data
      .filter((e) => (e.data.object as Stripe.Dispute).id === dispute.id)
      .map((e) => e.type)
      .reverse();
    expect(types).toEqual([
      'charge.dispute.created',
      'charge.dispute.funds_withdrawn',
      'charge.dispute.funds_reinstated',
      'charge.dispute.closed',
    ]);
  });

  it('answers unknown routes, missing keys, publishable keys on secret routes and bad integers in Stripe’s envelope', async () => {
    const unknown = await fetch(`${env.emulator.stripe.url}/v1/nothing`, {
      headers: { authorization: `Bearer ${env.credentials.stripe.secretKey}` },
    });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as LooseJson).error).toMatchObject({
      type: 'invalid_request_error',
      message: expect.stringContaining('Unrecognized request URL (GET: /v1/nothing)'),
    });
    const anonymous = await fetch(`${env.emulator.stripe.url}/v1/customers`, { method: 'POST' });
    expect(anonymous.status).toBe(401);
    const publishable = await browserPost(
      env.emulator.stripe.url,
      env.credentials.stripe.publishableKey,
      '/v1/refunds',
      { charge: 'ch_x' },
    );
    expect(publishable.status).toBe(401);
    const bad = await post('/v1/payment_intents', { amount: 'ten', currency: 'usd' });
    expect(bad.body.error).toMatchObject({
      code: 'parameter_invalid_integer',
      param: 'amount',
      request_log_url: expect.stringMatching(/req_/),
    });
  });
});

describe('Stripe lists and events for reconciliation', () => {
  it('lists events newest first with created, type, types[] and cursors; has_more as Stripe pages', async () => {
    const intent = await paid(700);
    await stripe.refunds.create({ payment_intent: intent.id, amount: 100 });
    const page = await stripe.events.list({ limit: 2 });
    expect(page.data.map((e) => e.type)).toEqual(['charge.refunded', 'refund.created']);
    expect(page.has_more).toBe(true);
    const next = await stripe.events.list({ limit: 1, starting_after: page.data[1]!.id });
    expect(next.data[0]!.type).toBe('payment_intent.succeeded');
    const back = await stripe.events.list({ limit: 5, ending_before: next.data[0]!.id });
    expect(back.data.map((e) => e.id)).toEqual(page.data.map((e) => e.id));
    const since = page.data[0]!.created;
    const typed = await stripe.events.list({
      created: { gte: since },
      types: ['refund.created', 'charge.refunded'],
    });
    expect(new Set(typed.data.map((e) => e.type))).toEqual(new Set(['refund.created', 'charge.refunded']));
    expect((await stripe.events.list({ type: 'refund.*', limit: 1 })).data[0]!.type).toBe('refund.created');
  });

  it('filters charges, refunds, disputes, intents and invoices as Stripe does', async () => {
    const customer = await stripe.customers.create({ email: 'lists@example.com' });
    const intent = await stripe.paymentIntents.create({
      amount: 800,
      currency: 'usd',
      customer: customer.id,
    });
    expect((await stripe.paymentIntents.list({ customer: customer.id })).data.map((i) => i.id)).toEqual([
      intent.id,
    ]);
    const done = await paid(600);
    expect((await stripe.charges.list({ payment_intent: done.id })).data.map((c) => c.id)).toEqual([
      done.latest_charge,
    ]);
    const refund = await stripe.refunds.create({ payment_intent: done.id, amount: 100 });
    expect((await stripe.refunds.list({ payment_intent: done.id })).data.map((r) => r.id)).toEqual([
      refund.id,
    ]);
    expect((await stripe.disputes.list({ payment_intent: done.id })).data).toEqual([]);
    expect((await stripe.invoices.list({ customer: customer.id })).data).toEqual([]);
    expect((await stripe.charges.list({ created: { lt: 1 } })).data).toEqual([]);
  });

  it('deletes a customer (retrieve answers the deleted stub); abandoned intents stay requires_payment_method', async () => {
    const customer = await stripe.customers.create({ email: 'bye@example.com' });
    const open = await stripe.paymentIntents.create({ amount: 999, currency: 'usd', customer: customer.id });
    expect(await stripe.customers.del(customer.id)).toEqual({
      id: customer.id,
      object: 'customer',
      deleted: true,
    });
    expect(await stripe.customers.retrieve(customer.id)).toMatchObject({ deleted: true });
    await expect(stripe.customers.update(customer.id, { name: 'x' })).rejects.toMatchObject({
      code: 'resource_missing',
    });
    await env.emulator.clock.advance(60 * DAY);
    expect((await stripe.paymentIntents.retrieve(open.id)).status).toBe('requires_payment_method');
  });

  it('a refund that fails later: refund.updated and refund.failed, and the charge counts it no more', async () => {
    const intent = await paid(900);
    const refund = await stripe.refunds.create({ payment_intent: intent.id });
    await postJson(`${env.emulator.stripe.url}/_emulator/refunds/${refund.id}/fail`, {});
    expect(await stripe.refunds.retrieve(refund.id)).toMatchObject({
      status: 'failed',
      failure_reason: 'expired_or_canceled_card',
    });
    expect(await stripe.charges.retrieve(intent.latest_charge as string)).toMatchObject({
      amount_refunded: 0,
      refunded: false,
    });
    const types = (await stripe.events.list({ types: ['refund.*'], limit: 3 })).data.map((e) => e.type);
    expect(types).toEqual(['refund.failed', 'refund.updated', 'refund.created']);
  });
});
