/**
 * Payment webhook benchmark: verified Stripe `payment_intent.succeeded` events per second on PostgreSQL, each
 * checked the way production checks it (signature on the raw body, the intent re-fetched from the gateway, the
 * order settled and the purchase granted in one transaction), printed next to the key endpoint's figure from the
 * same run. The gateway is the local emulator (this machine reaches no provider), so the re-fetch is a loopback call.
 *
 *   npm run bench:webhooks -w @backbeat/bench                # a throwaway PostgreSQL cluster (needs its binaries)
 *   npm run bench:webhooks -w @backbeat/bench -- --pglite    # the embedded database instead
 *   BENCH_EVENTS=2000 BENCH_CONCURRENCY=32 BENCH_SECONDS=10 ...
 *
 * Rows: first deliveries (the full settle path), the same deliveries again (the idempotent path: the event id is
 * already recorded), forged signatures (refused before any database work). After each phase it checks the ledger:
 * one payment and one purchase per order, however often the event came.
 */
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { count, eq } from 'drizzle-orm';
import { buildApp, loadConfig } from '@backbeat/server/app';
import {
  artists,
  type Database,
  hashToken,
  orders,
  payments,
  purchases,
  sessions,
  songs,
  titleSearchText,
  toSearchText,
  users,
} from '@backbeat/server/db';
import { generateEmulatorCredentials, startGatewayEmulator } from '../packages/gateway-emulator/src/index';
import { openBenchDatabase, seedStreamingListener } from './bench-fixtures';
import { autocannon, hasCommand, ownCpuMs } from './http-load';

const run = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const usePostgres = !process.argv.includes('--pglite');
const PRICE = 129;
/** Below the server's limit of 60 orders per user and hour. */
const ORDERS_PER_BUYER = 50;

interface SenderResult {
  count: number;
  seconds: number;
  p50Ms: number | null;
  p99Ms: number | null;
  statuses: Record<string, number>;
}

interface Row {
  what: string;
  count: number;
  perSec: number;
  p50Ms: number | null;
  p99Ms: number | null;
  cpuUs: number | null;
  answers: string;
  note: string;
}

/** Runs `work` with up to `limit` calls in flight. */
async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

async function expectOk(response: Response, what: string) {
  const text = await response.text();
  if (!response.ok) throw new Error(`${what} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** Buyers with sessions (each stays under the server's hourly order limit) and EVENTS purchase-only songs. */
async function seedCatalogue(database: Database) {
  const db = database.db;
  const buyers: Array<{ authorization: string }> = [];
  for (let i = 0; i < Math.ceil(EVENTS / ORDERS_PER_BUYER); i++) {
    const userId = randomUUID();
    const session = randomBytes(32).toString('base64url');
    await db
      .insert(users)
      .values({ id: userId, name: `Bench Buyer ${i + 1}`, email: `${userId}@bench.local` });
    await db
      .insert(sessions)
      .values({ userId, tokenHash: hashToken(session), expiresAt: new Date(Date.now() + 86_400_000) });
    buyers.push({ authorization: `Bearer ${session}` });
  }
  const artistId = randomUUID();
  await db
    .insert(artists)
    .values({ id: artistId, name: 'Bench Label', searchText: toSearchText('Bench Label') });
  const songIds: string[] = [];
  for (let start = 0; start < EVENTS; start += 500) {
    const batch = Array.from({ length: Math.min(500, EVENTS - start) }, (_, i) => {
      const id = randomUUID();
      songIds.push(id);
      const title = `Bench Song ${start + i + 1}`;
      return {
        id,
        artistId,
        title,
        singer: 'Bench Label',
        status: 'ready' as const,
        durationSec: 180,
        accessType: 'purchase-only' as const,
        price: PRICE,
        searchText: titleSearchText(title, 'Bench Label'),
      };
    });
    await db.insert(songs).values(batch);
  }
  return { buyers, songIds };
}

async function send(file: string, url: string): Promise<SenderResult> {
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', path.join(here, 'webhook-sender.ts'), file, url, String(CONCURRENCY)],
    { cwd: here, maxBuffer: 1 << 20 },
  );
  return JSON.parse(stdout.trim().split('\n').pop()!) as SenderResult;
}

async function ledger(database: Database) {
  const db = database.db;
  const [paid] = await db.select({ n: count() }).from(orders).where(eq(orders.status, 'paid'));
  const [paymentRows] = await db.select({ n: count() }).from(payments);
  const [granted] = await db.select({ n: count() }).from(purchases);
  return { paidOrders: paid!.n, payments: paymentRows!.n, purchases: granted!.n };
}

function printTable(rows: Row[], database: string) {
  const fmt = (n: number | null, digits = 0) => (n === null ? '-' : n.toFixed(digits));
  const table = rows.map((row) => ({
    what: row.what,
    count: String(row.count),
    'per s': fmt(row.perSec),
    'p50 ms': fmt(row.p50Ms, 2),
    'p99 ms': fmt(row.p99Ms, 2),
    'CPU us/req': fmt(row.cpuUs),
    answers: row.answers,
    note: row.note,
  }));
  type Cell = keyof (typeof table)[number];
  const columns = Object.keys(table[0]!) as Cell[];
  const widths = columns.map((c) => Math.max(c.length, ...table.map((r) => r[c].length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(
    `\nWebhook benchmark: database ${database}, ${EVENTS} orders, ${CONCURRENCY} deliveries in flight, ` +
      `loopback; CPU is the server process (app and emulator share it)\n`,
  );
  console.log(line(columns));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const row of table) console.log(line(columns.map((c) => row[c])));
}

async function main() {
  const work = await mkdtemp(path.join(tmpdir(), 'backbeat-webhook-bench-'));
  const { database, cluster } = await openBenchDatabase(work, usePostgres);
  const credentials = generateEmulatorCredentials();
  const emulator = await startGatewayEmulator({ credentials });
  const stops: Array<() => Promise<void>> = [() => emulator.close()];
  try {
    await database.migrate();
    // NODE_ENV=test: production refuses the emulator's API base (it would point real keys at a stand-in).
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: work,
      SECRET_KEY: randomBytes(48).toString('base64url'),
      PUBLIC_URL: 'http://127.0.0.1',
      LOG_LEVEL: 'silent',
      SEED_DEMO: 'false',
      STRIPE_SECRET_KEY: credentials.stripe.secretKey,
      STRIPE_PUBLISHABLE_KEY: credentials.stripe.publishableKey,
      STRIPE_WEBHOOK_SECRET: credentials.stripe.webhookSecret,
      STRIPE_API_BASE: emulator.stripe.url,
    });
    const app = await buildApp({ config, database });
    stops.unshift(() => app.close());
    await app.listen({ port: 0, host: '127.0.0.1' });
    const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const webhookUrl = `${origin}/api/payments/stripe/webhook`;
    const { buyers, songIds } = await seedCatalogue(database);
    const rows: Row[] = [];

    // Orders priced by the server, then paid in the gateway as Stripe.js would. No webhook URL is set yet, so the
    // gateway holds the events back: the deliveries are then sent at full speed from a separate process.
    process.stderr.write(`creating and paying ${EVENTS} orders...\n`);
    const intentIds: string[] = [];
    const createStarted = performance.now();
    const stripeForm = (pathname: string, form: Record<string, string>) =>
      fetch(`${emulator.stripe.url}${pathname}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${credentials.stripe.publishableKey}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams(form).toString(),
      });
    await pool(
      songIds.map((songId, i) => ({ songId, bearer: buyers[Math.floor(i / ORDERS_PER_BUYER)]! })),
      8,
      async ({ songId, bearer }) => {
        const created = await expectOk(
          await fetch(`${origin}/api/payments/stripe/create-payment`, {
            method: 'POST',
            headers: { ...bearer, 'content-type': 'application/json' },
            body: JSON.stringify({ itemType: 'song', itemId: songId, amount: PRICE }),
          }),
          'create-payment',
        );
        const clientSecret = String(created.clientSecret);
        const intentId = clientSecret.split('_secret_')[0]!;
        intentIds.push(intentId);
        const method = await expectOk(
          await stripeForm('/v1/payment_methods', {
            type: 'card',
            'card[number]': '4242424242424242',
            'card[exp_month]': '12',
            'card[exp_year]': '39',
            'card[cvc]': '123',
          }),
          'payment method',
        );
        await expectOk(
          await stripeForm(`/v1/payment_intents/${intentId}/confirm`, {
            client_secret: clientSecret,
            payment_method: String(method.id),
          }),
          'confirm',
        );
      },
    );
    const createSeconds = (performance.now() - createStarted) / 1000;
    process.stderr.write(
      `${EVENTS} orders created and paid in ${createSeconds.toFixed(1)} s ` +
        `(create-payment + card + confirm, 8 in flight, in-process client)\n`,
    );

    const succeeded = emulator.events('stripe').filter((event) => event.type === 'payment_intent.succeeded');
    if (succeeded.length !== EVENTS)
      throw new Error(`expected ${EVENTS} succeeded events, got ${succeeded.length}`);
    const sign = () =>
      succeeded.map((event) => {
        const signed = emulator.signedEvent(event.eventId)!;
        return { body: signed.body, headers: signed.headers };
      });
    const file = path.join(work, 'deliveries.json');

    const phase = async (
      what: string,
      note: string,
      deliveries: Array<{ body: string; headers: Record<string, string> }>,
    ) => {
      await writeFile(file, JSON.stringify(deliveries));
      process.stderr.write(`sending: ${what}...\n`);
      const cpuBefore = await ownCpuMs();
      const result = await send(file, webhookUrl);
      const cpuUs = (((await ownCpuMs()) - cpuBefore) * 1000) / result.count;
      rows.push({
        what,
        count: result.count,
        perSec: result.count / result.seconds,
        p50Ms: result.p50Ms,
        p99Ms: result.p99Ms,
        cpuUs,
        answers: Object.entries(result.statuses)
          .map(([status, n]) => `${n}x${status}`)
          .join(' '),
        note,
      });
      const after = await ledger(database);
      if (after.paidOrders !== EVENTS || after.payments !== EVENTS || after.purchases !== EVENTS) {
        throw new Error(
          `ledger after "${what}" is wrong: ${JSON.stringify(after)} (expected ${EVENTS} of each)`,
        );
      }
      return result;
    };

    const before = await ledger(database);
    if (before.paidOrders !== 0 || before.purchases !== 0)
      throw new Error(`settled early: ${JSON.stringify(before)}`);
    await phase(
      'payment_intent.succeeded, first delivery',
      'verify + re-fetch intent + settle + grant',
      sign(),
    );
    await phase('the same events again', 'idempotent: event id already recorded', sign());
    await phase(
      'forged signature',
      'refused before any database work',
      sign().map((delivery) => ({
        body: delivery.body,
        headers: {
          ...delivery.headers,
          'stripe-signature': delivery.headers['stripe-signature']!.replace(
            /v1=[0-9a-f]+/,
            `v1=${'0'.repeat(64)}`,
          ),
        },
      })),
    );

    // The key endpoint from the same run, for scale (bench:stream measures it in depth).
    if (hasCommand('ffmpeg') || process.env.FFMPEG_PATH) {
      const listener = await seedStreamingListener(database, app.services.mediaStore, work);
      const keyBearer = { authorization: `Bearer ${listener.session}` };
      const issued = await expectOk(
        await fetch(`${origin}/api/stream/song/${listener.songId}`, { headers: keyBearer }),
        'stream/song',
      );
      const token = new URL(`${origin}${String(issued.url)}`).searchParams.get('token')!;
      const keyUrl = `${origin}/api/stream/hls/${listener.songId}/key?token=${token}`;
      await autocannon(keyUrl, { seconds: 2, headers: keyBearer });
      process.stderr.write(`measuring the key endpoint (autocannon -c50, ${SECONDS} s)...\n`);
      const cpuBefore = await ownCpuMs();
      const key = await autocannon(keyUrl, { seconds: SECONDS, headers: keyBearer });
      rows.push({
        what: 'key endpoint (bearer session + token + policy)',
        count: key.requests,
        perSec: key.requestsPerSec,
        p50Ms: key.p50Ms,
        p99Ms: key.p99Ms,
        cpuUs: (((await ownCpuMs()) - cpuBefore) * 1000) / key.requests,
        answers: key.errors ? `${key.errors} errors` : 'all 200',
        note: 'reference: autocannon -c50',
      });
    } else {
      process.stderr.write('ffmpeg not found: the key endpoint row is left out\n');
    }
    printTable(rows, database.kind);
  } finally {
    for (const stop of stops) await stop();
    await database.close();
    cluster?.stop();
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
