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

/** The razorpay SDK pointed at the emulator (its axios instance's base URL, as Backbeat's tests do). */
export function razorpayClient(
  Razorpay: new (options: { key_id: string; key_secret: string }) => unknown,
  url: string,
  keyId: string,
  keySecret: string,
) {
  const client = new Razorpay({ key_id: keyId, key_secret: keySecret });
  (client as { api: { rq: { defaults: { baseURL: string } } } }).api.rq.defaults.baseURL = url;
  return client;
}
