import { createHmac } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '../core/clock';
import { idempotentExecute, IdempotencyStore } from '../core/idempotency';
import type { Dialect, EmulatorRequest, EmulatorResponse } from '../core/router';
import { bearer, json, Refusal } from '../core/router';
import { randomId } from '../core/store';

export type StripeCredentials = Record<'secretKey' | 'publishableKey' | 'webhookSecret', string>;

/** The API version the emulator answers in: stripe-node 23's pinned version, whose types are the shapes used. */
export const STRIPE_API_VERSION = '2026-10-28.endive';

/** Stripe's webhook signature: `t=…,v1=` HMAC-SHA256 of `${t}.${payload}` keyed with the whsec secret. */
export function stripeSignature(payload: string, secret: string, timestamp: number): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
  return `t=${timestamp},v1=${signature}`;
}

export type StripeCaller = 'secret' | 'publishable';

/** Stripe's error body `{ error: { type, code, message, param, doc_url, … } }` with its HTTP status. */
export function stripeError(status: number, error: Record<string, unknown>): EmulatorResponse {
  const code = typeof error.code === 'string' ? error.code : undefined;
  return json(status, {
    error: {
      ...error,
      ...(code ? { doc_url: `https://docs.stripe.com/error-codes/${code.replace(/_/g, '-')}` } : {}),
    },
  });
}
export const refuse = (status: number, error: Record<string, unknown>): never => {
  throw new Refusal(stripeError(status, error));
};
export const missing = (kind: string, id: string, param = 'id'): never =>
  refuse(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such ${kind}: '${id}'`,
    param,
  });
export function missingParam(param: string): never {
  return refuse(400, {
    type: 'invalid_request_error',
    code: 'parameter_missing',
    message: `Missing required param: ${param}.`,
    param,
  });
}
export const invalidRequest = (message: string, extra: Record<string, unknown> = {}): never =>
  refuse(400, { type: 'invalid_request_error', message, ...extra });

/** Stripe's spelling of a nested parameter: `recurring[interval]`. */
const paramName = (path: PropertyKey[]) =>
  path.map((part, index) => (index === 0 ? String(part) : `[${String(part)}]`)).join('');

const IDEMPOTENCY_RETENTION_MS = 24 * 3600 * 1000;

/**
 * How Stripe answers around every route: secret or publishable keys, its error envelope (also for unknown routes and
 * internal failures), `Request-Id` and `Stripe-Version` on every answer, and `Idempotency-Key` as Stripe documents it:
 * a POST's key replays the saved answer (with `Idempotent-Replayed: true`) for 24 hours of the emulator's clock; the
 * same key with other parameters is a 400 `idempotency_error`; a request refused by parameter validation is not saved.
 */
export class StripeDialect implements Dialect {
  private readonly keys: IdempotencyStore;
  readonly execute: NonNullable<Dialect['execute']>;

  constructor(
    private readonly credentials: StripeCredentials,
    clock: Clock,
  ) {
    this.keys = new IdempotencyStore(clock, () => IDEMPOTENCY_RETENTION_MS);
    this.execute = idempotentExecute(
      this.keys,
      'idempotency-key',
      () => 'stripe',
      (request, key) => ({
        wrap: (answer) => ({
          ...answer,
          headers: { ...answer.headers, 'original-request': requestId(request) },
        }),
        conflict: () =>
          stripeError(400, {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
          }),
        inFlight: () =>
          stripeError(409, {
            type: 'idempotency_error',
            code: 'idempotency_key_in_use',
            message:
              'There is currently another in-progress request using this Idempotent Key (probably from a retry). Please try again later.',
          }),
        replay: (saved) => ({ ...saved, headers: { ...saved.headers, 'idempotent-replayed': 'true' } }),
        // Stripe saves every answer of a request that started executing, 500s included.
        keep: () => true,
        internal: () => this.internal(),
      }),
    );
  }

  authenticate(request: EmulatorRequest, scheme: string): StripeCaller | EmulatorResponse {
    const key = bearer(request.headers) ?? str(request.body.key) ?? str(request.query.key);
    if (key === this.credentials.secretKey) return 'secret';
    if (key === this.credentials.publishableKey) {
      if (scheme === 'client') return 'publishable';
      return stripeError(401, {
        type: 'invalid_request_error',
        message: 'This API call cannot be made with a publishable API key. Please use a secret API key.',
      });
    }
    return stripeError(401, {
      type: 'invalid_request_error',
      message: key
        ? `Invalid API Key provided: ${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`
        : "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
    });
  }

  invalid(issues: z.core.$ZodIssue[]): EmulatorResponse {
    const issue = issues[0]!;
    const param = paramName(issue.path);
    if ((issue.code === 'invalid_type' || issue.code === 'invalid_union') && issue.input === undefined) {
      return stripeError(400, {
        type: 'invalid_request_error',
        code: 'parameter_missing',
        message: `Missing required param: ${param}.`,
        param,
      });
    }
    if (issue.code === 'invalid_value') {
      const values = issue.values.map(String);
      const list = values.length > 1 ? `${values.slice(0, -1).join(', ')}, or ${values.at(-1)}` : values[0];
      return stripeError(400, {
        type: 'invalid_request_error',
        message: `Invalid ${param}: must be one of ${list}`,
        param,
      });
    }
    const code = (issue as { params?: { code?: string } }).params?.code;
    return stripeError(400, {
      type: 'invalid_request_error',
      ...(code ? { code } : {}),
      message: issue.path.length === 0 ? issue.message : `Invalid ${param}: ${issue.message}`,
      ...(param ? { param } : {}),
    });
  }

  unknownRoute(request: EmulatorRequest): EmulatorResponse {
    return stripeError(404, {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${request.method}: ${request.path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
    });
  }

  internal(): EmulatorResponse {
    return stripeError(500, {
      type: 'api_error',
      message:
        "Sorry, something went wrong. We've already been notified of the problem, but if you need any help, you can reach us at support.stripe.com/contact.",
    });
  }

  finish(request: EmulatorRequest, response: EmulatorResponse): EmulatorResponse {
    const id = requestId(request);
    const headers: Record<string, string> = {
      'request-id': id,
      'stripe-version': STRIPE_API_VERSION,
      ...response.headers,
    };
    const key = request.headers['idempotency-key'];
    if (typeof key === 'string' && request.method === 'POST') headers['idempotency-key'] = key;
    if ('json' in response && isErrorBody(response.json) && !response.json.error.request_log_url) {
      const error = {
        ...response.json.error,
        request_log_url: `https://dashboard.stripe.com/test/logs/${id}`,
      };
      return { ...response, json: { error }, headers };
    }
    return { ...response, headers };
  }
}

const requestIds = new WeakMap<EmulatorRequest, string>();
/** Stripe's `req_…` id of a request (one per request, also named in its error's request_log_url). */
export function requestId(request: EmulatorRequest): string {
  let id = requestIds.get(request);
  if (!id) {
    id = randomId('req_', 14);
    requestIds.set(request, id);
  }
  return id;
}

const isErrorBody = (body: unknown): body is { error: Record<string, unknown> } =>
  typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'object';

export const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

// ---------------------------------------------------------------------------------------------------------------
// Parameters as Stripe parses them (form-encoded strings)

/** An integer parameter: Stripe refuses anything else with `parameter_invalid_integer`. */
export const int = z.union([z.number(), z.string()]).transform((value, context) => {
  const parsed = typeof value === 'number' ? value : value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isInteger(parsed)) {
    context.addIssue({
      code: 'custom',
      message: `${String(value)} is not an integer`,
      params: { code: 'parameter_invalid_integer' },
    });
    return z.NEVER;
  }
  return parsed;
});
export const bool = z
  .union([z.boolean(), z.enum(['true', 'false'])])
  .transform((v) => v === true || v === 'true');
export const metadata = z.record(z.string(), z.union([z.string(), z.number()]).transform(String));
/** `expand[]`, `expand[0]` or a single value. */
export const expand = z
  .union([z.array(z.string()), z.record(z.string(), z.string()), z.string()])
  .transform((value) =>
    typeof value === 'string' ? [value] : Array.isArray(value) ? value : Object.values(value),
  );
const range = z
  .object({ gte: int.optional(), gt: int.optional(), lte: int.optional(), lt: int.optional() })
  .strict();
/** `created=…` or `created[gte]=…`. */
export const created = z.union([int.transform((n) => ({ gte: n, lte: n })), range]);
export const listParams = {
  limit: int.pipe(z.number().min(1).max(100)).optional(),
  starting_after: z.string().optional(),
  ending_before: z.string().optional(),
  created: created.optional(),
  expand: expand.optional(),
};
export const currency = z
  .string()
  .regex(/^[a-zA-Z]{3}$/, 'must be a three-letter ISO currency code')
  .transform((c) => c.toLowerCase());
