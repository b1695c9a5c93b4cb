/**
 * Over 400 lines on purpose: one table of PayPal's documented v1 shapes (zod), beside the SDK's own model schemas
 * made strict; the table reads best whole.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { z } from 'zod';
import type { Exchange } from '../../src/index';

const require = createRequire(import.meta.url);
const sdkDir = path.dirname(require.resolve('@paypal/paypal-server-sdk'));
/** The SDK's runtime schemas (what its controllers map responses with). Its package exports do not list them. */
const sdkModel = (file: string, name: string) =>
  (require(path.join(sdkDir, 'models', `${file}.js`)) as Record<string, Schema>)[name]!;
const schemaLib = require(require.resolve('@apimatic/schema', { paths: [sdkDir] })) as {
  object(shape: Record<string, [string, Schema]>): Schema;
  string(): Schema;
  array(item: Schema): Schema;
  optional(inner: Schema): Schema;
};

interface Context {
  value: unknown;
  type: string;
  branch: unknown[];
  path: Array<string | number>;
  strictValidation?: boolean;
}
interface Schema {
  type(): string;
  validateBeforeMap(
    value: unknown,
    context: unknown,
  ): Array<{ path: Array<string | number>; message?: string }>;
}

const MODELS: Record<string, Schema> = {
  order: sdkModel('order', 'orderSchema'),
  capture: sdkModel('capturedPayment', 'capturedPaymentSchema'),
  refund: sdkModel('refund', 'refundSchema'),
  plan: sdkModel('billingPlan', 'billingPlanSchema'),
  subscription: sdkModel('subscription', 'subscriptionSchema'),
  transactions: sdkModel('transactionsList', 'transactionsListSchema'),
  search: sdkModel('searchResponse', 'searchResponseSchema'),
  token: sdkModel('oAuthToken', 'oAuthTokenSchema'),
  /** The SDK's CustomError body (src/errors/customError.ts): name, message, debug_id, details, links. */
  error: schemaLib.object({
    name: ['name', schemaLib.string()],
    message: ['message', schemaLib.string()],
    debug_id: ['debug_id', schemaLib.string()],
    details: ['details', schemaLib.optional(schemaLib.array(sdkModel('errorDetails', 'errorDetailsSchema')))],
    links: [
      'links',
      schemaLib.optional(schemaLib.array(sdkModel('linkDescription', 'linkDescriptionSchema'))),
    ],
  }),
};

/**
 * Validates a body against one of the SDK's model schemas, more strictly than the SDK maps it: the schema's own
 * type checks, plus every enum value among the enum's members (the SDK accepts unknown ones), no field the model
 * does not define, and no null (PayPal omits a field rather than sending null).
 */
export function checkSdkModel(value: unknown, model: keyof typeof MODELS): string[] {
  const schema = MODELS[model]!;
  const visits: Array<{ value: unknown; parent: unknown; key: string | number; schema: Schema }> = [];
  const make = (context: Context): unknown => ({
    ...context,
    createChild(key: string | number, child: unknown, childSchema: Schema) {
      visits.push({ value: child, parent: context.value, key, schema: childSchema });
      return make({
        value: child,
        type: childSchema.type(),
        branch: [...context.branch, child],
        path: [...context.path, key],
      });
    },
    mapChildren(
      items: Array<[string | number, unknown]>,
      itemSchema: Schema,
      mapper: (item: unknown, c: unknown) => unknown,
    ) {
      return items.map((item) =>
        mapper(
          item,
          (this as { createChild: (...a: unknown[]) => unknown }).createChild(item[0], item[1], itemSchema),
        ),
      );
    },
    flatmapChildren(
      items: Array<[string | number, unknown]>,
      itemSchema: Schema,
      mapper: (item: unknown, c: unknown) => unknown[],
    ) {
      return items.flatMap((item) =>
        mapper(
          item,
          (this as { createChild: (...a: unknown[]) => unknown }).createChild(item[0], item[1], itemSchema),
        ),
      );
    },
    fail(message?: string) {
      return [{ ...context, message }];
    },
  });
  visits.push({ value, parent: undefined, key: '', schema });
  const problems = schema
    .validateBeforeMap(value, make({ value, type: schema.type(), branch: [value], path: [] }))
    .map((error) => `${error.path.join('.')}: ${(error.message ?? '').split('\n')[0]}`);
  const known = new Map<unknown, Set<string | number>>();
  for (const visit of visits) {
    if (!known.has(visit.parent)) known.set(visit.parent, new Set());
    known.get(visit.parent)!.add(visit.key);
  }
  for (const visit of visits) {
    const type = visit.schema.type().replace(/^(?:(?:Optional|Nullable|Lazy|Defaults)<)+/, '');
    if (type.startsWith('Enum<') && typeof visit.value === 'string') {
      const members = [...type.matchAll(/"([^"]*)"|'([^']*)'/g)].map((m) => m[1] ?? m[2]);
      if (!members.includes(visit.value))
        problems.push(`${String(visit.key)}: ${visit.value} is not one of ${members.join(', ')}`);
    }
    if (type.startsWith('Object<') && isPlainObject(visit.value)) {
      const keys = known.get(visit.value) ?? new Set();
      const extras = visit.parent === undefined ? (DOCUMENTED_EXTRAS[model] ?? []) : [];
      for (const key of Object.keys(visit.value)) {
        if (!keys.has(key) && !extras.includes(key))
          problems.push(`${String(visit.key) || '(root)'}: ${key} is not a field of the model`);
      }
    }
  }
  problems.push(...nulls(value, ''));
  return problems;
}

/** Fields PayPal documents that the SDK's model lacks ("Authentication > Get an access token": `app_id`, `nonce`). */
const DOCUMENTED_EXTRAS: Record<string, string[]> = { token: ['app_id', 'nonce'] };

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
function nulls(value: unknown, at: string): string[] {
  if (value === null) return [`${at}: null (PayPal omits absent fields)`];
  if (Array.isArray(value)) return value.flatMap((item, index) => nulls(item, `${at}.${index}`));
  if (isPlainObject(value))
    return Object.entries(value).flatMap(([key, item]) => nulls(item, at ? `${at}.${key}` : key));
  return [];
}

// ---------------------------------------------------------------------------------------------------------------
// The v1 REST calls the SDK does not cover: their documented fields, required as PayPal's reference marks them.

const v1Money = z
  .object({ total: z.string().regex(/^-?\d+\.\d{2}$/), currency: z.string().length(3) })
  .strict();
const link = z.object({ href: z.string(), rel: z.string(), method: z.string() }).strict();
const money = z
  .object({ currency_code: z.string().length(3), value: z.string().regex(/^-?\d+(\.\d{1,2})?$/) })
  .strict();
const time = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);

export const V1 = {
  /** "Payments API v1 > Sales > Show sale details": the sale a subscription payment is. */
  sale: z
    .object({
      id: z.string().regex(/^[A-Z0-9]{17}$/),
      state: z.enum(['completed', 'partially_refunded', 'pending', 'refunded', 'denied', 'reversed']),
      amount: z
        .object({
          total: z.string(),
          currency: z.string().length(3),
          details: z.object({ subtotal: z.string() }).strict().optional(),
        })
        .strict(),
      payment_mode: z.enum(['INSTANT_TRANSFER', 'MANUAL_BANK_TRANSFER', 'DELAYED_TRANSFER', 'ECHECK']),
      protection_eligibility: z.enum(['ELIGIBLE', 'PARTIALLY_ELIGIBLE', 'INELIGIBLE']),
      protection_eligibility_type: z.string().optional(),
      transaction_fee: z.object({ value: z.string(), currency: z.string().length(3) }).strict(),
      billing_agreement_id: z.string(),
      custom: z.string().optional(),
      create_time: time,
      update_time: time,
      links: z.array(link),
    })
    .strict(),
  /** "Payments API v1 > Sales > Refund sale" response, and `PAYMENT.SALE.REFUNDED`'s resource. */
  saleRefund: z
    .object({
      id: z.string().regex(/^[A-Z0-9]{17}$/),
      state: z.enum(['pending', 'completed', 'cancelled', 'failed']),
      amount: v1Money,
      refund_from_received_amount: z.object({ value: z.string(), currency: z.string() }).strict(),
      refund_from_transaction_fee: z.object({ value: z.string(), currency: z.string() }).strict(),
      total_refunded_amount: z.object({ value: z.string(), currency: z.string() }).strict(),
      sale_id: z.string(),
      parent_payment: z.string(),
      description: z.string().optional(),
      custom: z.string().optional(),
      create_time: time,
      update_time: time,
      links: z.array(link),
    })
    .strict(),
  /** `PAYMENT.SALE.REVERSED`'s resource ("Webhook event names > Payments v1"): the reversal of a sale. */
  saleReversal: z
    .object({
      id: z.string(),
      state: z.literal('completed'),
      amount: v1Money,
      sale_id: z.string(),
      reason_code: z.string(),
      custom: z.string().optional(),
      create_time: time,
      update_time: time,
      links: z.array(link),
    })
    .strict(),
  /** "Catalog Products API > Create product" response. */
  product: z
    .object({
      id: z.string().regex(/^PROD-/),
      name: z.string(),
      description: z.string().optional(),
      type: z.enum(['PHYSICAL', 'DIGITAL', 'SERVICE']),
      category: z.string().optional(),
      create_time: time,
      update_time: time,
      links: z.array(link),
    })
    .strict(),
  /** "Disputes API > Show dispute details" (and `CUSTOMER.DISPUTE.*`'s resource). */
  dispute: z
    .object({
      dispute_id: z.string().regex(/^PP-D-\d+$/),
      create_time: time,
      update_time: time,
      disputed_transactions: z.array(
        z
          .object({
            seller_transaction_id: z.string(),
            buyer_transaction_id: z.string(),
            create_time: time,
            transaction_status: z.string(),
            gross_amount: money,
            custom: z.string().optional(),
            seller: z.object({ merchant_id: z.string(), name: z.string() }).strict(),
          })
          .strict(),
      ),
      reason: z.enum([
        'MERCHANDISE_OR_SERVICE_NOT_RECEIVED',
        'MERCHANDISE_OR_SERVICE_NOT_AS_DESCRIBED',
        'UNAUTHORISED',
        'CREDIT_NOT_PROCESSED',
        'DUPLICATE_TRANSACTION',
        'INCORRECT_AMOUNT',
        'PAYMENT_BY_OTHER_MEANS',
        'CANCELED_RECURRING_BILLING',
        'PROBLEM_WITH_REMITTANCE',
        'OTHER',
      ]),
      status: z.enum([
        'OPEN',
        'WAITING_FOR_BUYER_RESPONSE',
        'WAITING_FOR_SELLER_RESPONSE',
        'UNDER_REVIEW',
        'RESOLVED',
        'OTHER',
      ]),
      dispute_amount: money,
      dispute_outcome: z
        .object({
          outcome_code: z.enum([
            'RESOLVED_BUYER_FAVOUR',
            'RESOLVED_SELLER_FAVOUR',
            'RESOLVED_WITH_PAYOUT',
            'CANCELED_BY_BUYER',
            'ACCEPTED',
            'DENIED',
            'NONE',
          ]),
          amount_refunded: money.optional(),
        })
        .strict()
        .optional(),
      dispute_life_cycle_stage: z.enum(['INQUIRY', 'CHARGEBACK', 'PRE_ARBITRATION', 'ARBITRATION']),
      dispute_channel: z.enum(['INTERNAL', 'EXTERNAL']),
      seller_response_due_date: time.optional(),
      links: z.array(link),
    })
    .strict(),
  /** "Disputes API > List disputes": summaries, and a `next` link while there are more. */
  disputeList: z
    .object({
      items: z.array(
        z
          .object({
            dispute_id: z.string().regex(/^PP-D-\d+$/),
            create_time: time,
            update_time: time,
            reason: z.string(),
            status: z.string(),
            dispute_amount: money,
            links: z.array(link),
          })
          .strict(),
      ),
      links: z.array(link),
    })
    .strict(),
  /** "Webhooks API > Verify webhook signature" response. */
  verification: z.object({ verification_status: z.enum(['SUCCESS', 'FAILURE']) }).strict(),
  /** "Webhooks API > Show event notification details": the envelope of every event. */
  event: z
    .object({
      id: z.string().regex(/^WH-/),
      event_version: z.string(),
      create_time: time,
      resource_type: z.string(),
      resource_version: z.string(),
      event_type: z.string(),
      summary: z.string(),
      resource: z.record(z.string(), z.unknown()),
      links: z.array(link),
    })
    .strict(),
  /** "Authentication > OAuth 2.0 errors": `{ error, error_description }`. */
  oauthError: z
    .object({
      error: z.enum(['invalid_client', 'invalid_token', 'unsupported_grant_type', 'invalid_request']),
      error_description: z.string(),
    })
    .strict(),
  /** "Payments API v1 > Errors": `{ name, message, information_link, debug_id }`. */
  v1Error: z
    .object({ name: z.string(), message: z.string(), information_link: z.string(), debug_id: z.string() })
    .strict(),
};

/** PayPal's documented required fields the SDK models leave optional ("Orders v2", "Payments v2", "Subscriptions v1" references). */
const REQUIRED: Record<string, string[]> = {
  order: ['id', 'status', 'intent', 'purchase_units', 'create_time', 'links'],
  capture: ['id', 'status', 'amount', 'create_time', 'update_time', 'links'],
  refund: ['id', 'status', 'amount', 'create_time', 'update_time', 'links'],
  plan: [
    'id',
    'product_id',
    'name',
    'status',
    'billing_cycles',
    'payment_preferences',
    'create_time',
    'links',
  ],
  subscription: ['id', 'plan_id', 'status', 'create_time', 'links'],
  transactions: ['transactions', 'links'],
  search: [
    'transaction_details',
    'account_number',
    'start_date',
    'end_date',
    'last_refreshed_datetime',
    'page',
    'total_items',
    'total_pages',
    'links',
  ],
  token: ['access_token', 'token_type', 'expires_in', 'scope', 'app_id', 'nonce'],
  error: ['name', 'message', 'debug_id'],
};

function checkModel(value: unknown, model: keyof typeof MODELS): string[] {
  const missing = (REQUIRED[model] ?? [])
    .filter((field) => !isPlainObject(value) || !(field in value))
    .map((field) => `${field}: required`);
  return [...missing, ...checkSdkModel(value, model)];
}
function checkZod(value: unknown, schema: z.ZodType): string[] {
  const parsed = schema.safeParse(value);
  return parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

/** What a PayPal route's body must satisfy: an SDK model or a documented v1 shape. */
export function checkPaypalExchange(exchange: Exchange): string[] | null {
  const { path: route, status, body } = exchange;
  if (route.startsWith('/_') || body === undefined) return null;
  if (route === '/v1/oauth2/token')
    return status >= 400 ? checkZod(body, V1.oauthError) : checkModel(body, 'token');
  if (status === 401) return checkZod(body, V1.oauthError);
  if (status >= 400)
    return route.startsWith('/v1/payments/') ? checkZod(body, V1.v1Error) : checkModel(body, 'error');
  if (route.startsWith('/v2/checkout/orders')) return checkModel(body, 'order');
  if (route.startsWith('/v2/payments/captures/') && exchange.method === 'GET')
    return checkModel(body, 'capture');
  if (route.startsWith('/v2/payments/')) return checkModel(body, 'refund');
  if (/^\/v1\/billing\/subscriptions\/[^/]+\/transactions$/.test(route))
    return checkModel(body, 'transactions');
  if (route.startsWith('/v1/billing/subscriptions')) return checkModel(body, 'subscription');
  if (route.startsWith('/v1/billing/plans')) return checkModel(body, 'plan');
  if (route === '/v1/reporting/transactions') return checkModel(body, 'search');
  if (route.startsWith('/v1/catalogs/products')) return checkZod(body, V1.product);
  if (route.startsWith('/v1/payments/sale/') && route.endsWith('/refund'))
    return checkZod(body, V1.saleRefund);
  if (route.startsWith('/v1/payments/sale/')) return checkZod(body, V1.sale);
  if (route.startsWith('/v1/payments/refund/')) return checkZod(body, V1.saleRefund);
  if (route === '/v1/customer/disputes') return checkZod(body, V1.disputeList);
  if (route.startsWith('/v1/customer/disputes/')) return checkZod(body, V1.dispute);
  if (route === '/v1/notifications/verify-webhook-signature') return checkZod(body, V1.verification);
  if (route === '/v1/notifications/webhooks-events')
    return checkZod(
      body,
      z.object({ events: z.array(V1.event), count: z.number(), links: z.array(link) }).strict(),
    );
  if (route.startsWith('/v1/notifications/webhooks-events/')) return checkZod(body, V1.event);
  return [`no definition for ${exchange.method} ${route}`];
}

/** A webhook: PayPal's envelope, and its resource against the definition of its type. */
export function checkPaypalWebhook(body: string): string[] {
  const event = JSON.parse(body) as {
    event_type: string;
    resource_type: string;
    resource: Record<string, unknown>;
  };
  const problems = checkZod(event, V1.event);
  const resource = event.resource;
  const type = event.event_type;
  if (type.startsWith('PAYMENT.CAPTURE.') && event.resource_type === 'capture')
    problems.push(...checkModel(resource, 'capture'));
  else if (type.startsWith('PAYMENT.CAPTURE.')) problems.push(...checkModel(resource, 'refund'));
  else if (type === 'CHECKOUT.ORDER.APPROVED') problems.push(...checkModel(resource, 'order'));
  else if (type.startsWith('BILLING.SUBSCRIPTION.')) problems.push(...checkModel(resource, 'subscription'));
  else if (type === 'PAYMENT.SALE.COMPLETED') problems.push(...checkZod(resource, V1.sale));
  else if (type === 'PAYMENT.SALE.REFUNDED') problems.push(...checkZod(resource, V1.saleRefund));
  else if (type === 'PAYMENT.SALE.REVERSED') problems.push(...checkZod(resource, V1.saleReversal));
  else if (type.startsWith('CUSTOMER.DISPUTE.')) problems.push(...checkZod(resource, V1.dispute));
  else problems.push(`no definition for ${type}`);
  return problems.map((problem) => `${type}: ${problem}`);
}
