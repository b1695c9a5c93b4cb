import http from 'node:http';
import type { AddressInfo } from 'node:net';
import qs from 'qs';

/** A request as a route sees it: method, path parameters, query, parsed body and headers. */
export interface EmulatorRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
  rawBody: string;
  headers: http.IncomingHttpHeaders;
}

/** What a route answers: a status and a JSON body, or raw text (pages, scripts) with its content type. */
export type EmulatorResponse =
  | { status: number; json: unknown; headers?: Record<string, string> }
  | { status: number; text: string; contentType: string; headers?: Record<string, string> }
  | { status: number; empty: true; headers?: Record<string, string> };

export type Handler = (request: EmulatorRequest) => EmulatorResponse | Promise<EmulatorResponse>;

interface Route {
  method: string;
  pattern: RegExp;
  names: string[];
  handler: Handler;
}

/** A request held back by a test (fault injection): `reached` resolves when one arrives, `release` lets it go. */
export interface Hold {
  reached: Promise<EmulatorRequest>;
  release(): void;
}

interface HoldEntry {
  test: (method: string, path: string) => boolean;
  arrived: (request: EmulatorRequest) => void;
  released: Promise<void>;
}

/** A tiny router: `/v1/payment_intents/:id/confirm` style paths, first match wins. */
export class Router {
  private readonly routes: Route[] = [];
  private readonly holds: HoldEntry[] = [];

  /** Holds the next request matching `test` until released (the caller sees a slow provider). */
  hold(test: (method: string, path: string) => boolean): Hold {
    let arrived!: (request: EmulatorRequest) => void;
    let release!: () => void;
    const reached = new Promise<EmulatorRequest>((resolve) => (arrived = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    this.holds.push({ test, arrived, released });
    return { reached, release };
  }

  /** Waits while a hold matches this request (each hold catches one request). */
  async gate(request: EmulatorRequest): Promise<void> {
    const index = this.holds.findIndex((entry) => entry.test(request.method, request.path));
    if (index < 0) return;
    const [entry] = this.holds.splice(index, 1);
    entry!.arrived(request);
    await entry!.released;
  }

  on(method: string, path: string, handler: Handler): this {
    const names: string[] = [];
    const pattern = new RegExp(
      `^${path
        .replace(/[.*+?^${}()|[\]\\]/g, (c) => (c === ':' ? c : `\\${c}`))
        .replace(/:(\w+)/g, (_m, name: string) => {
          names.push(name);
          return '([^/]+)';
        })}/?$`,
    );
    this.routes.push({ method, pattern, names, handler });
    return this;
  }

  match(method: string, path: string): { handler: Handler; params: Record<string, string> } | null {
    for (const route of this.routes) {
      if (route.method !== method) continue;
      const found = route.pattern.exec(path);
      if (!found) continue;
      const params: Record<string, string> = {};
      route.names.forEach((name, index) => {
        params[name] = decodeURIComponent(found[index + 1] ?? '');
      });
      return { handler: route.handler, params };
    }
    return null;
  }
}

export const json = (status: number, body: unknown, headers?: Record<string, string>): EmulatorResponse => ({
  status,
  json: body,
  headers,
});

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'authorization, content-type, stripe-version, paypal-request-id',
  'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
};

function parseBody(raw: string, contentType: string | undefined): Record<string, unknown> {
  if (!raw) return {};
  if (contentType?.includes('application/json')) {
    try {
      const parsed: unknown = JSON.parse(raw);
      return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
    } catch {
      return { __invalidJson: true };
    }
  }
  // Stripe's form encoding (`metadata[order_id]=…`, `items[0][price]=…`) and PayPal's token request.
  return qs.parse(raw, { depth: 10, arrayLimit: 200 }) as Record<string, unknown>;
}

/** Starts an HTTP server answering through `router`, with CORS so pages on any localhost port may call it. */
export async function serve(
  router: Router,
  options: { host: string; port: number; onError?: (error: unknown) => void },
): Promise<{ server: http.Server; url: string }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        // Absolute-form targets (a request meant for another host) keep only their path.
        const target = new URL(req.url ?? '/', 'http://emulator.local');
        const method = req.method ?? 'GET';
        if (method === 'OPTIONS') {
          res.writeHead(204, CORS).end();
          return;
        }
        const found = router.match(method, target.pathname);
        let answer: EmulatorResponse;
        if (!found) {
          answer = json(404, { error: { message: `No route ${method} ${target.pathname}` } });
        } else {
          const rawBody = Buffer.concat(chunks).toString('utf8');
          try {
            const request: EmulatorRequest = {
              method,
              path: target.pathname,
              params: found.params,
              query: qs.parse(target.search.slice(1), { depth: 10 }) as Record<string, unknown>,
              body: parseBody(rawBody, req.headers['content-type']),
              rawBody,
              headers: req.headers,
            };
            await router.gate(request);
            if (req.socket.destroyed) return;
            answer = await found.handler(request);
          } catch (error) {
            options.onError?.(error);
            answer = json(500, {
              error: { message: error instanceof Error ? error.message : String(error) },
            });
          }
        }
        const headers = { ...CORS, ...answer.headers };
        if ('empty' in answer) {
          res.writeHead(answer.status, headers).end();
        } else if ('text' in answer) {
          res.writeHead(answer.status, { ...headers, 'content-type': answer.contentType }).end(answer.text);
        } else {
          res
            .writeHead(answer.status, { ...headers, 'content-type': 'application/json' })
            .end(JSON.stringify(answer.json));
        }
      })();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return { server, url: `http://${options.host}:${address.port}` };
}

/** Basic credentials of a request, if any. */
export function basicAuth(headers: http.IncomingHttpHeaders): { user: string; password: string } | null {
  const header = headers.authorization;
  if (!header?.startsWith('Basic ')) return null;
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

export function bearer(headers: http.IncomingHttpHeaders): string | null {
  const header = headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice(7) : null;
}
