import { z } from 'zod';
import { newestFirst, razorpayCollection } from '../core/lists';
import { json, route, type RouteSpec } from '../core/router';
import type { Obj } from '../core/store';
import { notFound, refuse } from './dialect';
import { planObject, subscriptionObject } from './objects';
import type { RazorpayEmulator } from './razorpay';

const integer = z.union([
  z.number().int(),
  z
    .string()
    .regex(/^-?\d+$/, 'must be an integer')
    .transform(Number),
]);
const notes = z
  .record(z.string(), z.union([z.string(), z.number()]).transform(String))
  .refine((value) => Object.keys(value).length <= 15, 'The notes may not have more than 15 items.')
  .optional();
/** `from`/`to` (unix seconds), `count` (max 100), `skip`: Razorpay's list parameters. */
const listQuery = z.object({
  from: integer.optional(),
  to: integer.optional(),
  count: integer.pipe(z.number().min(1).max(100)).optional(),
  skip: integer.pipe(z.number().min(0)).optional(),
});
type ListQuery = z.infer<typeof listQuery>;
const flag = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.enum(['0', '1', 'true', 'false'])])
  .transform((value) => value === true || value === 1 || value === '1' || value === 'true');

/** Razorpay's REST routes as the razorpay SDK calls them, each with Basic auth and its parameters. */
export function razorpayRoutes(rzp: RazorpayEmulator): Array<RouteSpec<unknown, unknown>> {
  const collection =
    (name: string, keep: (object: Obj) => boolean = () => true) =>
    (query: ListQuery) => {
      const items = rzp.store
        .values<Obj>(name)
        .filter(
          (object) =>
            keep(object) &&
            (query.from === undefined || Number(object.created_at) >= query.from) &&
            (query.to === undefined || Number(object.created_at) <= query.to),
        );
      return json(
        200,
        razorpayCollection(
          newestFirst(items, (o) => Number(o.created_at)),
          query,
        ),
      );
    };
  const list = (path: string, name: string, keep?: (object: Obj, id: string) => boolean) =>
    route(`GET ${path}`, 'basic', {
      input: listQuery,
      handler: ({ input, param }) =>
        collection(name, keep ? (object) => keep(object, param('id')) : undefined)(input),
    });
  const fetch = (path: string, name: string) =>
    route(`GET ${path}`, 'basic', {
      handler: ({ param }) => json(200, rzp.get(name, param('id'))),
    });

  return [
    route('POST /v1/orders', 'basic', {
      input: z.object({
        amount: integer.pipe(z.number().min(100, 'The amount must be atleast INR 1.00')),
        currency: z.string().regex(/^[A-Z]{3}$/, 'The currency must be a valid ISO 4217 code.'),
        receipt: z.string().max(40).optional(),
        notes,
        partial_payment: flag.optional(),
      }),
      handler: ({ input }) =>
        json(
          200,
          rzp.createOrder({
            amount: input.amount,
            currency: input.currency,
            receipt: input.receipt ?? null,
            notes: input.notes ?? {},
          }),
        ),
    }),
    list('/v1/orders', 'orders'),
    fetch('/v1/orders/:id', 'orders'),
    route('GET /v1/orders/:id/payments', 'basic', {
      handler: ({ param }) => {
        rzp.get('orders', param('id'));
        const items = rzp.store.values<Obj>('payments').filter((payment) => payment.order_id === param('id'));
        return json(200, {
          entity: 'collection',
          count: items.length,
          items: newestFirst(items, (o) => Number(o.created_at)),
        });
      },
    }),
    list('/v1/payments', 'payments'),
    fetch('/v1/payments/:id', 'payments'),
    route('POST /v1/payments/:id/capture', 'basic', {
      input: z.object({ amount: integer, currency: z.string() }),
      handler: ({ input, param }) =>
        json(200, rzp.capture(rzp.get('payments', param('id')), input.amount, input.currency)),
    }),
    route('POST /v1/payments/:id/refund', 'basic', {
      input: z.object({
        amount: integer.optional(),
        speed: z.enum(['normal', 'optimum']).optional(),
        notes,
        receipt: z.string().max(40).optional(),
      }),
      handler: ({ input, param }) => json(200, rzp.refund(rzp.get('payments', param('id')), input)),
    }),
    list('/v1/payments/:id/refunds', 'refunds', (refund, id) => refund.payment_id === id),
    route('GET /v1/payments/:paymentId/refunds/:id', 'basic', {
      handler: ({ param }) => {
        const refund = rzp.get('refunds', param('id'));
        return refund.payment_id === param('paymentId') ? json(200, refund) : notFound();
      },
    }),
    list('/v1/refunds', 'refunds'),
    fetch('/v1/refunds/:id', 'refunds'),
    list('/v1/disputes', 'disputes'),
    fetch('/v1/disputes/:id', 'disputes'),
    list('/v1/invoices', 'invoices'),
    fetch('/v1/invoices/:id', 'invoices'),
    route('POST /v1/plans', 'basic', {
      input: z.object({
        period: z.enum(['daily', 'weekly', 'monthly', 'yearly']),
        interval: integer.pipe(z.number().min(1)),
        item: z.object({
          name: z.string().min(1),
          amount: integer.pipe(z.number().min(100)),
          currency: z.string().regex(/^[A-Z]{3}$/),
          description: z.string().optional(),
        }),
        notes,
      }),
      handler: ({ input }) => {
        if (input.period !== 'monthly') refuse('Only monthly plans are emulated.', { field: 'period' });
        const plan = planObject(rzp.now(), {
          interval: input.interval,
          period: input.period,
          name: input.item.name,
          description: input.item.description ?? null,
          amount: input.item.amount,
          currency: input.item.currency,
          notes: input.notes ?? {},
        });
        return json(200, rzp.save('plans', plan));
      },
    }),
    fetch('/v1/plans/:id', 'plans'),
    route('POST /v1/subscriptions', 'basic', {
      input: z.object({
        plan_id: z.string(),
        total_count: integer.pipe(z.number().min(1)),
        customer_notify: flag.optional(),
        quantity: integer.optional(),
        notes,
      }),
      handler: ({ input }) => {
        if (!rzp.find('plans', input.plan_id)) refuse('The id provided does not exist', { field: 'plan_id' });
        const subscription = subscriptionObject(rzp.now(), {
          planId: input.plan_id,
          total: input.total_count,
          notes: input.notes ?? {},
          shortUrl: (id) => `${rzp.baseUrl}/_checkout?subscription_id=${id}`,
        });
        subscription.customer_notify = input.customer_notify ?? true;
        return json(200, rzp.save('subscriptions', subscription));
      },
    }),
    fetch('/v1/subscriptions/:id', 'subscriptions'),
    route('POST /v1/subscriptions/:id/cancel', 'basic', {
      input: z.object({ cancel_at_cycle_end: flag.optional() }),
      handler: ({ input, param }) =>
        json(
          200,
          rzp.cancelSubscription(rzp.get('subscriptions', param('id')), input.cancel_at_cycle_end === true),
        ),
    }),
  ];
}

const outcome = z.object({ outcome: z.enum(['paid', 'failed']).optional() });

/** Razorpay's `/_emulator/*` routes: charges, disputes and the account's capture setting. */
export function razorpayControl(rzp: RazorpayEmulator): Array<RouteSpec<unknown, unknown>> {
  return [
    route('POST /_emulator/subscriptions/:id/charge', 'none', {
      input: outcome,
      handler: ({ input, param }) => {
        const subscription = rzp.get('subscriptions', param('id'));
        rzp.charge(subscription, input.outcome);
        return json(200, subscription);
      },
    }),
    route('POST /_emulator/payments/:id/dispute', 'none', {
      handler: ({ param }) => json(200, rzp.openDispute(rzp.get('payments', param('id')))),
    }),
    route('POST /_emulator/disputes/:id/close', 'none', {
      input: z.object({ outcome: z.enum(['won', 'lost']) }),
      handler: ({ input, param }) =>
        json(200, rzp.closeDispute(rzp.get('disputes', param('id')), input.outcome)),
    }),
    route('POST /_emulator/payments/:id/refund', 'none', {
      input: z.object({ amount: integer.optional() }),
      handler: ({ input, param }) =>
        json(200, rzp.refund(rzp.get('payments', param('id')), { amount: input.amount })),
    }),
    route('GET /_emulator/settings', 'none', {
      handler: () => json(200, { auto_capture: rzp.settings.autoCapture }),
    }),
    route('POST /_emulator/settings', 'none', {
      input: z.object({ auto_capture: flag }),
      handler: ({ input }) => {
        rzp.setAutoCapture(input.auto_capture);
        return json(200, { auto_capture: rzp.settings.autoCapture });
      },
    }),
  ];
}
