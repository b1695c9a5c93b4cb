import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, orders, paymentIssues, payments, subscriptions } from '../src/db/schema';
import { createStripeClient } from '../src/modules/payments/stripe/stripe.gateway';
import { catalogFixtures } from './catalog-fixtures';
import { gatewayFlows } from './gateway-flows';
import { DAY_MS, gatewayTestApp, postJson, webhooksSettled, type GatewayTestApp } from './gateways.fixtures';
import { commerceFixtures, requests, type TestUser } from './payments.fixtures';

/**
 * A refund of a subscription payment takes back what that payment bought, nothing else; every gateway's
 * subscription payments can be refunded; a gateway that refuses to stop a refunded subscription is retried, and
 * listed for the admin when it never agrees.
 */
let g: GatewayTestApp;
let http: ReturnType<typeof requests>;
let flows: ReturnType<typeof gatewayFlows>;
let admin: TestUser;
const ids: Record<string, string> = {};

beforeAll(async () => {
  g = await gatewayTestApp();
  http = requests(g.ctx);
  flows = gatewayFlows(g, http);
  const f = catalogFixtures(g.ctx.database);
  const c = commerceFixtures(g.ctx);
  const owner = await f.user('artist');
  admin = await f.user('admin');
  ids.artist = (await f.artist({ name: 'Period Artist', ownerUserId: owner.id })).id;
  await g.ctx.database.db.execute(
    sql`update artists set subscription_price = 499 where id = ${ids.artist}::uuid`,
  );
  ids.subSong = await c.song({
    artistId: ids.artist,
    title: 'Members Only',
    price: 0,
    accessType: 'subscription',
  });
});
afterAll(() => g.close());

const fan = () => catalogFixtures(g.ctx.database).user('user');
const stripe = () => createStripeClient({ ...g.credentials.stripe, apiBase: g.emulator.stripe.url });
const subscriptionOf = async (externalId: string) =>
  (await g.ctx.database.db.select().from(subscriptions).where(eq(subscriptions.externalId, externalId)))[0]!;
/** The PaymentIntents of a subscription's paid orders, oldest first (each invoice's payment reference). */
async function intentsOf(subscriptionId: string) {
  const rows = await g.ctx.database.db
    .select({ reference: payments.reference, createdAt: payments.createdAt })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(and(eq(orders.subscriptionId, subscriptionId), eq(payments.status, 'succeeded')))
    .orderBy(payments.createdAt);
  return rows.map((row) => row.reference!);
}

describe('a refund takes back what its payment bought', () => {
  it('refunding the first month keeps the renewal paid for separately; refunding the renewal stops it', async () => {
    const user = await fan();
    const started = await flows.stripeSubscribe(user, ids.artist!, 499);
    await webhooksSettled(g.emulator, 'stripe');
    expect(await http.stream(ids.subSong!, user)).toBe(200);
    // A month later Stripe renews it: a second payment for the second month.
    await g.emulator.clock.advance(31 * DAY_MS);
    await webhooksSettled(g.emulator, 'stripe');
    const local = await subscriptionOf(started.subscriptionId);
    const [first, renewal] = await intentsOf(local.id);
    expect(renewal).toBeDefined();
    expect(await http.stream(ids.subSong!, user)).toBe(200);

    await postJson(`${g.emulator.stripe.url}/_emulator/charges/${first}/refund`, {});
    await webhooksSettled(g.emulator, 'stripe');
    expect(await http.stream(ids.subSong!, user)).toBe(200);
    expect((await subscriptionOf(started.subscriptionId)).status).not.toBe('revoked');

    await postJson(`${g.emulator.stripe.url}/_emulator/charges/${renewal}/refund`, {});
    await webhooksSettled(g.emulator, 'stripe');
    expect(await http.stream(ids.subSong!, user)).toBe(403);
    expect((await subscriptionOf(started.subscriptionId)).status).toBe('revoked');
  });
});

describe('PayPal subscription payments can be refunded', () => {
  it('each payment is recorded with its sale id; the admin refund goes through PayPal and takes the period back', async () => {
    const user = await fan();
    const started = await flows.paypalSubscribe(user, ids.artist!, 499);
    await webhooksSettled(g.emulator, 'paypal');
    expect(await http.stream(ids.subSong!, user)).toBe(200);
    const [payment] = await g.ctx.database.db
      .select()
      .from(payments)
      .where(and(eq(payments.orderId, started.transactionId), eq(payments.status, 'succeeded')));
    // A sale id as PayPal writes them, not a made-up key: the refund names it.
    expect(payment!.externalId).toMatch(/^[0-9A-Z]{17}$/);
    const refunded = await http.post(`/api/admin/orders/${started.transactionId}/refund`, {}, admin);
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(refunded.json()).toMatchObject({ order: { status: 'refunded' }, message: 'Order refunded' });
    expect(await http.stream(ids.subSong!, user)).toBe(403);
  });
});

describe('stopping a refunded subscription at the gateway', () => {
  /** Runs the queued jobs of a type again and again, as their retries fall due, until none is queued. */
  async function retryUntilDone(type: string) {
    for (let attempt = 0; attempt < 12; attempt += 1) {
      await g.ctx.app.services.jobs.drain();
      const queued = await g.ctx.database.db
        .select({ id: jobs.id })
        .from(jobs)
        .where(and(eq(jobs.type, type), eq(jobs.status, 'queued')));
      if (queued.length === 0) return;
      // The retry's backoff is the queue's clock: make it due now.
      await g.ctx.database.db
        .update(jobs)
        .set({ runAt: new Date(0) })
        .where(eq(jobs.type, type));
    }
  }
  const subscriptionCalls = (method: string, path: string) => path.startsWith('/v1/subscriptions/');

  it('is retried while Stripe is down, and done when it is back', async () => {
    const user = await fan();
    const started = await flows.stripeSubscribe(user, ids.artist!, 499);
    await webhooksSettled(g.emulator, 'stripe');
    g.emulator.fail('stripe', subscriptionCalls, 2);
    const refunded = await http.post(`/api/admin/orders/${started.transactionId}/refund`, {}, admin);
    expect(refunded.statusCode, refunded.body).toBe(200);
    await retryUntilDone('payment-cancel-subscription');
    expect((await stripe().subscriptions.retrieve(started.subscriptionId)).cancel_at_period_end).toBe(true);
    const issues = await g.ctx.database.db
      .select()
      .from(paymentIssues)
      .where(eq(paymentIssues.externalId, started.subscriptionId));
    expect(issues).toEqual([]);
  });

  it('is listed for the admin when Stripe keeps refusing', async () => {
    const user = await fan();
    const started = await flows.stripeSubscribe(user, ids.artist!, 499);
    await webhooksSettled(g.emulator, 'stripe');
    const end = g.emulator.fail('stripe', subscriptionCalls, 1000);
    try {
      expect(
        (await http.post(`/api/admin/orders/${started.transactionId}/refund`, {}, admin)).statusCode,
      ).toBe(200);
      await retryUntilDone('payment-cancel-subscription');
    } finally {
      end();
    }
    const health = await http.get('/api/admin/payments/health', admin);
    expect(
      health.json<{ issues: Array<{ kind: string; externalId: string; status: string }> }>().issues,
    ).toContainEqual(
      expect.objectContaining({ kind: 'cancel_failed', externalId: started.subscriptionId, status: 'open' }),
    );
  });
});
