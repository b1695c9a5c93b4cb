import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserPost, postJson, startForTest } from './support';

let env: Awaited<ReturnType<typeof startForTest>>;
let stripe: Stripe;

/** A paid PaymentIntent: three Stripe events (payment_intent.created, charge.succeeded, payment_intent.succeeded). */
async function pay(amount = 1000) {
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
  return intent;
}
const received = () => env.hooks.received.map((r) => (JSON.parse(r.body) as { id: string }).id);

beforeAll(async () => {
  env = await startForTest();
  const base = new URL(env.emulator.stripe.url);
  stripe = new Stripe(env.credentials.stripe.secretKey, {
    host: base.hostname,
    port: Number(base.port),
    protocol: 'http',
  });
});
afterAll(async () => {
  await env.emulator.close();
  await env.hooks.close();
});

describe('webhook deliveries steered by a test', () => {
  it('hold keeps events; release delivers the given ones in the given order and resolves once answered', async () => {
    env.emulator.setWebhookMode('stripe', 'hold');
    const before = env.hooks.received.length;
    await pay();
    const held = env.emulator.heldWebhooks('stripe');
    expect(held.map((e) => e.type)).toEqual([
      'payment_intent.created',
      'charge.succeeded',
      'payment_intent.succeeded',
    ]);
    expect(env.hooks.received.length).toBe(before);
    // Reordered: the success first, then the charge; the creation stays held.
    const order = [held[2]!.eventId, held[1]!.eventId];
    const deliveries = await env.emulator.releaseWebhooks('stripe', order);
    expect(deliveries.map((d) => [d.eventId, d.status])).toEqual(order.map((id) => [id, 200]));
    expect(received().slice(before)).toEqual(order);
    expect(env.emulator.heldWebhooks('stripe').map((e) => e.eventId)).toEqual([held[0]!.eventId]);
    expect(env.emulator.events('stripe').find((e) => e.eventId === order[0])).toMatchObject({
      state: 'released',
      attempts: 1,
      lastStatus: 200,
    });
    // Drop what is left: it stays in Stripe's event list, never delivered.
    expect(env.emulator.dropWebhooks('stripe')).toEqual([held[0]!.eventId]);
    expect((await stripe.events.retrieve(held[0]!.eventId)).type).toBe('payment_intent.created');
    expect(env.emulator.events('stripe').find((e) => e.eventId === held[0]!.eventId)?.state).toBe('dropped');
    env.emulator.setWebhookMode('stripe', 'deliver');
  });

  it('a release answered with an error puts the event back on hold (no timer runs in hold mode)', async () => {
    env.emulator.setWebhookMode('stripe', 'hold');
    await pay();
    const [first] = env.emulator.heldWebhooks('stripe');
    env.hooks.failNext(1);
    const [failed] = await env.emulator.releaseWebhooks('stripe', [first!.eventId]);
    expect(failed!.status).toBe(500);
    expect(env.emulator.heldWebhooks('stripe')[0]!.eventId).toBe(first!.eventId);
    expect(env.emulator.pendingWebhooks('stripe')).toBe(0);
    const [again] = await env.emulator.releaseWebhooks('stripe', [first!.eventId]);
    expect(again).toMatchObject({ status: 200, attempt: 2 });
    await env.emulator.releaseWebhooks('stripe');
    env.emulator.setWebhookMode('stripe', 'deliver');
  });

  it('drop mode never sends; the events exist and can be redelivered later, awaited', async () => {
    env.emulator.setWebhookMode('stripe', 'drop');
    const before = env.hooks.received.length;
    const intent = await pay();
    const dropped = env.emulator
      .events('stripe')
      .filter((e) => e.state === 'dropped' && e.type === 'payment_intent.succeeded');
    expect(dropped.length).toBeGreaterThan(0);
    expect(env.hooks.received.length).toBe(before);
    const listed = await stripe.events.list({ type: 'payment_intent.succeeded', limit: 1 });
    expect((listed.data[0]!.data.object as Stripe.PaymentIntent).id).toBe(intent.id);
    const delivery = await env.emulator.redeliverNow(listed.data[0]!.id);
    expect(delivery).toMatchObject({ status: 200, eventId: listed.data[0]!.id });
    env.emulator.setWebhookMode('stripe', 'deliver');
  });

  it('refuses to release or drop an event that is not held', async () => {
    await expect(env.emulator.releaseWebhooks('stripe', ['evt_unknown'])).rejects.toThrow(/not held/);
    expect(() => env.emulator.dropWebhooks('razorpay', ['evt_unknown'])).toThrow(/not held/);
  });

  it('the same controls over HTTP on the provider’s port', async () => {
    const base = env.emulator.stripe.url;
    expect((await postJson(`${base}/_emulator/webhooks/mode`, { mode: 'hold' })).body).toEqual({
      mode: 'hold',
    });
    expect((await postJson(`${base}/_emulator/webhooks/mode`, { mode: 'later' })).status).toBe(400);
    await pay();
    const held = (await (await fetch(`${base}/_emulator/webhooks/held`)).json()) as {
      mode: string;
      held: Array<{ eventId: string; type: string }>;
    };
    expect(held.mode).toBe('hold');
    expect(held.held).toHaveLength(3);
    const release = await postJson(`${base}/_emulator/webhooks/release`, {
      eventIds: [held.held[2]!.eventId],
    });
    expect(release.body.deliveries).toEqual([
      expect.objectContaining({ eventId: held.held[2]!.eventId, status: 200 }),
    ]);
    const drop = await postJson(`${base}/_emulator/webhooks/drop`, { eventIds: [held.held[0]!.eventId] });
    expect(drop.body).toEqual({ dropped: [held.held[0]!.eventId] });
    expect(
      (await postJson(`${base}/_emulator/webhooks/release`, { eventIds: [held.held[0]!.eventId] })).status,
    ).toBe(409);
    expect((await postJson(`${base}/_emulator/webhooks/release`, {})).body.deliveries).toHaveLength(1);
    const redelivered = await postJson(`${base}/_emulator/events/${held.held[0]!.eventId}/redeliver`, {});
    expect(redelivered.body).toMatchObject({ ok: true, delivery: { status: 200 } });
    const log = (await (await fetch(`${base}/_emulator/deliveries`)).json()) as {
      mode: string;
      events: Array<{ eventId: string; state: string }>;
    };
    expect(log.mode).toBe('hold');
    expect(log.events.find((e) => e.eventId === held.held[0]!.eventId)?.state).toBe('dropped');
    expect(log.events.find((e) => e.eventId === held.held[2]!.eventId)?.state).toBe('released');
    await postJson(`${base}/_emulator/webhooks/mode`, { mode: 'deliver' });
  });

  it('modes are per provider and can be set at start', async () => {
    const other = await startForTest([100], { webhookModes: { razorpay: 'drop' } });
    expect([other.emulator.webhookMode('stripe'), other.emulator.webhookMode('razorpay')]).toEqual([
      'deliver',
      'drop',
    ]);
    await other.emulator.close();
    await other.hooks.close();
  });
});
