import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripeSignature } from '@backbeat/gateway-emulator';
import { orders, paymentEvents, payments, purchases, refunds, subscriptions } from '../src/db/schema';
import { catalogFixtures } from './catalog-fixtures';
import {
  browserForm,
  DAY_MS,
  eventually,
  gatewayTestApp,
  paymentCounts,
  postJson,
  webhooksSettled,
  type GatewayTestApp,
} from './gateways.fixtures';
import { commerceFixtures, requests, type TestUser } from './payments.fixtures';

let g: GatewayTestApp;
let http: ReturnType<typeof requests>;
let admin: TestUser;
const ids: Record<string, string> = {};

async function fan() {
  return catalogFixtures(g.ctx.database).user('user');
}

/** What Stripe.js does in the Payment Element: a PaymentMethod from the card, then confirm with the client secret. */
async function payInBrowser(clientSecret: string, card = '4242424242424242') {
  const key = g.credentials.stripe.publishableKey;
  const base = g.emulator.stripe.url;
  const method = await browserForm(base, key, '/v1/payment_methods', {
    type: 'card',
    'card[number]': card,
    'card[exp_month]': '12',
    'card[exp_year]': '39',
    'card[cvc]': '123',
  });
  const id = clientSecret.split('_secret_')[0]!;
  const kind = id.startsWith('seti_') ? 'setup_intents' : 'payment_intents';
  const confirmed = await browserForm(base, key, `/v1/${kind}/${id}/confirm`, {
    client_secret: clientSecret,
    payment_method: String(method.body.id),
  });
  return { ...confirmed, paymentMethod: String(method.body.id) };
}

async function buy(
  user: TestUser,
  itemType: 'song' | 'album',
  itemId: string,
  amount: number,
  card?: string,
) {
  const created = await http.post('/api/payments/stripe/create-payment', { itemType, itemId, amount }, user);
  expect(created.statusCode, created.body).toBe(200);
  const body = created.json<{ clientSecret: string; transactionId: string; paymentIntentId: string }>();
  const paid = await payInBrowser(body.clientSecret, card);
  await webhooksSettled(g.emulator, 'stripe');
  return { ...body, paid };
}

async function orderStatus(user: TestUser, orderId: string) {
  return (await http.get(`/api/payments/orders/${orderId}`, user)).json<{ order: { status: string } }>().order
    .status;
}

/** Subscribes through Stripe as the web app does: save the card, subscribe, confirm the first invoice. */
async function subscribe(user: TestUser, cycle: '1m' | '3m' = '1m', amount = 499) {
  const setup = await http.post('/api/subscriptions/setup-intent', {}, user);
  expect(setup.statusCode, setup.body).toBe(200);
  const saved = await payInBrowser(setup.json<{ clientSecret: string }>().clientSecret);
  expect(saved.body.status).toBe('succeeded');
  const created = await http.post(
    `/api/subscriptions/artist/${ids.artist}`,
    {
      gateway: 'stripe',
      cycle,
      amount,
      paymentMethodId: saved.paymentMethod,
      address: { country: 'us', postalCode: '10001' },
    },
    user,
  );
  expect(created.statusCode, created.body).toBe(201);
  const body = created.json<{ transactionId: string; clientSecret: string; subscriptionId: string }>();
  const confirmed = await browserForm(
    g.emulator.stripe.url,
    g.credentials.stripe.publishableKey,
    `/v1/payment_intents/${body.clientSecret.split('_secret_')[0]}/confirm`,
    { client_secret: body.clientSecret, payment_method: saved.paymentMethod },
  );
  expect(confirmed.body.status).toBe('succeeded');
  await webhooksSettled(g.emulator, 'stripe');
  return body;
}

async function localSubscription(externalId: string) {
  const [row] = await g.ctx.database.db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.gateway, 'stripe'), eq(subscriptions.externalId, externalId)));
  return row!;
}

beforeAll(async () => {
  g = await gatewayTestApp();
  http = requests(g.ctx);
  const f = catalogFixtures(g.ctx.database);
  const c = commerceFixtures(g.ctx);
  const owner = await f.user('artist');
  admin = await f.user('admin');
  ids.artist = (await f.artist({ name: 'Nova Reyes', ownerUserId: owner.id })).id;
  const artistId = ids.artist;
  ids.single = await c.song({ artistId, title: 'Low Tide', price: 129, accessType: 'purchase-only' });
  ids.premium = await c.album({ artistId, title: 'Deep Water', price: 1499, isPremium: true });
  ids.premiumTrack = await c.song({
    artistId,
    title: 'Abyss',
    price: 99,
    accessType: 'purchase-only',
    albumId: ids.premium,
  });
  ids.subSong = await c.song({ artistId, title: 'Drift', price: 0, accessType: 'subscription' });
});
afterAll(async () => {
  await webhooksSettled(g.emulator, 'stripe').catch(() => undefined);
  await g.close();
});

describe('Stripe purchases: PaymentIntent -> Payment Element -> verified webhook -> entitlement', () => {
  it('buys a song: the order is paid by the webhook, the song plays, a receipt is mailed', async () => {
    const user = await fan();
    expect(await http.stream(ids.single!, user)).toBe(403);
    const { transactionId, paid } = await buy(user, 'song', ids.single!, 129);
    expect(paid.body.status).toBe('succeeded');
    expect(await orderStatus(user, transactionId)).toBe('paid');
    expect(await http.stream(ids.single!, user)).toBe(200);
    const rows = await g.ctx.database.db.select().from(payments).where(eq(payments.orderId, transactionId));
    expect(rows).toMatchObject([{ gateway: 'stripe', status: 'succeeded', amount: 129, currency: 'USD' }]);
    await g.ctx.app.services.jobs.drain();
    expect(g.mailer.sent.some((m) => m.subject === 'Your receipt: Low Tide')).toBe(true);
  });

  it('buys a premium album: its tracks play', async () => {
    const user = await fan();
    expect(await http.stream(ids.premiumTrack!, user)).toBe(403);
    const { transactionId } = await buy(user, 'album', ids.premium!, 1499);
    expect(await orderStatus(user, transactionId)).toBe('paid');
    expect(await http.stream(ids.premiumTrack!, user)).toBe(200);
  });

  it('a declined card (4000 0000 0000 0002) fails the order with Stripe’s message and grants nothing', async () => {
    const user = await fan();
    const { transactionId, paid } = await buy(user, 'song', ids.single!, 129, '4000000000000002');
    expect(paid.status).toBe(402);
    expect(paid.body).toMatchObject({ error: { message: 'Your card was declined.', code: 'card_declined' } });
    expect(await eventually(async () => (await orderStatus(user, transactionId)) === 'failed')).toBe(true);
    expect(await http.stream(ids.single!, user)).toBe(403);
  });

  it('refuses a stale client price (400) and a guest (401), writing nothing', async () => {
    const user = await fan();
    await webhooksSettled(g.emulator, 'stripe');
    const before = await paymentCounts(g.ctx);
    const stale = await http.post(
      '/api/payments/stripe/create-payment',
      { itemType: 'song', itemId: ids.single!, amount: 99 },
      user,
    );
    expect(stale.statusCode).toBe(400);
    expect(stale.json()).toMatchObject({ code: 'AMOUNT_MISMATCH' });
    const guest = await http.post('/api/payments/stripe/create-payment', {
      itemType: 'song',
      itemId: ids.single!,
      amount: 129,
    });
    expect(guest.statusCode).toBe(401);
    expect(await paymentCounts(g.ctx)).toEqual(before);
  });
});

describe('Stripe webhooks: verified, idempotent, never retried forever', () => {
  it('refuses a forged or stale signature with 400 and writes nothing', async () => {
    const user = await fan();
    await buy(user, 'song', ids.single!, 129);
    const succeeded = g.emulator.events('stripe').findLast((e) => e.type === 'payment_intent.succeeded')!;
    const event = g.emulator.signedEvent(succeeded.eventId)!;
    const before = await paymentCounts(g.ctx);
    const url = `${g.baseUrl}/api/payments/stripe/webhook`;
    const forged = await postJson(url, event.body, {
      'stripe-signature': stripeSignature(event.body, 'whsec_wrong', Math.floor(Date.now() / 1000)),
    });
    expect(forged).toEqual({
      status: 400,
      body: { message: 'Invalid Stripe signature', code: 'INVALID_SIGNATURE' },
    });
    const stale = await postJson(url, event.body, {
      'stripe-signature': stripeSignature(
        event.body,
        g.credentials.stripe.webhookSecret,
        Math.floor(Date.now() / 1000) - 600,
      ),
    });
    expect(stale.status).toBe(400);
    const tampered = await postJson(
      url,
      event.body.replace('"livemode": false', '"livemode": true'),
      event.headers,
    );
    expect(tampered.status).toBe(400);
    const unsigned = await postJson(url, event.body);
    expect(unsigned.body).toEqual({ message: 'Missing Stripe-Signature header', code: 'INVALID_SIGNATURE' });
    expect(await paymentCounts(g.ctx)).toEqual(before);
  });

  it('a genuinely signed body that is not an event is 400 { message, code } and writes nothing', async () => {
    await webhooksSettled(g.emulator, 'stripe'); // earlier tests' deliveries land first
    const url = `${g.baseUrl}/api/payments/stripe/webhook`;
    const before = await paymentCounts(g.ctx);
    for (const body of ['null', '[]', '"payment_intent.succeeded"', '{}']) {
      const answer = await postJson(url, body, {
        'stripe-signature': stripeSignature(
          body,
          g.credentials.stripe.webhookSecret,
          Math.floor(Date.now() / 1000),
        ),
      });
      expect(answer.status, body).toBe(400);
      expect(answer.body, body).toMatchObject({ message: expect.any(String), code: expect.any(String) });
    }
    expect(await paymentCounts(g.ctx)).toEqual(before);
  });

  it('the same event delivered 50 times in parallel grants once and writes one payment', async () => {
    const user = await fan();
    g.emulator.setWebhookUrl('stripe', undefined); // hold the deliveries back
    const created = await http.post(
      '/api/payments/stripe/create-payment',
      { itemType: 'song', itemId: ids.single!, amount: 129 },
      user,
    );
    const { clientSecret, transactionId, paymentIntentId } = created.json<{
      clientSecret: string;
      transactionId: string;
      paymentIntentId: string;
    }>();
    await payInBrowser(clientSecret);
    await webhooksSettled(g.emulator, 'stripe');
    g.emulator.setWebhookUrl('stripe', `${g.baseUrl}/api/payments/stripe/webhook`);
    const succeeded = g.emulator.events('stripe').findLast((e) => e.type === 'payment_intent.succeeded')!;
    expect(await orderStatus(user, transactionId)).toBe('pending');
    const event = g.emulator.signedEvent(succeeded.eventId)!;
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        postJson(`${g.baseUrl}/api/payments/stripe/webhook`, event.body, event.headers),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    const db = g.ctx.database.db;
    expect(await db.select().from(payments).where(eq(payments.externalId, paymentIntentId))).toHaveLength(1);
    expect(await db.select().from(purchases).where(eq(purchases.orderId, transactionId))).toHaveLength(1);
    expect(
      await db.select().from(paymentEvents).where(eq(paymentEvents.eventId, succeeded.eventId)),
    ).toMatchObject([{ status: 'processed', orderId: transactionId }]);
    expect(await http.stream(ids.single!, user)).toBe(200);
    await webhooksSettled(g.emulator, 'stripe');

    // A later redelivery is answered from the ledger: Stripe is not asked for the intent again (API quota).
    const fetched = g.emulator.hold(
      'stripe',
      (method, path) => method === 'GET' && path.includes(paymentIntentId),
    );
    const first = await Promise.race([
      fetched.reached.then(() => 'asked Stripe again'),
      postJson(`${g.baseUrl}/api/payments/stripe/webhook`, event.body, event.headers).then((a) => a.status),
    ]);
    fetched.release();
    expect(first).toBe(200);
  });

  it('records an event for an order it does not know and answers 200 (no endless retries)', async () => {
    const stripe = (await import('stripe')).default;
    const base = new URL(g.emulator.stripe.url);
    const direct = new stripe(g.credentials.stripe.secretKey, {
      host: base.hostname,
      port: Number(base.port),
      protocol: 'http',
    });
    const intent = await direct.paymentIntents.create({
      amount: 500,
      currency: 'usd',
      metadata: { order_id: '00000000-0000-4000-8000-00000000abcd' },
    });
    await payInBrowser(intent.client_secret!);
    await webhooksSettled(g.emulator, 'stripe');
    const [event] = await g.ctx.database.db
      .select()
      .from(paymentEvents)
      .where(and(eq(paymentEvents.gateway, 'stripe'), eq(paymentEvents.type, 'payment_intent.succeeded')))
      .orderBy(paymentEvents.receivedAt);
    expect(event).toBeTruthy();
    const unknown = await g.ctx.database.db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.status, 'unknown_order'));
    expect(unknown.some((row) => JSON.stringify(row.payload).includes(intent.id))).toBe(true);
  });
});

describe('Stripe subscriptions: renewals, failures and endings move exactly the paid period', () => {
  it('subscribes for 3 months; the renewal extends to the period end Stripe reports', async () => {
    const user = await fan();
    expect(await http.stream(ids.subSong!, user)).toBe(403);
    const started = await subscribe(user, '3m', 1497);
    expect(await orderStatus(user, started.transactionId)).toBe('paid');
    expect(await http.stream(ids.subSong!, user)).toBe(200);
    const stripe = (await import('stripe')).default;
    const base = new URL(g.emulator.stripe.url);
    const direct = new stripe(g.credentials.stripe.secretKey, {
      host: base.hostname,
      port: Number(base.port),
      protocol: 'http',
    });
    const remote = await direct.subscriptions.retrieve(started.subscriptionId);
    const local = await localSubscription(started.subscriptionId);
    expect(local.status).toBe('active');
    expect(local.currentPeriodEnd!.getTime()).toBe(remote.items.data[0]!.current_period_end * 1000);

    await g.emulator.clock.advance(93 * DAY_MS);
    await webhooksSettled(g.emulator, 'stripe');
    const renewed = await direct.subscriptions.retrieve(started.subscriptionId);
    const afterRenewal = await localSubscription(started.subscriptionId);
    expect(afterRenewal.currentPeriodEnd!.getTime()).toBe(renewed.items.data[0]!.current_period_end * 1000);
    expect(afterRenewal.currentPeriodEnd!.getTime()).toBeGreaterThan(local.currentPeriodEnd!.getTime());
    const renewals = await g.ctx.database.db
      .select()
      .from(orders)
      .where(and(eq(orders.subscriptionId, afterRenewal.id), eq(orders.renewal, true)));
    expect(renewals).toMatchObject([{ status: 'paid', amount: 1497, gateway: 'stripe' }]);
    expect(await http.stream(ids.subSong!, user)).toBe(200);
    const history = (await http.get('/api/payments/history', user)).json<{
      history: Array<{ renewal?: boolean }>;
    }>();
    expect(history.history.filter((entry) => entry.renewal)).toHaveLength(1);
  });

  it('a failed renewal makes it past due; deleted after dunning, it plays to the period end and not a day more', async () => {
    const user = await fan();
    const started = await subscribe(user);
    const local = await localSubscription(started.subscriptionId);
    await postJson(`${g.emulator.stripe.url}/_emulator/subscriptions/${started.subscriptionId}/renew`, {
      outcome: 'failed',
    });
    await webhooksSettled(g.emulator, 'stripe');
    expect((await localSubscription(started.subscriptionId)).status).toBe('past_due');
    // The period already paid for still plays.
    expect(await http.stream(ids.subSong!, user)).toBe(200);
    await postJson(`${g.emulator.stripe.url}/_emulator/subscriptions/${started.subscriptionId}/delete`, {});
    await webhooksSettled(g.emulator, 'stripe');
    const ended = await localSubscription(started.subscriptionId);
    expect(ended).toMatchObject({ status: 'cancelled', cancelAtPeriodEnd: true });
    expect(ended.currentPeriodEnd).toEqual(local.currentPeriodEnd);
    expect(await http.stream(ids.subSong!, user)).toBe(200);
    const msLeft = local.currentPeriodEnd!.getTime() - g.emulator.clock.now().getTime();
    await g.emulator.clock.advance(msLeft - 60_000);
    expect(await http.stream(ids.subSong!, user)).toBe(200);
    await g.emulator.clock.advance(120_000);
    const refused = await g.ctx.app.inject({
      method: 'GET',
      url: `/api/stream/song/${ids.subSong}`,
      headers: user.headers,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ message: 'Subscribe to Nova Reyes to play this song.' });
  });

  it('cancel keeps access until the period end at Stripe too, then the SPEC message', async () => {
    const user = await fan();
    const started = await subscribe(user);
    const cancelled = await http.del(`/api/subscriptions/artist/${ids.artist}`, user);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toEqual({ message: 'Subscription cancelled' });
    await webhooksSettled(g.emulator, 'stripe');
    const stripe = (await import('stripe')).default;
    const base = new URL(g.emulator.stripe.url);
    const direct = new stripe(g.credentials.stripe.secretKey, {
      host: base.hostname,
      port: Number(base.port),
      protocol: 'http',
    });
    expect((await direct.subscriptions.retrieve(started.subscriptionId)).cancel_at_period_end).toBe(true);
    expect(await http.stream(ids.subSong!, user)).toBe(200);
    const listed = (await http.get('/api/user/dashboard/subscriptions', user)).json<{
      subscriptions: Array<{ status: string; cancelAtPeriodEnd: boolean }>;
    }>();
    expect(listed.subscriptions[0]).toMatchObject({ cancelAtPeriodEnd: true });
    await g.emulator.clock.advance(32 * DAY_MS);
    await webhooksSettled(g.emulator, 'stripe');
    const refused = await g.ctx.app.inject({
      method: 'GET',
      url: `/api/stream/song/${ids.subSong}`,
      headers: user.headers,
    });
    expect(refused.json()).toMatchObject({ message: 'Subscribe to Nova Reyes to play this song.' });
    expect((await localSubscription(started.subscriptionId)).status).toMatch(/cancelled|expired/);
  });
});

describe('Stripe refunds and disputes revoke', () => {
  it('an admin refund revokes the song at once; the later webhook adds nothing', async () => {
    const user = await fan();
    const { transactionId } = await buy(user, 'song', ids.single!, 129);
    const refunded = await http.post(
      `/api/admin/orders/${transactionId}/refund`,
      { reason: 'Changed my mind' },
      admin,
    );
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(refunded.json()).toMatchObject({ order: { status: 'refunded' } });
    expect(await http.stream(ids.single!, user)).toBe(403);
    await webhooksSettled(g.emulator, 'stripe');
    expect(
      await g.ctx.database.db.select().from(refunds).where(eq(refunds.orderId, transactionId)),
    ).toHaveLength(1);
  });

  it('a refund from Stripe’s dashboard arrives as charge.refunded and revokes', async () => {
    const user = await fan();
    const { transactionId, paymentIntentId } = await buy(user, 'song', ids.single!, 129);
    expect(await http.stream(ids.single!, user)).toBe(200);
    await postJson(`${g.emulator.stripe.url}/_emulator/charges/${paymentIntentId}/refund`, {});
    await webhooksSettled(g.emulator, 'stripe');
    expect(await orderStatus(user, transactionId)).toBe('refunded');
    expect(await http.stream(ids.single!, user)).toBe(403);
  });

  it('a dispute revokes the album and marks the order disputed', async () => {
    const user = await fan();
    const { transactionId, paymentIntentId } = await buy(user, 'album', ids.premium!, 1499);
    await postJson(`${g.emulator.stripe.url}/_emulator/charges/${paymentIntentId}/dispute`, {});
    await webhooksSettled(g.emulator, 'stripe');
    expect(await orderStatus(user, transactionId)).toBe('disputed');
    expect(await http.stream(ids.premiumTrack!, user)).toBe(403);
    const [row] = await g.ctx.database.db.select().from(refunds).where(eq(refunds.orderId, transactionId));
    expect(row).toMatchObject({ kind: 'dispute', amount: 1499 });
  });

  it('an admin refund of a subscription revokes it and stops it renewing at Stripe', async () => {
    const user = await fan();
    const started = await subscribe(user);
    expect((await http.post(`/api/admin/orders/${started.transactionId}/refund`, {}, admin)).statusCode).toBe(
      200,
    );
    expect(await http.stream(ids.subSong!, user)).toBe(403);
    expect((await localSubscription(started.subscriptionId)).status).toBe('revoked');
    // Stopping the renewals at Stripe is a job (retried until Stripe agrees).
    await g.ctx.app.services.jobs.drain();
    const stripe = (await import('stripe')).default;
    const base = new URL(g.emulator.stripe.url);
    const direct = new stripe(g.credentials.stripe.secretKey, {
      host: base.hostname,
      port: Number(base.port),
      protocol: 'http',
    });
    expect((await direct.subscriptions.retrieve(started.subscriptionId)).cancel_at_period_end).toBe(true);
  });
});
