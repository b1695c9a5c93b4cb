import { createHmac } from 'node:crypto';
import type { z } from 'zod';
import type { Dialect, EmulatorRequest, EmulatorResponse } from '../core/router';
import { basicAuth, json, Refusal } from '../core/router';

export type RazorpayCredentials = Record<'keyId' | 'keySecret' | 'webhookSecret', string>;

/** Razorpay's webhook signature: hex HMAC-SHA256 of the exact body with the webhook secret. */
export function razorpayWebhookSignature(body: string, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/** Checkout's result signature: HMAC-SHA256 of `order_id|payment_id` (or `payment_id|subscription_id`). */
export function razorpayCheckoutSignature(
  ids: { orderId?: string; subscriptionId?: string; paymentId: string },
  keySecret: string,
): string {
  const payload = ids.orderId ? `${ids.orderId}|${ids.paymentId}` : `${ids.paymentId}|${ids.subscriptionId}`;
  return createHmac('sha256', keySecret).update(payload).digest('hex');
}

/** Razorpay's error body: `{ error: { code, description, source, step, reason, metadata, field } }`. */
export function razorpayError(
  status: number,
  description: string,
  values: { code?: string; field?: string; source?: string; step?: string; reason?: string } = {},
): EmulatorResponse {
  const na = status === 401 || status >= 500;
  return json(status, {
    error: {
      code: values.code ?? (status >= 500 ? 'SERVER_ERROR' : 'BAD_REQUEST_ERROR'),
      description,
      source: values.source ?? (na ? 'NA' : 'business'),
      step: values.step ?? (na ? 'NA' : 'payment_initiation'),
      reason: values.reason ?? (na ? 'NA' : 'input_validation_failed'),
      metadata: {},
      ...(values.field ? { field: values.field } : {}),
    },
  });
}
export const refuse = (description: string, values: Parameters<typeof razorpayError>[2] = {}): never => {
  throw new Refusal(razorpayError(400, description, values));
};
/** Razorpay answers an unknown id with a 400, not a 404. */
export const notFound = (): never => refuse('The id provided does not exist', { reason: 'NA', step: 'NA' });

const words = (field: string) => field.replace(/_/g, ' ');

/** How Razorpay answers around every route: Basic key id and secret, its error envelope; it has no idempotency keys. */
export class RazorpayDialect implements Dialect {
  constructor(private readonly credentials: RazorpayCredentials) {}

  authenticate(request: EmulatorRequest): true | EmulatorResponse {
    const auth = basicAuth(request.headers);
    if (auth?.user === this.credentials.keyId && auth.password === this.credentials.keySecret) return true;
    return razorpayError(401, 'Authentication failed');
  }

  /** Validation messages in Razorpay's (Laravel-style) wording. */
  invalid(issues: z.core.$ZodIssue[]): EmulatorResponse {
    const issue = issues[0]!;
    const field = issue.path.map(String).join('.');
    const name = words(String(issue.path.at(-1) ?? 'input'));
    let description = issue.message;
    if ((issue.code === 'invalid_type' || issue.code === 'invalid_union') && issue.input === undefined)
      description = `The ${name} field is required.`;
    else if (issue.code === 'invalid_type' && issue.expected === 'int')
      description = `The ${name} must be an integer.`;
    else if (issue.code === 'invalid_type')
      description = `The ${name} must be ${issue.expected === 'number' ? 'a number' : `a ${issue.expected}`}.`;
    else if (issue.code === 'invalid_value') description = `The selected ${name} is invalid.`;
    else if (issue.code === 'too_big')
      description = `The ${name} may not be greater than ${String(issue.maximum)}${issue.origin === 'string' ? ' characters' : ''}.`;
    else if (issue.code === 'too_small')
      description = `The ${name} must be at least ${String(issue.minimum)}.`;
    return razorpayError(400, description, field ? { field } : {});
  }

  unknownRoute(): EmulatorResponse {
    return razorpayError(400, 'The requested URL was not found on the server.', {
      reason: 'NA',
      step: 'NA',
      source: 'NA',
    });
  }

  internal(): EmulatorResponse {
    return razorpayError(500, 'The server encountered an error. The incident has been reported to admins.');
  }
}
