import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  generateEmulatorCredentials,
  startGatewayEmulator,
  type GatewayEmulator,
} from '@backbeat/gateway-emulator';
import { openDatabase, type Database } from '../src/db/client';
import { paymentEvents, payments, purchases } from '../src/db/schema';
import { catalogFixtures } from './catalog-fixtures';
import { webhooksSettled } from './gateways.fixtures';
import { commerceFixtures } from './payments.fixtures';
import { freePort, startThrowawayCluster, type ThrowawayCluster } from './postgres-cluster';
import { exited, startServerProcess } from './server-process';
import type { TestContext } from './test-app';

/**
 * The production shape: the real server process on real PostgreSQL, Stripe through its SDK against the emulator.
 * The process is killed with SIGKILL while it handles `payment_intent.succeeded` (held inside its call back to
 * Stripe), restarted, and the event redelivered: the song is granted exactly once.
 */
const credentials = generateEmulatorCredentials();
let cluster: ThrowawayCluster;
let emulator: GatewayEmulator;
let database: Database;
let dataDir: string;
let port: number;

const startServer = async () =>
  (
    await startServerProcess(
      port,
      {
        DATA_DIR: dataDir,
        DATABASE_URL: cluster.url,
        STRIPE_SECRET_KEY: credentials.stripe.secretKey,
        STRIPE_PUBLISHABLE_KEY: credentials.stripe.publishableKey,
        STRIPE_WEBHOOK_SECRET: credentials.stripe.webhookSecret,
        STRIPE_API_BASE: emulator.stripe.url,
      },
      { echo: true },
    )
  ).child;

beforeAll(async () => {
  cluster = await startThrowawayCluster();
  // Deliveries are retried by hand below, not on a timer.
  emulator = await startGatewayEmulator({ credentials, retryDelaysMs: [] });
  dataDir = mkdtempSync(path.join(tmpdir(), 'backbeat-crash-'));
  port = await freePort();
  emulator.setWebhookUrl('stripe', `http://127.0.0.1:${port}/api/payments/stripe/webhook`);
}, 120_000);

afterAll(async () => {
  await database?.close();
  await emulator?.close();
  cluster?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

it('SIGKILL while handling payment_intent.succeeded, restart, redelivery: granted exactly once', async () => {
  let server = await startServer();
  database = await openDatabase({ kind: 'postgres', url: cluster.url, max: 2 });
  const f = catalogFixtures(database);
  const owner = await f.user('artist');
  const artist = await f.artist({ name: 'Crash Test', ownerUserId: owner.id });
  const song = await commerceFixtures({ database } as TestContext).song({
    artistId: artist.id,
    title: 'Power Cut',
    price: 199,
    accessType: 'purchase-only',
  });
  const user = await f.user('user');
  const base = `http://127.0.0.1:${port}`;
  const post = (url: string, body: unknown) =>
    fetch(`${base}${url}`, {
      method: 'POST',
      headers: { ...user.headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  const created = await post('/api/payments/stripe/create-payment', {
    itemType: 'song',
    itemId: song,
    amount: 199,
  });
  expect(created.status).toBe(200);
  const { clientSecret, transactionId } = (await created.json()) as {
    clientSecret: string;
    transactionId: string;
  };
  await webhooksSettled(emulator, 'stripe');

  // The server will call Stripe back for the intent while handling the event: hold that call, then kill it.
  const intentId = clientSecret.split('_secret_')[0]!;
  const hold = emulator.hold(
    'stripe',
    (method, p) => method === 'GET' && p === `/v1/payment_intents/${intentId}`,
  );
  const form = (body: Record<string, string>) => ({
    method: 'POST',
    headers: {
      authorization: `Bearer ${credentials.stripe.publishableKey}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(body).toString(),
  });
  const method = (await (
    await fetch(
      `${emulator.stripe.url}/v1/payment_methods`,
      form({
        type: 'card',
        'card[number]': '4242424242424242',
        'card[exp_month]': '12',
        'card[exp_year]': '39',
      }),
    )
  ).json()) as { id: string };
  const confirmed = await fetch(
    `${emulator.stripe.url}/v1/payment_intents/${intentId}/confirm`,
    form({ client_secret: clientSecret, payment_method: method.id }),
  );
  expect(((await confirmed.json()) as { status: string }).status).toBe('succeeded');
  await hold.reached;
  server.kill('SIGKILL');
  await exited(server);
  hold.release();
  await webhooksSettled(emulator, 'stripe');
  const succeeded = emulator.events('stripe').findLast((e) => e.type === 'payment_intent.succeeded')!;
  const attempts = emulator.deliveries('stripe').filter((d) => d.eventId === succeeded.eventId);
  expect(attempts).toHaveLength(1);
  expect(attempts[0]!.status).toBeNull(); // the connection died with the process
  expect(await database.db.select().from(purchases).where(eq(purchases.orderId, transactionId))).toHaveLength(
    0,
  );

  server = await startServer();
  try {
    expect(emulator.redeliver(succeeded.eventId)).toBe(true);
    await webhooksSettled(emulator, 'stripe');
    // And Stripe's own retry of the same event changes nothing more.
    emulator.redeliver(succeeded.eventId);
    await webhooksSettled(emulator, 'stripe');
    const answered = emulator.deliveries('stripe').filter((d) => d.eventId === succeeded.eventId);
    expect(answered.map((d) => d.status)).toEqual([null, 200, 200]);
    const db = database.db;
    expect(await db.select().from(payments).where(eq(payments.orderId, transactionId))).toHaveLength(1);
    expect(await db.select().from(purchases).where(eq(purchases.orderId, transactionId))).toHaveLength(1);
    expect(
      await db.select().from(paymentEvents).where(eq(paymentEvents.eventId, succeeded.eventId)),
    ).toMatchObject([{ status: 'processed', orderId: transactionId }]);
    const stream = await fetch(`${base}/api/stream/song/${song}`, { headers: user.headers });
    expect(stream.status).toBe(200);
  } finally {
    server.kill('SIGTERM');
    await exited(server);
  }
}, 240_000);
