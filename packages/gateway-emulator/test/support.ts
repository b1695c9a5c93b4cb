import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import {
  generateEmulatorCredentials,
  startGatewayEmulator,
  type EmulatorOptions,
  type GatewayEmulator,
} from '../src/index';

/** A JSON body read by tests: its nested fields are checked by expect(), so they are loosely typed here. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type LooseJson = Record<string, any>;

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A local webhook receiver; `fail` makes the next n deliveries answer 500. */
export async function webhookReceiver() {
  const received: Received[] = [];
  let failures = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (failures > 0) {
        failures -= 1;
        res.writeHead(500).end('boom');
      } else res.writeHead(200).end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    url,
    received,
    failNext(n: number) {
      failures = n;
    },
    /** Parsed events of one type, in arrival order. */
    events<T = Record<string, unknown>>(type: string, key = 'type'): Array<{ event: T; raw: Received }> {
      return received
        .map((raw) => ({ raw, event: JSON.parse(raw.body) as T & Record<string, unknown> }))
        .filter(({ event }) => (event as Record<string, unknown>)[key] === type);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function startForTest(retryDelaysMs = [100, 200, 400], options: Partial<EmulatorOptions> = {}) {
  const credentials = generateEmulatorCredentials();
  const hooks = await webhookReceiver();
  const emulator: GatewayEmulator = await startGatewayEmulator({
    credentials,
    webhookUrls: { stripe: hooks.url, razorpay: hooks.url, paypal: hooks.url },
    retryDelaysMs,
    ...options,
  });
  return { credentials, hooks, emulator };
}

/** Waits until `check` passes (deliveries are asynchronous, as the providers' are). */
export async function eventually<T>(check: () => T | undefined | false, timeoutMs = 10_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** What Backbeat gives the PayPal SDK: an https agent whose connections go to the emulator's port. */
export function agentFor(apiBase: string): https.Agent {
  const target = new URL(apiBase);
  const agent = new https.Agent({ keepAlive: true });
  Object.assign(agent, {
    createConnection: (_options: unknown, callback?: (error: Error | null, socket: net.Socket) => void) => {
      const socket = net.connect({ host: target.hostname, port: Number(target.port) });
      if (callback) socket.once('connect', () => callback(null, socket));
      return socket;
    },
  });
  return agent;
}

/** A POST as a browser stand-in makes it (publishable key, form body). */
export async function browserPost(base: string, key: string, path: string, form: Record<string, string>) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: response.status, body: (await response.json()) as LooseJson };
}

export async function postJson(url: string, body: unknown) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json().catch(() => null)) as LooseJson };
}

/**
 * Razorpay's documented REST API (https://razorpay.com/docs/api/), called with Basic auth the way Backbeat's own
 * client does (apps/server/src/modules/payments/razorpay/razorpay-api.ts): the razorpay SDK has no setting for its
 * host, and nothing here reaches into its private fields. Methods are named as the SDK names them; a refusal
 * rejects with the SDK's shape, `{ statusCode, error }`.
 */
export function razorpayRest(url: string, keyId: string, keySecret: string) {
  const authorization = `Basic ${Buffer.from(`${keyId}:${keySecret}`).toString('base64')}`;
  const call = async (method: 'GET' | 'POST', path: string, body?: object): Promise<LooseJson> => {
    let target = `${url.replace(/\/$/, '')}/v1${path}`;
    if (method === 'GET' && body) {
      const query = new URLSearchParams(
        Object.entries(body)
          .filter(([, value]) => value !== undefined)
          .map(([key, value]) => [key, String(value)]),
      ).toString();
      if (query) target += `?${query}`;
    }
    const response = await fetch(target, {
      method,
      headers: { authorization, ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
      ...(method === 'POST' ? { body: JSON.stringify(body ?? {}) } : {}),
    });
    const answer = (await response.json().catch(() => ({}))) as LooseJson;
    if (!response.ok) throw { statusCode: response.status, error: answer.error as unknown };
    return answer;
  };
  type Params = Record<string, unknown>;
  /** A list answer: `{ entity: 'collection', count, items }`. */
  const list = (path: string, query: Params) =>
    call('GET', path, query) as Promise<{ entity: string; count: number; items: LooseJson[] }>;
  return {
    orders: {
      create: (body: Params) => call('POST', '/orders', body),
      fetch: (id: string) => call('GET', `/orders/${id}`),
      fetchPayments: (id: string) => call('GET', `/orders/${id}/payments`),
      all: (query: Params = {}) => list('/orders', query),
    },
    payments: {
      all: (query: Params = {}) => list('/payments', query),
      fetch: (id: string) => call('GET', `/payments/${id}`),
      capture: (id: string, amount: number, currency: string) =>
        call('POST', `/payments/${id}/capture`, { amount, currency }),
      refund: (id: string, body: Params = {}) => call('POST', `/payments/${id}/refund`, body),
      fetchMultipleRefund: (id: string, query: Params = {}) => list(`/payments/${id}/refunds`, query),
    },
    refunds: {
      all: (query: Params = {}) => list('/refunds', query),
      fetch: (id: string, { payment_id }: { payment_id?: string } = {}) =>
        call('GET', payment_id ? `/payments/${payment_id}/refunds/${id}` : `/refunds/${id}`),
    },
    disputes: {
      all: (query: Params = {}) => list('/disputes', query),
      fetch: (id: string) => call('GET', `/disputes/${id}`),
    },
    plans: {
      create: (body: Params) => call('POST', '/plans', body),
      fetch: (id: string) => call('GET', `/plans/${id}`),
    },
    invoices: {
      fetch: (id: string) => call('GET', `/invoices/${id}`),
      all: (query: Params = {}) => list('/invoices', query),
    },
    customers: { create: (body: Params) => call('POST', '/customers', body) },
    subscriptions: {
      create: (body: Params) => call('POST', '/subscriptions', body),
      fetch: (id: string) => call('GET', `/subscriptions/${id}`),
      cancel: (id: string, atCycleEnd = false) =>
        call('POST', `/subscriptions/${id}/cancel`, atCycleEnd ? { cancel_at_cycle_end: 1 } : {}),
    },
  };
}

export type RazorpayRest = ReturnType<typeof razorpayRest>;
