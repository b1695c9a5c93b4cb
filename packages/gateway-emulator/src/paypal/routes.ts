import { createVerify } from 'node:crypto';
import { z } from 'zod';
import { newestFirst, paypalPage } from '../core/lists';
import { json, route, type RouteSpec } from '../core/router';
import type { Obj } from '../core/store';
import type { TransactionRecord } from './context';
import { paypalSignedText, refuse, unprocessable } from './dialect';
import type { PaypalEmulator } from './paypal';

/** PayPal's money object: an ISO code and a decimal string (at most two fraction digits here). */
export const money = z.object({
  currency_code: z.string().regex(/^[A-Z]{3}$/),
  value: z
    .string()
    .regex(/^\d{1,10}(\.\d{1,2})?$/, 'Must be a decimal amount with at most two fraction digits.'),
});
const isoTime = z
  .string()
  .refine(
    (value) => !Number.isNaN(Date.parse(value)),
    'Must be a date and time in Internet date and time format.',
  );
const pageNumber = z.coerce.number().int().min(1);

/**
 * PayPal's REST routes as @paypal/paypal-server-sdk and Backbeat's own REST calls reach them: OAuth, Orders v2,
 * Payments v2, v1 sale refunds, catalog products, billing plans and subscriptions (with their transactions),
 * Transaction Search, disputes, webhook events and their verification.
 */
export function paypalRoutes(pp: PaypalEmulator): Array<RouteSpec<unknown, unknown>> {
  const { ctx } = pp;
  /** `GET <path>/:id`: a stored object by its id (PayPal's not-found answer when there is none). */
  const byId = (path: string, collection: string) =>
    route(`GET ${path}/:id`, 'bearer', {
      handler: ({ param }) => json(200, ctx.get(collection, param('id'))),
    });
  return [
    route('POST /v1/oauth2/token', 'none', {
      handler: ({ request }) => pp.token(request),
    }),
    route('POST /v2/checkout/orders', 'bearer', {
      input: z.object({
        intent: z.enum(['CAPTURE', 'AUTHORIZE']),
        purchase_units: z
          .array(
            z.object({
              reference_id: z.string().max(256).optional(),
              custom_id: z.string().max(255).optional(),
              invoice_id: z.string().max(127).optional(),
              description: z.string().max(127).optional(),
              amount: money,
            }),
          )
          .min(1),
        application_context: z.record(z.string(), z.unknown()).optional(),
        payment_source: z.record(z.string(), z.unknown()).optional(),
      }),
      handler: ({ input }) => {
        if (input.intent !== 'CAPTURE')
          unprocessable('INTENT_NOT_SUPPORTED', 'Only intent CAPTURE is emulated.', '/intent');
        const unit = input.purchase_units[0]!;
        const order = pp.orders.create({
          referenceId: unit.reference_id,
          customId: unit.custom_id,
          invoiceId: unit.invoice_id,
          description: unit.description,
          amount: unit.amount,
        });
        return json(201, order);
      },
    }),
    route('GET /v2/checkout/orders/:id', 'bearer', {
      handler: ({ param }) => json(200, pp.orders.find(param('id'))),
    }),
    route('POST /v2/checkout/orders/:id/capture', 'bearer', {
      handler: ({ param }) => json(201, pp.orders.capture(ctx.get('orders', param('id')))),
    }),
    byId('/v2/payments/captures', 'captures'),
    route('POST /v2/payments/captures/:id/refund', 'bearer', {
      input: z.object({
        amount: money.optional(),
        note_to_payer: z.string().max(255).optional(),
        invoice_id: z.string().optional(),
        custom_id: z.string().optional(),
      }),
      handler: ({ input, param }) =>
        json(
          201,
          pp.orders.refund(param('id'), {
            amount: input.amount,
            noteToPayer: input.note_to_payer,
            invoiceId: input.invoice_id,
          }),
        ),
    }),
    byId('/v2/payments/refunds', 'refunds'),
    byId('/v1/payments/sale', 'sales'),
    route('POST /v1/payments/sale/:id/refund', 'bearer', {
      input: z.object({
        amount: z
          .object({
            total: z.string().regex(/^\d{1,10}(\.\d{1,2})?$/),
            currency: z.string().regex(/^[A-Z]{3}$/),
          })
          .optional(),
        description: z.string().max(255).optional(),
        invoice_number: z.string().optional(),
      }),
      handler: ({ input, param }) =>
        json(201, pp.sales.refundSale(param('id'), { ...input.amount, description: input.description })),
    }),
    byId('/v1/payments/refund', 'sale_refunds'),
    route('POST /v1/catalogs/products', 'bearer', {
      input: z.object({
        name: z.string().min(1).max(127),
        description: z.string().max(256).optional(),
        type: z.enum(['PHYSICAL', 'DIGITAL', 'SERVICE']).optional(),
        category: z.string().optional(),
      }),
      handler: ({ input }) => json(201, pp.billing.createProduct(input)),
    }),
    byId('/v1/catalogs/products', 'products'),
    route('POST /v1/billing/plans', 'bearer', {
      input: z.object({
        product_id: z.string(),
        name: z.string().min(1).max(127),
        description: z.string().optional(),
        billing_cycles: z
          .array(
            z.object({
              frequency: z.object({
                interval_unit: z.enum(['DAY', 'WEEK', 'MONTH', 'YEAR']),
                interval_count: z.number().int().min(1).optional(),
              }),
              tenure_type: z.enum(['REGULAR', 'TRIAL']),
              sequence: z.number().int().min(1),
              total_cycles: z.number().int().min(0).optional(),
              pricing_scheme: z.object({ fixed_price: money }),
            }),
          )
          .min(1),
        payment_preferences: z.record(z.string(), z.unknown()),
      }),
      handler: ({ input }) => {
        if (!ctx.find('products', input.product_id))
          unprocessable('INVALID_PRODUCT_ID', 'The specified product ID is invalid.', '/product_id');
        if (input.billing_cycles[0]!.frequency.interval_unit !== 'MONTH') {
          unprocessable(
            'UNSUPPORTED_INTERVAL_UNIT',
            'Only monthly billing cycles are emulated.',
            '/billing_cycles/0/frequency/interval_unit',
          );
        }
        return json(
          201,
          pp.billing.createPlan({
            productId: input.product_id,
            name: input.name,
            description: input.description,
            billingCycles: input.billing_cycles,
            paymentPreferences: input.payment_preferences,
          }),
        );
      },
    }),
    byId('/v1/billing/plans', 'plans'),
    route('POST /v1/billing/subscriptions', 'bearer', {
      input: z.object({
        plan_id: z.string(),
        custom_id: z.string().max(127).optional(),
        quantity: z.string().optional(),
        application_context: z
          .object({ return_url: z.string().optional(), cancel_url: z.string().optional() })
          .passthrough()
          .optional(),
      }),
      handler: ({ input }) => {
        if (!ctx.find('plans', input.plan_id))
          unprocessable('INVALID_PARAMETER_VALUE', 'The specified plan_id is invalid.', '/plan_id');
        return json(
          201,
          pp.billing.createSubscription({
            planId: input.plan_id,
            customId: input.custom_id,
            returnUrl: input.application_context?.return_url,
            cancelUrl: input.application_context?.cancel_url,
          }),
        );
      },
    }),
    byId('/v1/billing/subscriptions', 'subscriptions'),
    route('POST /v1/billing/subscriptions/:id/cancel', 'bearer', {
      input: z.object({ reason: z.string().max(128).optional() }),
      handler: ({ input, param }) => {
        pp.billing.cancel(param('id'), input.reason);
        return { status: 204, empty: true };
      },
    }),
    route('GET /v1/billing/subscriptions/:id/transactions', 'bearer', {
      input: z.object({ start_time: isoTime, end_time: isoTime }),
      handler: ({ input, param }) => {
        const subscription = ctx.get('subscriptions', param('id'));
        const transactions = pp.billing.transactions(
          subscription,
          new Date(input.start_time),
          new Date(input.end_time),
        );
        return json(200, {
          transactions,
          total_items: transactions.length,
          total_pages: 1,
          links: [
            ctx.link(
              `/v1/billing/subscriptions/${subscription.id}/transactions?start_time=${input.start_time}&end_time=${input.end_time}`,
              'self',
            ),
          ],
        });
      },
    }),
    route('GET /v1/reporting/transactions', 'bearer', {
      input: z.object({
        start_date: isoTime,
        end_date: isoTime,
        transaction_id: z.string().optional(),
        fields: z.string().optional(),
        page_size: z.coerce.number().int().min(1).max(500).optional(),
        page: pageNumber.optional(),
      }),
      handler: ({ input }) => {
        const start = new Date(input.start_date);
        const end = new Date(input.end_date);
        if (end < start)
          refuse(400, 'INVALID_REQUEST', 'End date must be after start date.', {
            field: 'end_date',
            location: 'query',
          });
        if (end.getTime() - start.getTime() > 31 * 24 * 3600 * 1000) {
          refuse(400, 'INVALID_REQUEST', 'Date range is greater than 31 days', {
            field: 'end_date',
            location: 'query',
          });
        }
        const lines = ctx.store.values<TransactionRecord>('transactions').filter((line) => {
          const at = new Date(line.transaction_initiation_date);
          return (
            at >= start &&
            at <= end &&
            (!input.transaction_id || line.transaction_id === input.transaction_id)
          );
        });
        const size = input.page_size ?? 100;
        const number = input.page ?? 1;
        const shown = paypalPage(lines, number, size);
        const all = (input.fields ?? 'transaction_info').split(',').includes('all');
        return json(200, {
          transaction_details: shown.items.map(({ id: _id, ...info }) => ({
            transaction_info: info,
            ...(all
              ? {
                  payer_info: {},
                  shipping_info: {},
                  cart_info: {},
                  store_info: {},
                  auction_info: {},
                  incentive_info: {},
                }
              : {}),
          })),
          account_number: 'BACKBEATEMU01',
          start_date: ctx.iso(start),
          end_date: ctx.iso(end),
          last_refreshed_datetime: ctx.iso(),
          page: number,
          total_items: shown.total_items,
          total_pages: shown.total_pages,
          links: [
            ctx.link(
              `/v1/reporting/transactions?start_date=${input.start_date}&end_date=${input.end_date}&page=${number}&page_size=${size}`,
              'self',
            ),
          ],
        });
      },
    }),
    // "Disputes API > List disputes": summaries, newest update first, `update_time_after` / `start_time`
    // filters, pages of `page_size` (1 to 50, default 10) linked by `next_page_token`.
    route('GET /v1/customer/disputes', 'bearer', {
      input: z.object({
        start_time: isoTime.optional(),
        update_time_after: isoTime.optional(),
        update_time_before: isoTime.optional(),
        disputed_transaction_id: z.string().optional(),
        page_size: z.coerce.number().int().min(1).max(50).optional(),
        next_page_token: z.string().regex(/^\d+$/).optional(),
      }),
      handler: ({ input }) => json(200, pp.disputes.list(input)),
    }),
    route('GET /v1/customer/disputes/:id', 'bearer', {
      handler: ({ param }) => json(200, pp.disputes.view(ctx.get('disputes', param('id')))),
    }),
    route('GET /v1/notifications/webhooks-events', 'bearer', {
      input: z.object({
        page_size: z.coerce.number().int().min(1).max(300).optional(),
        event_type: z.string().optional(),
        start_time: isoTime.optional(),
        end_time: isoTime.optional(),
      }),
      handler: ({ input }) => {
        const events = newestFirst(
          ctx.store
            .values<Obj>('events')
            .filter(
              (event) =>
                (!input.event_type || event.event_type === input.event_type) &&
                (!input.start_time || new Date(String(event.create_time)) >= new Date(input.start_time)) &&
                (!input.end_time || new Date(String(event.create_time)) <= new Date(input.end_time)),
            ),
          (event) => Date.parse(String(event.create_time)),
        );
        return json(200, {
          events: events.slice(0, input.page_size ?? 10),
          count: Math.min(events.length, input.page_size ?? 10),
          links: [],
        });
      },
    }),
    byId('/v1/notifications/webhooks-events', 'events'),
    route('POST /v1/notifications/verify-webhook-signature', 'bearer', {
      input: z.object({
        auth_algo: z.string(),
        cert_url: z.string(),
        transmission_id: z.string(),
        transmission_sig: z.string(),
        transmission_time: z.string(),
        webhook_id: z.string(),
        webhook_event: z.record(z.string(), z.unknown()),
      }),
      handler: ({ input }) => {
        let ok = false;
        try {
          ok =
            input.auth_algo === 'SHA256withRSA' &&
            input.webhook_id === ctx.credentials.webhookId &&
            createVerify('RSA-SHA256')
              .update(
                paypalSignedText(
                  input.transmission_id,
                  input.transmission_time,
                  input.webhook_id,
                  JSON.stringify(input.webhook_event),
                ),
              )
              .verify(ctx.keys.publicKey, input.transmission_sig, 'base64');
        } catch {
          ok = false;
        }
        return json(200, { verification_status: ok ? 'SUCCESS' : 'FAILURE' });
      },
    }),
    route('GET /v1/notifications/certs/:id', 'none', {
      handler: () => ({
        status: 200,
        contentType: 'application/x-pem-file',
        text: ctx.keys.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      }),
    }),
  ];
}
