import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { postJson, razorpayRest, startForTest, type LooseJson, type RazorpayRest } from './support';

let env: Awaited<ReturnType<typeof startForTest>>;
let razorpay: RazorpayRest;
const DAY = 24 * 3600 * 1000;

type Event = { event: string; payload: Record<string, { entity: LooseJson }> };
const settled = () => vi.waitFor(() => expect(env.emulator.pendingWebhooks('razorpay')).toBe(0));
const events = (type: string) =>
  env.hooks.received.map((r) => JSON.parse(r.body) as Event).filter((e) => e.event === type);
const base = () => env.emulator.razorpay.url;
async function authorized(amount = 10_000) {
  const order = await razorpay.orders.create({ amount, currency: 'INR' });
  const paid = await postJson(`${base()}/_emulator/checkout/pay`, {
    key: env.credentials.razorpay.keyId,
    card: '4111111111111111',
    order_id: order.id,
  });
  return { order, paymentId: paid.body.response.razorpay_payment_id as string };
}

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

describe('Razorpay capture as the account setting says', () => {
  it('automatic capture off (default): authorized, payment.authorized; capture for the exact amount once; order.paid', async () => {
    expect((await (await fetch(`${base()}/_emulator/settings`)).json()) as LooseJson).toEqual({
      auto_capture: false,
    });
    const { order, paymentId } = await authorized(10_000);
    expect(await razorpay.payments.fetch(paymentId)).toMatchObject({ status: 'authorized', captured: false });
    await expect(razorpay.payments.capture(paymentId, 9_000, 'INR')).rejects.toMatchObject({
      statusCode: 400,
      error: {
        code: 'BAD_REQUEST_ERROR',
        description: 'Capture amount must be equal to the amount authorized',
        field: 'amount',
      },
    });
    await expect(razorpay.payments.capture(paymentId, 10_000, 'USD')).rejects.toMatchObject({
      statusCode: 400,
    });
    expect(await razorpay.payments.capture(paymentId, 10_000, 'INR')).toMatchObject({
      status: 'captured',
      captured: true,
    });
    await expect(razorpay.payments.capture(paymentId, 10_000, 'INR')).rejects.toMatchObject({
      error: { description: 'This payment has already been captured' },
    });
    expect((await razorpay.orders.fetch(order.id)).status).toBe('paid');
    await settled();
    expect(events('payment.authorized').some((e) => e.payload.payment!.entity.id === paymentId)).toBe(true);
    expect(events('order.paid').some((e) => e.payload.order!.entity.id === order.id)).toBe(true);
  });

  it('a payment left authorized is refunded by Razorpay after five days; an order nobody pays stays as it was', async () => {
    const { paymentId } = await authorized(7_000);
    const idle = await razorpay.orders.create({ amount: 5_000, currency: 'INR' });
    await env.emulator.clock.advance(4 * DAY);
    expect((await razorpay.payments.fetch(paymentId)).status).toBe('authorized');
    await env.emulator.clock.advance(DAY + 60_000);
    expect(await razorpay.payments.fetch(paymentId)).toMatchObject({
      status: 'refunded',
      amount_refunded: 7_000,
      refund_status: 'full',
    });
    const refunds = await razorpay.payments.fetchMultipleRefund(paymentId);
    expect(refunds.items).toHaveLength(1);
    expect((await razorpay.orders.fetch(idle.id)).status).toBe('created');
  });

  it('automatic capture on (option or control route): captured at once, as before', async () => {
    await postJson(`${base()}/_emulator/settings`, { auto_capture: true });
    const { order, paymentId } = await authorized(3_000);
    expect(await razorpay.payments.fetch(paymentId)).toMatchObject({ status: 'captured' });
    expect((await razorpay.orders.fetch(order.id)).status).toBe('paid');
    await postJson(`${base()}/_emulator/settings`, { auto_capture: false });
  });
});

describe('Razorpay refunds, disputes and lists', () => {
  it('partial then full refund: payment.refunded carries amount_refunded and refund_status', async () => {
    const { paymentId } = await authorized(10_000);
    await razorpay.payments.capture(paymentId, 10_000, 'INR');
    await razorpay.payments.refund(paymentId, { amount: 2_500 });
    expect(await razorpay.payments.fetch(paymentId)).toMatchObject({
      status: 'captured',
      amount_refunded: 2_500,
      refund_status: 'partial',
    });
    await expect(razorpay.payments.refund(paymentId, { amount: 8_000 })).rejects.toMatchObject({
      statusCode: 400,
    });
    await razorpay.payments.refund(paymentId, {});
    expect(await razorpay.payments.fetch(paymentId)).toMatchObject({
      status: 'refunded',
      amount_refunded: 10_000,
      refund_status: 'full',
    });
    await settled();
    const refunded = events('payment.refunded').filter((e) => e.payload.payment!.entity.id === paymentId);
    expect(
      refunded.map((e) => [
        e.payload.payment!.entity.amount_refunded,
        e.payload.payment!.entity.refund_status,
      ]),
    ).toEqual([
      [2_500, 'partial'],
      [10_000, 'full'],
    ]);
  });

  it('a dispute won or lost: payment.dispute.won/lost then closed', async () => {
    for (const outcome of ['won', 'lost'] as const) {
      const { paymentId } = await authorized(4_000);
      await razorpay.payments.capture(paymentId, 4_000, 'INR');
      const dispute = (await postJson(`${base()}/_emulator/payments/${paymentId}/dispute`, {})).body;
      const closed = await postJson(`${base()}/_emulator/disputes/${dispute.id as string}/close`, {
        outcome,
      });
      expect(closed.body).toMatchObject({ status: outcome, amount_deducted: outcome === 'lost' ? 4_000 : 0 });
      await settled();
      const types = env.hooks.received
        .map((r) => JSON.parse(r.body) as Event)
        .filter((e) => e.payload.dispute?.entity.id === dispute.id)
        .map((e) => e.event);
      expect(types).toEqual([
        'payment.dispute.created',
        `payment.dispute.${outcome}`,
        'payment.dispute.closed',
      ]);
    }
    expect((await razorpay.disputes.all({ count: 10 })).items.length).toBeGreaterThanOrEqual(2);
  });

  it('lists payments and refunds newest first with from, to, count (at most 100) and skip', async () => {
    await env.emulator.clock.advance(5_000);
    const from = Math.floor(env.emulator.clock.now().getTime() / 1000);
    const a = await authorized(1_000);
    const b = await authorized(2_000);
    const listed = await razorpay.payments.all({ from, count: 10 });
    expect(listed.items.map((p) => p.id)).toEqual([b.paymentId, a.paymentId]);
    expect((await razorpay.payments.all({ from, count: 1, skip: 1 })).items.map((p) => p.id)).toEqual([
      a.paymentId,
    ]);
    expect(
      (await razorpay.payments.all({ to: from - 1, count: 100 })).items.every(
        (p) => Number(p.created_at) <= from - 1,
      ),
    ).toBe(true);
    await expect(razorpay.payments.all({ count: 101 })).rejects.toMatchObject({
      statusCode: 400,
      error: { description: 'The count may not be greater than 100.', field: 'count' },
    });
    await razorpay.payments.capture(a.paymentId, 1_000, 'INR');
    const refund = await razorpay.payments.refund(a.paymentId, { amount: 100 });
    expect((await razorpay.refunds.all({ from })).items.map((r) => r.id)).toEqual([refund.id]);
  });

  it('answers unknown routes and bad credentials in Razorpay’s envelope', async () => {
    const unknown = await fetch(`${base()}/v1/nothing`);
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as LooseJson).error).toMatchObject({
      code: 'BAD_REQUEST_ERROR',
      description: 'The requested URL was not found on the server.',
    });
    const wrong = await fetch(`${base()}/v1/payments`, {
      headers: { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
    });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as LooseJson).error).toEqual({
      code: 'BAD_REQUEST_ERROR',
      description: 'Authentication failed',
      source: 'NA',
      step: 'NA',
      reason: 'NA',
      metadata: {},
    });
  });
});
