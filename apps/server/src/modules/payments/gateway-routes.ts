import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { ErrorResponse, WebhookResponse } from '@backbeat/contract';
import { requireUser, type AuthUser } from '../../platform/auth';
import { AppError } from '../../platform/errors';
import type { CheckoutLimit } from './checkout-limit';
import { rawBodyParser, WEBHOOK_BODY } from './webhook-body';

/** What a gateway's checkout call may answer besides its 200 (and, for a capture, 402). */
export const GATEWAY_ERRORS = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
  429: ErrorResponse,
  502: ErrorResponse,
  503: ErrorResponse,
};

/** One header's value (the first, when a proxy repeated it). */
const firstHeader = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * One signed-in call of a gateway's checkout: its path, OpenAPI text and schemas, whether it counts against the
 * checkout limit (those that open an order at the gateway), and the service call it makes for the buyer.
 */
export interface CheckoutRoute<B extends z.ZodType | undefined = z.ZodType | undefined> {
  path: string;
  summary: string;
  /** `['payments']` unless said otherwise. */
  tags?: string[];
  body?: B;
  response: Record<number, z.ZodType>;
  limited?: boolean;
  handle: (buyer: AuthUser, body: B extends z.ZodType ? z.infer<B> : undefined) => Promise<unknown>;
}

/** A checkout route with its body's type checked against its handler (the list of routes forgets it). */
export const checkoutRoute = <B extends z.ZodType | undefined>(route: CheckoutRoute<B>) =>
  route as unknown as CheckoutRoute;

/**
 * A gateway's webhook: its path and OpenAPI text, and what to do with the exact bytes received (verify the
 * signature, parse, apply once); `header` reads one request header (its first value). It answers
 * `{ received: true }` once `handle` resolves.
 */
export interface GatewayWebhook {
  path: string;
  summary: string;
  handle: (raw: Buffer, header: (name: string) => string | undefined) => Promise<unknown>;
}

/**
 * The scaffold every gateway's routes share: its checkout calls, each signed in and (when it opens an order)
 * behind the checkout limit, then its webhook in a scope of its own that keeps the raw bytes (gateways sign those)
 * and refuses bodies over WEBHOOK_BODY_LIMIT with 413. What differs per gateway is the data passed in.
 */
export async function registerGatewayRoutes(
  app: FastifyInstance,
  { limit, routes, webhook }: { limit: CheckoutLimit; routes: CheckoutRoute[]; webhook: GatewayWebhook },
): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  for (const route of routes) {
    typed.post(
      route.path,
      {
        ...(route.limited && { preHandler: limit }),
        schema: {
          tags: route.tags ?? ['payments'],
          summary: route.summary,
          ...(route.body && { body: route.body }),
          response: route.response,
        },
      },
      async (request) => route.handle(await requireUser(request), request.body as never),
    );
  }
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', WEBHOOK_BODY, rawBodyParser);
    scope.withTypeProvider<ZodTypeProvider>().post(
      webhook.path,
      {
        schema: {
          tags: ['payments'],
          summary: webhook.summary,
          response: { 200: WebhookResponse, 400: ErrorResponse, 413: ErrorResponse, 502: ErrorResponse },
        },
      },
      async (request) => {
        const headers: IncomingHttpHeaders = request.headers;
        await webhook.handle(request.body as Buffer, (name) => firstHeader(headers[name]));
        return { received: true };
      },
    );
  });
}

/**
 * A webhook body parsed as JSON (else 400 `The event is not JSON`) that has what the gateway's events have (else
 * 400 with `lacking`).
 */
export function parseEvent<T>(
  raw: Buffer,
  isEvent: (parsed: Partial<T> | null) => boolean,
  lacking: string,
): T {
  let parsed: Partial<T> | null;
  try {
    parsed = JSON.parse(raw.toString('utf8')) as Partial<T> | null;
  } catch {
    throw new AppError(400, 'BAD_REQUEST', 'The event is not JSON');
  }
  if (!isEvent(parsed)) throw new AppError(400, 'BAD_REQUEST', lacking);
  return parsed as T;
}
