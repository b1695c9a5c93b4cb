import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogFixtures } from './catalog-fixtures';
import { gatewayTestApp, type GatewayTestApp } from './gateways.fixtures';
import { commerceCounts, commerceFixtures, requests } from './payments.fixtures';
import { createTestApp, type TestContext } from './test-app';

/**
 * What a buyer reads when a gateway fails is a clear message and code (the details go to the log), and checkouts are
 * limited per account and per address so that a few accounts cannot use up the providers' API quota for everyone.
 */
describe("a gateway's failure reaches the buyer as a clear message and code", () => {
  let g: GatewayTestApp;
  let http: ReturnType<typeof requests>;
  let song: string;
  beforeAll(async () => {
    g = await gatewayTestApp();
    http = requests(g.ctx);
    const f = catalogFixtures(g.ctx.database);
    const owner = await f.user('artist');
    const artist = (await f.artist({ name: 'Outage', ownerUserId: owner.id })).id;
    song = await commerceFixtures(g.ctx).song({
      artistId: artist,
      title: 'Down',
      price: 299,
      accessType: 'purchase-only',
    });
  });
  afterAll(() => g.close());

  it.each([
    ['stripe', '/api/payments/stripe/create-payment', 'Stripe'],
    ['razorpay', '/api/payments/razorpay/create-order', 'Razorpay'],
    ['paypal', '/api/payments/paypal/create-order', 'PayPal'],
  ] as const)(
    '%s down: 502 GATEWAY_ERROR, a sentence for the buyer, no internals, no order left pending',
    async (gateway, url, label) => {
      const user = await catalogFixtures(g.ctx.database).user('user');
      const before = await commerceCounts(g.ctx);
      const end = g.emulator.fail(gateway, () => true, 1000);
      try {
        const res = await http.post(url, { itemType: 'song', itemId: song, amount: 299 }, user);
        expect(res.statusCode).toBe(502);
        expect(res.json()).toEqual({
          message: `${label} could not be reached. Nothing was charged; please try again.`,
          code: 'GATEWAY_ERROR',
        });
      } finally {
        end();
      }
      const after = await commerceCounts(g.ctx);
      // The order written before the call is cancelled, never left pending: no payment, no purchase.
      expect(after.payments).toBe(before.payments);
      expect(after.purchases).toBe(before.purchases);
    },
  );

  it('a refusal by the gateway names no internals either', async () => {
    const user = await catalogFixtures(g.ctx.database).user('user');
    const res = await http.post(
      '/api/payments/razorpay/verify',
      {
        razorpay_payment_id: 'pay_missing',
        razorpay_order_id: 'order_missing',
        razorpay_signature: 'x'.repeat(64),
      },
      user,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Invalid Razorpay signature', code: 'INVALID_SIGNATURE' });
  });
});

describe('checkouts are limited per account and per address, with Retry-After', () => {
  let ctx: TestContext;
  const songs: string[] = [];
  beforeAll(async () => {
    ctx = await createTestApp({ env: { TRUST_PROXY: '1' } });
    const f = catalogFixtures(ctx.database);
    const owner = await f.user('artist');
    const artist = (await f.artist({ name: 'Busy', ownerUserId: owner.id })).id;
    for (let index = 0; index < 3; index += 1) {
      songs.push(
        await commerceFixtures(ctx).song({
          artistId: artist,
          title: `Track ${index}`,
          price: 99,
          accessType: 'purchase-only',
        }),
      );
    }
  });
  afterAll(() => ctx.close());

  const order = (token: string, address: string, index: number) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/payments/sandbox/create-order',
      headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': address },
      payload: { itemType: 'song', itemId: songs[index % songs.length], amount: 99 },
    });

  it('one account: 30 checkouts in ten minutes, the next is 429 TOO_MANY_ORDERS with Retry-After, nothing written', async () => {
    const user = await catalogFixtures(ctx.database).user('user');
    for (let index = 0; index < 30; index += 1) {
      expect((await order(user.token, '198.51.100.7', index)).statusCode).toBe(201);
    }
    const before = await commerceCounts(ctx);
    const refused = await order(user.token, '198.51.100.8', 30);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'TOO_MANY_ORDERS' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await commerceCounts(ctx)).toEqual(before);
  });

  it('one address: 120 checkouts in ten minutes across accounts; another address still buys', async () => {
    const users = await Promise.all(
      Array.from({ length: 5 }, () => catalogFixtures(ctx.database).user('user')),
    );
    for (let index = 0; index < 120; index += 1) {
      expect((await order(users[index % 5]!.token, '203.0.113.50', index)).statusCode).toBe(201);
    }
    const refused = await order(users[0]!.token, '203.0.113.50', 120);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await order(users[0]!.token, '203.0.113.51', 121)).statusCode).toBe(201);
  });
});
