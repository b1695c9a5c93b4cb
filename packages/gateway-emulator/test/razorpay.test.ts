import Razorpay from 'razorpay';
import utils from 'razorpay/dist/utils/razorpay-utils.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, postJson, razorpayRest, startForTest, type RazorpayRest } from './support';
import type { LooseJson } from './support';

let env: Awaited<ReturnType<typeof startForTest>>;
let razorpay: RazorpayRest;
const DAY = 24 * 3600 * 1000;

type Event = { event: string; payload: Record<string, { entity: LooseJson }> };

/** Events received whose signature the SDK's own helper accepts (what Backbeat checks). */
function verified(type: string): Event[] {
  return env.hooks.received
    .filter((raw) => raw.headers['x-razorpay-signature'])
    .filter((raw) =>
      Razorpay.validateWebhookSignature(
        raw.body,
        String(raw.headers['x-razorpay-signature']),
        env.credentials.razorpay.webhookSecret,
      ),
    )
    .map((raw) => JSON.parse(raw.body) as Event)
    .filter((event) => event.event === type);
}

const checkout = (body: Record<string, unknown>) =>
  postJson(`${env.emulator.razorpay.url}/_emulator/checkout/pay`, {
    key: env.credentials.razorpay.keyId,
    card: '4111111111111111',
    ...body,
  });

beforeAll(async () => {
  env = await startForTest();
  razorpay = razorpayRest(
    env.emulator.razorpay.url,
    env.credentials.razorpay.keyId,
    env.credentials.razorpay.keySecret,
  );
});
afterAll(async () => {
  await env.emulator.close();
  await env.hooks.close();
});

describe('Razorpay emulator through its documented REST API', () => {
  it('creates an order, pays it in the test checkout, and signs the result as Razorpay does', async () => {
    const order = await razorpay.orders.create({
      amount: 12900,
      currency: 'INR',
      receipt: 'order-1',
      notes: { order_id: 'o1' },
    });
    expect(order).toMatchObject({ entity: 'order', amount: 12900, status: 'created', receipt: 'order-1' });
    const page = await fetch(
      `${env.emulator.razorpay.url}/_checkout?key=${env.credentials.razorpay.keyId}&order_id=${order.id}`,
    );
    expect(await page.text()).toContain('Test mode — local gateway emulator');
    const paid = await checkout({ order_id: order.id });
    expect(paid.status).toBe(200);
    const response = paid.body.response as Record<string, string>;
    expect(
      utils.validatePaymentVerification(
        { order_id: order.id, payment_id: response.razorpay_payment_id! },
        response.razorpay_signature!,
        env.credentials.razorpay.keySecret,
      ),
    ).toBe(true);
    // Automatic capture is off (Razorpay's account setting): the payment waits, authorized, for the merchant.
    expect(await razorpay.payments.fetch(response.razorpay_payment_id!)).toMatchObject({
      status: 'authorized',
      captured: false,
    });
    expect((await razorpay.orders.fetch(order.id)).status).toBe('attempted');
    await razorpay.payments.capture(response.razorpay_payment_id!, 12900, 'INR');
    const payment = await razorpay.payments.fetch(response.razorpay_payment_id!);
    expect(payment).toMatchObject({ status: 'captured', order_id: order.id, amount: 12900 });
    const captured = await eventually(() =>
      verified('payment.captured').find((e) => e.payload.payment!.entity.order_id === order.id),
    );
    expect(captured.payload.payment!.entity.id).toBe(payment.id);
    expect((await razorpay.orders.fetch(order.id)).status).toBe('paid');
  });

  it('fails a payment with Razorpay’s error object and a payment.failed event', async () => {
    const order = await razorpay.orders.create({ amount: 5000, currency: 'INR', receipt: 'order-2' });
    const failed = await checkout({ order_id: order.id, outcome: 'failure' });
    expect(failed.body.failure).toMatchObject({
      code: 'BAD_REQUEST_ERROR',
      source: 'customer',
      step: 'payment_authentication',
      metadata: { order_id: order.id },
    });
    await eventually(() => verified('payment.failed').length > 0);
  });

  it('refunds a payment and reports refund.processed', async () => {
    const order = await razorpay.orders.create({ amount: 9900, currency: 'INR' });
    const paymentId = (await checkout({ order_id: order.id })).body.response.razorpay_payment_id as string;
    await razorpay.payments.capture(paymentId, 9900, 'INR');
    const refund = await razorpay.payments.refund(paymentId, { amount: 9900 });
    expect(refund).toMatchObject({
      entity: 'refund',
      status: 'processed',
      amount: 9900,
      payment_id: paymentId,
    });
    expect(await razorpay.refunds.fetch(refund.id, { payment_id: paymentId })).toMatchObject({
      id: refund.id,
    });
    await eventually(() =>
      verified('refund.processed').some((e) => e.payload.refund!.entity.id === refund.id),
    );
    await expect(razorpay.payments.refund(paymentId, { amount: 100 })).rejects.toMatchObject({
      statusCode: 400,
    });
  });

  it('runs a subscription: checkout, charged on the clock, pending then halted on failures, cancel at cycle end', async () => {
    const plan = await razorpay.plans.create({
      period: 'monthly',
      interval: 3,
      item: { name: 'Nova Reyes · 3-month subscription', amount: 44700, currency: 'INR' },
    });
    const subscription = await razorpay.subscriptions.create({
      plan_id: plan.id,
      total_count: 40,
      customer_notify: 1,
    });
    expect(subscription.status).toBe('created');
    const paid = await checkout({ subscription_id: subscription.id });
    const response = paid.body.response as Record<string, string>;
    expect(
      utils.validatePaymentVerification(
        { subscription_id: subscription.id, payment_id: response.razorpay_payment_id! },
        response.razorpay_signature!,
        env.credentials.razorpay.keySecret,
      ),
    ).toBe(true);
    const active = await razorpay.subscriptions.fetch(subscription.id);
    expect(active).toMatchObject({ status: 'active', paid_count: 1 });
    await eventually(() => verified('subscription.charged').length === 1);

    await env.emulator.clock.advance(93 * DAY);
    const charged = await eventually(() => {
      const events = verified('subscription.charged').filter(
        (e) => e.payload.subscription!.entity.id === subscription.id,
      );
      return events.length === 2 ? events[1] : undefined;
    });
    expect(charged.payload.subscription!.entity.current_start).toBe(active.current_end);

    const fail = (id: string) =>
      postJson(`${env.emulator.razorpay.url}/_emulator/subscriptions/${id}/charge`, { outcome: 'failed' });
    await fail(subscription.id);
    await eventually(() => verified('subscription.pending').length > 0);
    for (let i = 0; i < 3; i += 1) await fail(subscription.id);
    await eventually(() => verified('subscription.halted').length > 0);
    expect((await razorpay.subscriptions.fetch(subscription.id)).status).toBe('halted');

    const second = await razorpay.subscriptions.create({ plan_id: plan.id, total_count: 40 });
    await checkout({ subscription_id: second.id });
    await razorpay.subscriptions.cancel(second.id, true);
    expect((await razorpay.subscriptions.fetch(second.id)).status).toBe('active');
    await env.emulator.clock.advance(95 * DAY);
    expect((await razorpay.subscriptions.fetch(second.id)).status).toBe('cancelled');
    await eventually(() =>
      verified('subscription.cancelled').some((e) => e.payload.subscription!.entity.id === second.id),
    );
  });

  it('opens a dispute and reports payment.dispute.created', async () => {
    const order = await razorpay.orders.create({ amount: 1000, currency: 'INR' });
    const paymentId = (await checkout({ order_id: order.id })).body.response.razorpay_payment_id as string;
    await razorpay.payments.capture(paymentId, 1000, 'INR');
    const dispute = await postJson(
      `${env.emulator.razorpay.url}/_emulator/payments/${paymentId}/dispute`,
      {},
    );
    expect(dispute.body).toMatchObject({ entity: 'dispute', payment_id: paymentId });
    expect(await razorpay.disputes.fetch(dispute.body.id as string)).toMatchObject({ payment_id: paymentId });
    await eventually(() => verified('payment.dispute.created').length > 0);
  });

  it('refuses bad credentials and unknown ids with Razorpay’s error shape', async () => {
    const wrong = razorpayRest(env.emulator.razorpay.url, 'rzp_test_wrong', 'nope');
    await expect(wrong.orders.create({ amount: 100, currency: 'INR' })).rejects.toMatchObject({
      statusCode: 401,
    });
    await expect(razorpay.payments.fetch('pay_missing')).rejects.toMatchObject({
      statusCode: 400,
      error: { code: 'BAD_REQUEST_ERROR', description: 'The id provided does not exist' },
    });
  });
});
