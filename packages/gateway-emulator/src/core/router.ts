import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import qs from 'qs';
import type { z } from 'zod';

/** A request as a route sees it: method, path parameters, query, parsed body and headers. */
export interface EmulatorRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
  rawBody: string;
  headers: http.IncomingHttpHeaders;
  /** A fresh id per request, for the provider's request-id header. */
  id: string;
}

/** What a route answers: a status and a JSON body, or raw text (pages, scripts) with its content type. */
export type EmulatorResponse =
  | { status: number; json: unknown; headers?: Record<string, string> }
  | { status: number; text: string; contentType: string; headers?: Record<string, string> }
  | { status: number; empty: true; headers?: Record<string, string> };

export const json = (status: number, body: unknown, headers?: Record<string, string>): EmulatorResponse => ({
  status,
  json: body,
  headers,
});
export const html = (status: number, text: string): EmulatorResponse => ({
  status,
  text,
  contentType: 'text/html; charset=utf-8',
});

/** A provider's refusal, thrown from deep inside a handler; the router answers with its response. */
export class Refusal extends Error {
  constructor(readonly response: EmulatorResponse) {
    super(`refused with ${response.status}`);
  }
}

/** A route's view of its request: the validated input, the caller and the path parameters. */
export interface RouteContext<Input, Caller> {
  request: EmulatorRequest;
  input: Input;
  caller: Caller;
  /** A path parameter (`:id`). */
  param(name: string): string;
}

/** One row of a provider's route table. */
export interface RouteSpec<Input = Record<string, unknown>, Caller = unknown> {
  method: 'GET' | 'POST' | 'DELETE' | 'PATCH';
  path: string;
  /** The dialect's auth scheme (`none` for pages and control routes). */
  auth: string;
  /** The query (GET, DELETE) or body (POST, PATCH) as the provider validates it. */
  input?: z.ZodType<Input>;
  handler(context: RouteContext<Input, Caller>): EmulatorResponse | Promise<EmulatorResponse>;
}

/**
 * Builds a route row: `'POST /v1/refunds'`, the dialect's auth scheme, then its input (the query for GET and
 * DELETE, the body otherwise) as the provider validates it and the handler, whose input type flows from it.
 */
export function route<Input, Caller>(
  target: string,
  auth: string,
  spec: {
    input?: z.ZodType<Input>;
    handler(context: RouteContext<Input, Caller>): EmulatorResponse | Promise<EmulatorResponse>;
  },
): RouteSpec<unknown, unknown> {
  const [method, path] = target.split(' ') as [RouteSpec['method'], string];
  return { method, path, auth, ...spec } as unknown as RouteSpec<unknown, unknown>;
}

/** What differs per provider around every route: who may call, how errors look, idempotency, response headers. */
export interface Dialect {
  /** The caller for a scheme, or the provider's authentication error. */
  authenticate(request: EmulatorRequest, scheme: string): unknown;
  /** Input that failed validation, in the provider's envelope. */
  invalid(issues: z.core.$ZodIssue[], request: EmulatorRequest): EmulatorResponse;
  unknownRoute(request: EmulatorRequest): EmulatorResponse;
  internal(request: EmulatorRequest, error: unknown): EmulatorResponse;
  /** Wraps a route's execution (idempotency keys); `validate` answers invalid input before anything runs. */
  execute?(
    request: EmulatorRequest,
    caller: unknown,
    validate: () => EmulatorResponse | null,
    run: () => Promise<EmulatorResponse>,
  ): Promise<EmulatorResponse>;
  /** Headers every answer carries (request ids). */
  finish?(request: EmulatorRequest, response: EmulatorResponse): EmulatorResponse;
}

/** A request held back by a test (fault injection): `reached` resolves when one arrives, `release` lets it go. */
export interface Hold {
  reached: Promise<EmulatorRequest>;
  release(): void;
}

interface Compiled {
  spec: RouteSpec<unknown, unknown>;
  pattern: RegExp;
  names: string[];
}

/** A provider's routes: `/v1/payment_intents/:id/confirm` style paths, first match wins. */
export class Router {
  private readonly routes: Compiled[] = [];
  private readonly holds: Array<{
    test: (method: string, path: string) => boolean;
    arrived: (request: EmulatorRequest) => void;
    released: Promise<void>;
  }> = [];

  /** Outages a test injected: matching requests are answered with the provider's own 500 while `left` > 0. */
  private readonly outages: Array<{ test: (method: string, path: string) => boolean; left: number }> = [];

  /** Told about every internal failure (the answer is the provider's 500). */
  onError: (error: unknown, request: EmulatorRequest) => void = () => undefined;

  constructor(readonly dialect: Dialect) {}

  add(...specs: Array<RouteSpec<unknown, unknown>>): this {
    for (const spec of specs) {
      const names: string[] = [];
      const pattern = new RegExp(
        `^${spec.path
          .replace(/[.*+?^${}()|[\]\\]/g, (c) => `\\${c}`)
          .replace(/:(\w+)/g, (_m, name: string) => {
            names.push(name);
            return '([^/]+)';
          })}/?$`,
      );
      this.routes.push({ spec, pattern, names });
    }
    return this;
  }

  /** The route table (method, path, auth scheme), for tests that check every route was exercised. */
  table(): Array<{ method: string; path: string; auth: string; pattern: RegExp }> {
    return this.routes.map(({ spec, pattern }) => ({
      method: spec.method,
      path: spec.path,
      auth: spec.auth,
      pattern,
    }));
  }

  /** Holds the next request matching `test` until released (the caller sees a slow provider). */
  hold(test: (method: string, path: string) => boolean): Hold {
    let arrived!: (request: EmulatorRequest) => void;
    let release!: () => void;
    const reached = new Promise<EmulatorRequest>((resolve) => (arrived = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    this.holds.push({ test, arrived, released });
    return { reached, release };
  }

  /**
   * An outage (fault injection): the next `times` requests matching `test` are answered with the provider's own
   * 500 error, as when it is down. Answers a function that ends the outage early.
   */
  fail(test: (method: string, path: string) => boolean, times = 1): () => void {
    const outage = { test, left: times };
    this.outages.push(outage);
    return () => {
      outage.left = 0;
    };
  }

  /** Answers one request (already parsed) through the route table and the dialect. */
  async answer(request: EmulatorRequest, aborted: () => boolean = () => false): Promise<EmulatorResponse> {
    const found = this.match(request.method, request.path);
    const outage = this.outages.find((entry) => entry.left > 0 && entry.test(request.method, request.path));
    let answer: EmulatorResponse;
    if (outage) {
      outage.left -= 1;
      answer = this.dialect.internal(request, new Error('the provider is unavailable (emulated outage)'));
    } else if (!found) answer = this.dialect.unknownRoute(request);
    else {
      request.params = found.params;
      try {
        await this.gate(request);
        if (aborted()) return { status: 499, empty: true };
        answer = await this.run(found.spec, request);
      } catch (error) {
        if (!(error instanceof Refusal)) this.onError(error, request);
        answer = error instanceof Refusal ? error.response : this.dialect.internal(request, error);
      }
    }
    return this.dialect.finish?.(request, answer) ?? answer;
  }

  private async run(spec: RouteSpec<unknown, unknown>, request: EmulatorRequest): Promise<EmulatorResponse> {
    const caller = spec.auth === 'none' ? null : this.dialect.authenticate(request, spec.auth);
    if (isResponse(caller)) return caller;
    let input: unknown = {};
    const validate = (): EmulatorResponse | null => {
      if ('__invalidJson' in request.body) {
        return this.dialect.invalid(
          [
            {
              code: 'custom',
              path: [],
              message: 'The request body is not valid JSON.',
              input: request.rawBody,
            },
          ],
          request,
        );
      }
      if (!spec.input) return null;
      const source = request.method === 'GET' || request.method === 'DELETE' ? request.query : request.body;
      const parsed = spec.input.safeParse(source);
      if (!parsed.success) return this.dialect.invalid(parsed.error.issues, request);
      input = parsed.data;
      return null;
    };
    const execute = async () => {
      const refused = validate();
      if (refused) return refused;
      try {
        return await spec.handler({
          request,
          input,
          caller,
          param: (name) => request.params[name] ?? '',
        });
      } catch (error) {
        if (error instanceof Refusal) return error.response;
        throw error;
      }
    };
    if (spec.auth === 'none' || !this.dialect.execute) return execute();
    return this.dialect.execute(request, caller, validate, execute);
  }

  private async gate(request: EmulatorRequest): Promise<void> {
    const index = this.holds.findIndex((entry) => entry.test(request.method, request.path));
    if (index < 0) return;
    const [entry] = this.holds.splice(index, 1);
    entry!.arrived(request);
    await entry!.released;
  }

  private match(method: string, path: string) {
    for (const compiled of this.routes) {
      if (compiled.spec.method !== method) continue;
      const found = compiled.pattern.exec(path);
      if (!found) continue;
      const params: Record<string, string> = {};
      compiled.names.forEach((name, index) => {
        params[name] = decodeURIComponent(found[index + 1] ?? '');
      });
      return { spec: compiled.spec, params };
    }
    return null;
  }
}

export function isResponse(value: unknown): value is EmulatorResponse {
  return typeof value === 'object' && value !== null && 'status' in value && typeof value.status === 'number';
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'authorization, content-type, stripe-version, paypal-request-id',
  'access-control-allow-methods': 'GET, POST, PATCH, DELETE, OPTIONS',
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
  options: {
    host: string;
    port: number;
    observe?: (request: EmulatorRequest, response: EmulatorResponse) => void;
  },
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
        const rawBody = Buffer.concat(chunks).toString('utf8');
        const request: EmulatorRequest = {
          method,
          path: target.pathname,
          params: {},
          query: qs.parse(target.search.slice(1), { depth: 10 }) as Record<string, unknown>,
          body: parseBody(rawBody, req.headers['content-type']),
          rawBody,
          headers: req.headers,
          id: randomUUID(),
        };
        const answer = await router.answer(request, () => req.socket.destroyed);
        if (req.socket.destroyed) return;
        options.observe?.(request, answer);
        const headers = { ...CORS, ...answer.headers };
        if ('empty' in answer) res.writeHead(answer.status, headers).end();
        else if ('text' in answer) {
          res.writeHead(answer.status, { ...headers, 'content-type': answer.contentType }).end(answer.text);
        } else {
          res
            .writeHead(answer.status, { ...headers, 'content-type': 'application/json' })
            .end(JSON.stringify(answer.json));
        }
      })();
    });
  });
  // Providers keep an idle connection open for about a minute. Node's 5 s default closes it while a client's
  // keep-alive agent may be sending its next request on it (read ECONNRESET in the SDK): hold it longer than that.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
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
