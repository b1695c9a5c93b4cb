import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentCustomers, users } from '../src/db/schema';
import { catalogFixtures } from './catalog-fixtures';
import { browserForm, gatewayTestApp, webhooksSettled, type GatewayTestApp } from './gateways.fixtures';
import { requests, type TestUser } from './payments.fixtures';

/**
 * Deleting an account deletes its customer at Stripe (e-mail, name, address, saved cards) through the Stripe SDK.
 * The gateway emulator has no DELETE /v1/customers/:id, so the app reaches it through a recording proxy that
 * answers that one call as Stripe documents it ({ id, object: 'customer', deleted: true }), or with an outage.
 */
let g: GatewayTestApp;
let proxy: http.Server;
const seen: Array<{ method: string; path: string; authorization: string | undefined; body: string }> = [];
let customerAnswer: { status: number; body: unknown } | null = null;

beforeAll(async () => {
  let emulatorUrl = '';
  proxy = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      const body = Buffer.concat(chunks);
      seen.push({
        method: req.method ?? '',
        path,
        authorization: req.headers.authorization,
        body: body.toString('utf8'),
      });
      const deleting = req.method === 'DELETE' && /^\/v1\/customers\/[^/]+$/.test(path);
      if (deleting && customerAnswer) {
        res.writeHead(customerAnswer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(customerAnswer.body));
        return;
      }
      const forward = http.request(
        `${emulatorUrl}${path}`,
        { method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      // The emulator closing under a forwarded call (at the end of the file) must not leave it hanging.
      forward.on('error', () => res.destroy());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  g = await gatewayTestApp({ env: { STRIPE_API_BASE: proxyUrl } });
  emulatorUrl = g.emulator.stripe.url;
});
afterAll(async () => {
  await g.close();
  // The Stripe SDK keeps its connections alive: close them rather than wait for them to go idle.
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
});

/** A listener with a Stripe customer (made when they first save a card). */
async function customerAccount() {
  const user = await catalogFixtures(g.ctx.database).user('user');
  const setup = await requests(g.ctx).post('/api/subscriptions/setup-intent', {}, user);
  expect(setup.statusCode, setup.body).toBe(200);
  const [customer] = await g.ctx.database.db
    .select()
    .from(paymentCustomers)
    .where(eq(paymentCustomers.userId, user.id));
  expect(customer?.externalId).toMatch(/^cus_/);
  return { user, customerId: customer!.externalId };
}

/** The web app's Stripe subscription: save a card, subscribe, confirm the first invoice (see payments-stripe). */
async function subscribeThroughStripe(user: TestUser): Promise<string> {
  const http = requests(g.ctx);
  const owner = await catalogFixtures(g.ctx.database).user('artist');
  const artistId = (
    await catalogFixtures(g.ctx.database).artist({ name: 'Subscribed', ownerUserId: owner.id })
  ).id;
  const key = g.credentials.stripe.publishableKey;
  const card = async () => {
    const method = await browserForm(g.emulator.stripe.url, key, '/v1/payment_methods', {
      type: 'card',
      'card[number]': '4242424242424242',
      'card[exp_month]': '12',
      'card[exp_year]': '39',
      'card[cvc]': '123',
    });
    return String(method.body.id);
  };
  const setup = (await http.post('/api/subscriptions/setup-intent', {}, user)).json<{
    clientSecret: string;
  }>();
  const paymentMethod = await card();
  await browserForm(
    g.emulator.stripe.url,
    key,
    `/v1/setup_intents/${setup.clientSecret.split('_secret_')[0]}/confirm`,
    {
      client_secret: setup.clientSecret,
      payment_method: paymentMethod,
    },
  );
  const created = await http.post(
    `/api/subscriptions/artist/${artistId}`,
    {
      gateway: 'stripe',
      cycle: '1m',
      amount: 499,
      paymentMethodId: paymentMethod,
      address: { country: 'us', postalCode: '10001' },
    },
    user,
  );
  expect(created.statusCode, created.body).toBe(201);
  const body = created.json<{ clientSecret: string; subscriptionId: string }>();
  await browserForm(
    g.emulator.stripe.url,
    key,
    `/v1/payment_intents/${body.clientSecret.split('_secret_')[0]}/confirm`,
    {
      client_secret: body.clientSecret,
      payment_method: paymentMethod,
    },
  );
  await webhooksSettled(g.emulator, 'stripe');
  return body.subscriptionId;
}

const deleteAccount = (user: { headers: Record<string, string> }) =>
  g.ctx.app.inject({ method: 'DELETE', url: '/api/users/me', headers: user.headers });
const accountRows = (id: string) => g.ctx.database.db.select().from(users).where(eq(users.id, id));

describe('account deletion at the gateways', () => {
  it('deletes the Stripe customer (DELETE /v1/customers/:id, the secret key) and then the account', async () => {
    const { user, customerId } = await customerAccount();
    customerAnswer = { status: 200, body: { id: customerId, object: 'customer', deleted: true } };
    const res = await deleteAccount(user);
    expect(res.statusCode, res.body).toBe(200);
    const calls = seen.filter((call) => call.method === 'DELETE');
    expect(calls).toEqual([
      {
        method: 'DELETE',
        path: `/v1/customers/${customerId}`,
        authorization: `Bearer ${g.credentials.stripe.secretKey}`,
        body: '',
      },
    ]);
    expect(await accountRows(user.id)).toEqual([]);
    expect(
      await g.ctx.database.db.select().from(paymentCustomers).where(eq(paymentCustomers.userId, user.id)),
    ).toEqual([]);
  });

  it('takes a customer Stripe no longer has (404) as deleted', async () => {
    const { user, customerId } = await customerAccount();
    customerAnswer = {
      status: 404,
      body: {
        error: {
          type: 'invalid_request_error',
          code: 'resource_missing',
          message: `No such customer: '${customerId}'`,
        },
      },
    };
    expect((await deleteAccount(user)).statusCode).toBe(200);
    expect(await accountRows(user.id)).toEqual([]);
  });

  it('stops a Stripe subscription from renewing before the customer goes: no further charges', async () => {
    const user = await catalogFixtures(g.ctx.database).user('user');
    const subscriptionId = await subscribeThroughStripe(user);
    customerAnswer = { status: 200, body: { id: 'cus_any', object: 'customer', deleted: true } };
    const from = seen.length;
    expect((await deleteAccount(user)).statusCode).toBe(200);
    const calls = seen.slice(from).map((call) => `${call.method} ${call.path.split('?')[0]} ${call.body}`);
    const cancel = calls.findIndex((call) => call.startsWith(`POST /v1/subscriptions/${subscriptionId} `));
    expect(calls[cancel]).toContain('cancel_at_period_end=true');
    expect(cancel).toBeLessThan(calls.findIndex((call) => call.startsWith('DELETE /v1/customers/')));
  });

  it('keeps the account, and says so, when Stripe refuses: nothing is half-deleted', async () => {
    const { user } = await customerAccount();
    customerAnswer = { status: 400, body: { error: { type: 'invalid_request_error', message: 'Nope' } } };
    const res = await deleteAccount(user);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({
      code: 'GATEWAY_ERROR',
      message: expect.stringMatching(/^Stripe could not be reached/),
    });
    expect(await accountRows(user.id)).toHaveLength(1);
    expect(
      await g.ctx.database.db.select().from(paymentCustomers).where(eq(paymentCustomers.userId, user.id)),
    ).toHaveLength(1);
  });
});
