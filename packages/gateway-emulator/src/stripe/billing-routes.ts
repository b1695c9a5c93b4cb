import { z } from 'zod';
import { json, route, type RouteSpec } from '../core/router';
import type { StripeBilling } from './billing';
import { priceObject, productObject } from './billing-objects';
import type { StripeContext } from './context';
import { bool, currency, expand, int, invalidRequest, metadata, missingParam } from './dialect';
import type { RouteKit } from './route-kit';

/** Stripe's billing routes: products, prices, subscriptions and invoices. */
export function billingRoutes(
  ctx: StripeContext,
  billingPart: StripeBilling,
  { expanded, list, retrieve, customer }: RouteKit,
): Array<RouteSpec<unknown, unknown>> {
  return [
    // Products and prices
    route('POST /v1/products', 'secret', {
      input: z.object({ name: z.string().min(1), metadata: metadata.optional() }),
      handler: ({ input }) => json(200, ctx.save('products', productObject(ctx.now(), input))),
    }),
    route('POST /v1/prices', 'secret', {
      input: z.object({
        unit_amount: int.pipe(z.number().min(0)),
        currency,
        product: z.string().optional(),
        product_data: z.object({ name: z.string().min(1) }).optional(),
        recurring: z
          .object({
            interval: z.enum(['month']),
            interval_count: int.pipe(z.number().min(1).max(12)).optional(),
          })
          .optional(),
        nickname: z.string().optional(),
        metadata: metadata.optional(),
      }),
      handler: ({ input }) => {
        let product = input.product;
        if (product) ctx.retrieve('products', 'product', product, 'product');
        else if (input.product_data)
          product = ctx.save('products', productObject(ctx.now(), { name: input.product_data.name })).id;
        else missingParam('product');
        const price = priceObject(ctx.now(), {
          amount: input.unit_amount,
          currency: input.currency,
          product,
          nickname: input.nickname ?? input.product_data?.name ?? null,
          months: input.recurring ? (input.recurring.interval_count ?? 1) : null,
          metadata: input.metadata,
        });
        return json(200, ctx.save('prices', price));
      },
    }),

    // Subscriptions
    route('POST /v1/subscriptions', 'secret', {
      input: z.object({
        customer: z.string(),
        items: z.union([
          z.array(z.object({ price: z.string() })),
          z.record(z.string(), z.object({ price: z.string() })),
        ]),
        default_payment_method: z.string().optional(),
        payment_behavior: z
          .enum(['allow_incomplete', 'default_incomplete', 'error_if_incomplete', 'pending_if_incomplete'])
          .optional(),
        metadata: metadata.optional(),
        expand: expand.optional(),
        payment_settings: z
          .object({ save_default_payment_method: z.enum(['on_subscription', 'off']).optional() })
          .optional(),
      }),
      handler: ({ input }) => {
        const owner = customer(input.customer);
        const first = Array.isArray(input.items) ? input.items[0] : Object.values(input.items)[0];
        if (!first) missingParam('items');
        const price = ctx.retrieve('prices', 'price', first.price, 'items[0][price]');
        const method =
          input.default_payment_method ??
          (owner.invoice_settings as { default_payment_method?: string | null }).default_payment_method ??
          null;
        const subscription = billingPart.createSubscription({
          customer: owner,
          price,
          paymentMethod: method,
          metadata: input.metadata ?? {},
        });
        return expanded(subscription, input.expand);
      },
    }),
    retrieve('subscriptions', 'subscription'),
    route('POST /v1/subscriptions/:id', 'secret', {
      input: z.object({
        cancel_at_period_end: bool.optional(),
        default_payment_method: z.string().optional(),
        metadata: metadata.optional(),
      }),
      handler: ({ input, param }) =>
        json(
          200,
          billingPart.update(ctx.retrieve('subscriptions', 'subscription', param('id')), {
            cancelAtPeriodEnd: input.cancel_at_period_end,
            paymentMethod: input.default_payment_method,
            metadata: input.metadata,
          }),
        ),
    }),
    route('DELETE /v1/subscriptions/:id', 'secret', {
      handler: ({ param }) => {
        const subscription = ctx.retrieve('subscriptions', 'subscription', param('id'));
        if (subscription.status === 'canceled') {
          invalidRequest(`A canceled subscription can only update its cancellation_details and metadata.`, {
            code: 'resource_missing',
          });
        }
        return json(200, billingPart.cancel(subscription));
      },
    }),

    list(
      '/v1/invoices',
      'invoices',
      'invoice',
      {
        subscription: z.string().optional(),
        customer: z.string().optional(),
        status: z.enum(['draft', 'open', 'paid', 'uncollectible', 'void']).optional(),
      },
      (o, i) =>
        (!i.customer || o.customer === i.customer) &&
        (!i.status || o.status === i.status) &&
        (!i.subscription ||
          (o.parent as { subscription_details?: { subscription?: string } } | null)?.subscription_details
            ?.subscription === i.subscription),
    ),
    retrieve('invoices', 'invoice'),
  ];
}
