import { crc32 } from 'node:zlib';
import type { z } from 'zod';
import { currencyDigits } from '@backbeat/contract';
import { HOUR_MS, DAY_MS, type Clock } from '../core/clock';
import { idempotentExecute, IdempotencyStore } from '../core/idempotency';
import type { Dialect, EmulatorRequest, EmulatorResponse } from '../core/router';
import { bearer, json, Refusal } from '../core/router';
import { randomId } from '../core/store';

export type PaypalCredentials = Record<'clientId' | 'clientSecret' | 'webhookId', string>;

/** What PayPal signs for a webhook: `${transmissionId}|${time}|${webhookId}|${crc32(body)}` (SHA256withRSA). */
export function paypalSignedText(
  transmissionId: string,
  time: string,
  webhookId: string,
  body: string,
): string {
  return `${transmissionId}|${time}|${webhookId}|${crc32(body) >>> 0}`;
}

const MESSAGES: Record<number, string> = {
  400: 'Request is not well-formed, syntactically incorrect, or violates schema.',
  403: 'Authorization failed due to insufficient permissions.',
  404: 'The specified resource does not exist.',
  422: 'The requested action could not be performed, semantically incorrect, or failed business validation.',
  500: 'An internal server error has occurred.',
};
const NAMES: Record<number, string> = {
  400: 'INVALID_REQUEST',
  403: 'NOT_AUTHORIZED',
  404: 'RESOURCE_NOT_FOUND',
  422: 'UNPROCESSABLE_ENTITY',
  500: 'INTERNAL_SERVER_ERROR',
};

export interface PaypalIssue {
  issue: string;
  description: string;
  field?: string;
  value?: string;
  location?: 'body' | 'query' | 'path' | 'header';
}

/** PayPal's REST error: `{ name, message, debug_id, details: [{ issue, description, field?, location? }], links }`. */
export function paypalError(
  status: number,
  detail?: PaypalIssue,
  name = NAMES[status] ?? 'UNKNOWN_ERROR',
): EmulatorResponse {
  return json(status, {
    name,
    message: MESSAGES[status] ?? 'An error occurred.',
    debug_id: randomId('', 13, '0123456789abcdef'),
    ...(detail ? { details: [detail] } : {}),
    links: [
      {
        href: `https://developer.paypal.com/api/rest/reference/orders/v2/errors/#${(detail?.issue ?? name).replace(/_/g, '-').toLowerCase()}`,
        rel: 'information_link',
        method: 'GET',
      },
    ],
  });
}
export const refuse = (
  status: number,
  issue: string,
  description: string,
  extra: Partial<PaypalIssue> = {},
): never => {
  throw new Refusal(paypalError(status, { issue, description, ...extra }));
};
/** 422 UNPROCESSABLE_ENTITY for one field of the request body (PayPal names it as a JSON pointer). */
export const unprocessable = (issue: string, description: string, field: string): never =>
  refuse(422, issue, description, { field, location: 'body' });
export const notFound = (): never =>
  refuse(
    404,
    'INVALID_RESOURCE_ID',
    'Specified resource ID does not exist. Please check the resource ID and try again.',
  );

/** The v1 Payments API's older envelope: `{ name, message, information_link, debug_id }`. */
export function paypalV1Error(status: number, name: string, message: string): never {
  throw new Refusal(
    json(status, {
      name,
      message,
      information_link: `https://developer.paypal.com/docs/api/payments/v1/#error-${name}`,
      debug_id: randomId('', 13, '0123456789abcdef'),
    }),
  );
}

/** How long PayPal keeps a PayPal-Request-Id, per API (as each API's reference says). */
function retention(scope: string): number {
  if (scope.startsWith('/v2/checkout/')) return 6 * HOUR_MS;
  if (scope.startsWith('/v1/billing/')) return 72 * HOUR_MS;
  return 45 * DAY_MS;
}

/**
 * How PayPal answers around every route: OAuth bearer tokens (OAuth errors as `{error, error_description}`), its
 * error envelope (unknown routes and internal failures too), `Paypal-Debug-Id` on every answer, and
 * `PayPal-Request-Id`: a repeated id on the same call answers the stored (successful) response; the same id with
 * another body is refused with `DUPLICATE_REQUEST_ID`.
 */
export class PaypalDialect implements Dialect {
  readonly tokens = new Set<string>();
  private readonly keys: IdempotencyStore;
  readonly execute: NonNullable<Dialect['execute']>;

  constructor(clock: Clock) {
    this.keys = new IdempotencyStore(clock, retention);
    this.execute = idempotentExecute(
      this.keys,
      'paypal-request-id',
      (request) => request.path,
      () => ({
        conflict: () =>
          paypalError(422, {
            issue: 'DUPLICATE_REQUEST_ID',
            description: 'The value of PayPal-Request-Id header has already been used.',
            location: 'header',
            field: 'PayPal-Request-Id',
          }),
        replay: (saved) => saved,
        // A failed request may be retried with the same id: only a success is stored.
        keep: (answer) => answer.status >= 200 && answer.status < 300,
        internal: () => this.internal(),
      }),
    );
  }

  authenticate(request: EmulatorRequest): true | EmulatorResponse {
    const token = bearer(request.headers);
    if (token && this.tokens.has(token)) return true;
    return json(401, {
      error: 'invalid_token',
      error_description: token
        ? 'Token signature verification failed'
        : 'No permission for the requested operation',
    });
  }

  invalid(issues: z.core.$ZodIssue[], request: EmulatorRequest): EmulatorResponse {
    const issue = issues[0]!;
    const location = request.method === 'GET' ? 'query' : 'body';
    const field =
      location === 'query' ? issue.path.map(String).join('.') : `/${issue.path.map(String).join('/')}`;
    const missing =
      (issue.code === 'invalid_type' || issue.code === 'invalid_union') && issue.input === undefined;
    return paypalError(400, {
      issue: missing
        ? 'MISSING_REQUIRED_PARAMETER'
        : issue.code === 'invalid_format'
          ? 'INVALID_PARAMETER_SYNTAX'
          : 'INVALID_PARAMETER_VALUE',
      description: missing ? 'A required field / parameter is missing.' : issue.message,
      field,
      location,
    });
  }

  unknownRoute(): EmulatorResponse {
    return paypalError(404, {
      issue: 'INVALID_RESOURCE_ID',
      description: 'Specified resource ID does not exist. Please check the resource ID and try again.',
    });
  }

  internal(): EmulatorResponse {
    return paypalError(500);
  }

  finish(request: EmulatorRequest, response: EmulatorResponse): EmulatorResponse {
    const debugId =
      'json' in response && typeof (response.json as { debug_id?: unknown })?.debug_id === 'string'
        ? String((response.json as { debug_id: string }).debug_id)
        : randomId('', 13, '0123456789abcdef');
    return { ...response, headers: { 'paypal-debug-id': debugId, ...response.headers } };
  }
}

/** A decimal string of PayPal's API to minor units (the way back is the contract's toDecimalString). */
export const toMinor = (value: string, currency: string) =>
  Math.round(Number(value) * 10 ** currencyDigits(currency));
