import { z } from 'zod';
import { inRange, newestFirst, stripePage, type CreatedRange } from '../core/lists';
import { json, route, type EmulatorResponse, type RouteContext, type RouteSpec } from '../core/router';
import type { Obj } from '../core/store';
import type { StripeBilling } from './billing';
import type { StripeContext } from './context';
import {
  bool,
  currency,
  expand,
  int,
  invalidRequest,
  listParams,
  metadata,
  refuse,
  stripeError,
  type StripeCaller,
} from './dialect';
import { customerObject, priceObject, productObject, setupIntentObject } from './objects';
import type { StripePayments } from './payments';

type Ctx<I> = RouteContext<I, StripeCaller>;
const card = z
  .object({
    number: z.string().optional(),
    exp_month: int.optional(),
    exp_year: int.optional(),
    cvc: z.string().optional(),
  })
  .optional();
const billing = z
  .object({
    name: z.string().optional(),
    email: z.string().optional(),
    address: z.object({ postal_code: z.string().optional() }).optional(),
  })
  .optional();
const methodData = z
  .object({ type: z.literal('card').optional(), card, billing_details: billing })
  .optional();
const refundReason = z.enum(['duplicate', 'fraudulent', 'requested_by_customer']);
const cancellationReason = z.enum(['duplicate', 'fraudulent', 'requested_by_customer', 'abandoned']);

/**
 * Stripe's REST routes as stripe-node and Stripe.js call them for Backbeat: each a row with its auth scheme
 * (`secret`, or `client` where Stripe.js may call with the publishable key and the object's client secret), its
 * parameters as Stripe validates them and a handler.
 */
export function stripeRoutes(
  ctx: StripeContext,
  payments: StripePayments,
  billingPart: StripeBilling,
): Array<RouteSpec<unknown, unknown>> {
  const expanded = (object: Obj, paths: string[] | undefined) => json(200, ctx.expand(object, paths ?? []));
  /** A list route: filters, then Stripe's cursor pagination, newest first. */
  type ListInput = {
    created?: CreatedRange;
    limit?: number;
    starting_after?: string;
    ending_before?: string;
    expand?: string[];
  } & Record<string, unknown>;
  const list = (
    path: string,
    collection: string,
    kind: string,
    filters: z.ZodRawShape,
    keep: (object: Obj, input: Record<string, unknown>) => boolean,
  ) =>
    route(`GET ${path}`, 'secret', {
      input: z.object({ ...listParams, ...filters }) as unknown as z.ZodType<ListInput>,
      handler: ({ input }: Ctx<ListInput>) => {
        const page = stripePage(
          newestFirst(ctx.store.values<Obj>(collection), (o) => Number(o.created)),
          (object) =>
            !object.deleted && inRange(Number(object.created), input.created) && keep(object, input),
          input,
          path,
          (param, id) =>
            stripeError(404, {
              type: 'invalid_request_error',
              code: 'resource_missing',
              message: `No such ${kind}: '${id}'`,
              param,
            }),
        );
        return json(200, {
          ...page,
          data: page.data.map((object) =>
            ctx.expand(
              object,
              (input.expand ?? []).map((p) => p.replace(/^data\./, '')),
            ),
          ),
        });
      },
    });
  /** The intent a client route names: Stripe.js must also give the intent's client secret. */
  const ownIntent = (
    collection: string,
    kind: string,
    context: RouteContext<{ client_secret?: string }, unknown>,
  ) => {
    const intent = ctx.retrieve(collection, kind, context.param('id'));
    if (context.caller === 'publishable' && context.input.client_secret !== intent.client_secret) {
      refuse(400, {
        type: 'invalid_request_error',
        code: 'resource_missing',
        message: `The client_secret provided does not match the client_secret associated with the ${kind}.`,
        param: 'client_secret',
      });
    }
    return intent;
  };
  const customer = (id: string, param = 'customer') => {
    const found = ctx.retrieve('customers', 'customer', id, param);
    return found.deleted
      ? refuse(404, {
          type: 'invalid_request_error',
          code: 'resource_missing',
          message: `No such customer: '${id}'`,
          param,
        })
      : found;
  };
  const confirmSetup = (
    intent: Obj,
    pm: string | undefined,
    data: z.infer<typeof methodData>,
    authenticated: boolean,
  ): EmulatorResponse => {
    const methodId =
      pm ?? (data?.card ? payments.createPaymentMethod(data.card, data.billing_details).id : undefined);
    if (!methodId)
      return stripeError(400, {
        type: 'invalid_request_error',
        code: 'parameter_missing',
        message: 'Missing required param: payment_method.',
        param: 'payment_method',
      });
    ctx.retrieve('payment_methods', 'PaymentMethod', methodId, 'payment_method');
    intent.payment_method = methodId;
    const behaviour = payments.behaviourOf(methodId);
    if (behaviour.kind === 'decline') {
      const error = {
        type: 'card_error',
        code: behaviour.code,
        decline_code: behaviour.declineCode,
        message: behaviour.message,
      };
      Object.assign(intent, { status: 'requires_payment_method', last_setup_error: error });
      ctx.save('setup_intents', intent);
      ctx.emit('setup_intent.setup_failed', intent);
      return stripeError(402, { ...error, setup_intent: intent });
    }
    if (behaviour.kind === 'three_d_secure' && !authenticated) {
      intent.status = 'requires_action';
      intent.next_action = {
        type: 'use_stripe_sdk',
        use_stripe_sdk: {
          type: 'three_d_secure_redirect',
          stripe_js: `${ctx.baseUrl}/_3ds/${intent.id}?client_secret=${encodeURIComponent(String(intent.client_secret))}`,
        },
      };
      ctx.save('setup_intents', intent);
      ctx.emit('setup_intent.requires_action', intent);
      return json(200, intent);
    }
    return json(200, completeSetup(ctx, intent));
  };

  return [
    // Customers
    route('POST /v1/customers', 'secret', {
      input: z.object({
        email: z.string().optional(),
        name: z.string().optional(),
        metadata: metadata.optional(),
      }),
      handler: ({ input }) => {
        const created = ctx.save('customers', customerObject(ctx.now(), input));
        ctx.emit('customer.created', created);
        return json(200, created);
      },
    }),
    route('GET /v1/customers/:id', 'secret', {
      input: z.object({ expand: expand.optional() }),
      handler: ({ input, param }) => {
        const found = ctx.retrieve('customers', 'customer', param('id'));
        return found.deleted
          ? json(200, { id: found.id, object: 'customer', deleted: true })
          : expanded(found, input.expand);
      },
    }),
    route('POST /v1/customers/:id', 'secret', {
      input: z.object({
        name: z.string().optional(),
        email: z.string().optional(),
        metadata: metadata.optional(),
        address: z.record(z.string(), z.string()).optional(),
        invoice_settings: z.object({ default_payment_method: z.string().optional() }).optional(),
      }),
      handler: ({ input, param }) => {
        const found = customer(param('id'), 'id');
        const previous: Record<string, unknown> = {};
        const method = input.invoice_settings?.default_payment_method;
        if (method) {
          const pm = ctx.retrieve(
            'payment_methods',
            'PaymentMethod',
            method,
            'invoice_settings[default_payment_method]',
          );
          if (pm.customer !== found.id) {
            invalidRequest(
              `The customer does not have a payment method with the ID ${method}. The payment method must be attached to the customer.`,
              {
                code: 'resource_missing',
                param: 'invoice_settings[default_payment_method]',
              },
            );
          }
          previous.invoice_settings = structuredClone(found.invoice_settings);
          (found.invoice_settings as Record<string, unknown>).default_payment_method = method;
        }
        if (input.name !== undefined) [previous.name, found.name] = [found.name, input.name || null];
        if (input.email !== undefined) [previous.email, found.email] = [found.email, input.email || null];
        if (input.address)
          [previous.address, found.address] = [
            found.address,
            {
              city: null,
              country: null,
              line1: null,
              line2: null,
              postal_code: null,
              state: null,
              ...input.address,
            },
          ];
        if (input.metadata)
          [previous.metadata, found.metadata] = [
            found.metadata,
            { ...(found.metadata as object), ...input.metadata },
          ];
        ctx.save('customers', found);
        ctx.emit('customer.updated', found, previous);
        return json(200, found);
      },
    }),
    route('DELETE /v1/customers/:id', 'secret', {
      handler: ({ param }) => {
        const found = customer(param('id'), 'id');
        for (const subscription of ctx.store.values<Obj>('subscriptions')) {
          if (subscription.customer === found.id) billingPart.cancel(subscription);
        }
        ctx.emit('customer.deleted', found);
        found.deleted = true;
        ctx.save('customers', found);
        return json(200, { id: found.id, object: 'customer', deleted: true });
      },
    }),

    // Payment methods
    route('POST /v1/payment_methods', 'client', {
      input: z.object({ type: z.enum(['card']), card: card.unwrap(), billing_details: billing }),
      handler: ({ input }) => json(200, payments.createPaymentMethod(input.card, input.billing_details)),
    }),
    route('GET /v1/payment_methods/:id', 'secret', {
      handler: ({ param }) => json(200, ctx.retrieve('payment_methods', 'PaymentMethod', param('id'))),
    }),
    route('POST /v1/payment_methods/:id/attach', 'secret', {
      input: z.object({ customer: z.string() }),
      handler: ({ input, param }) => {
        const method = ctx.retrieve('payment_methods', 'PaymentMethod', param('id'));
        customer(input.customer);
        if (method.customer && method.customer !== input.customer) {
          invalidRequest('The payment method you provided has already been attached to a customer.', {
            code: 'payment_method_unexpected_state',
            param: 'customer',
          });
        }
        method.customer = input.customer;
        ctx.save('payment_methods', method);
        ctx.emit('payment_method.attached', method);
        return json(200, method);
      },
    }),

    // PaymentIntents
    route('POST /v1/payment_intents', 'secret', {
      input: z.object({
        amount: int.pipe(z.number().min(1)),
        currency,
        customer: z.string().optional(),
        description: z.string().optional(),
        payment_method: z.string().optional(),
        metadata: metadata.optional(),
        automatic_payment_methods: z.object({ enabled: bool }).optional(),
        setup_future_usage: z.enum(['on_session', 'off_session']).optional(),
        expand: expand.optional(),
      }),
      handler: ({ input }) => {
        if (input.amount < 50 && input.currency === 'usd') {
          invalidRequest('Amount must be at least $0.50 usd', { code: 'amount_too_small', param: 'amount' });
        }
        const intent = payments.createIntent({
          amount: input.amount,
          currency: input.currency,
          customer: input.customer,
          description: input.description,
          paymentMethod: input.payment_method,
          metadata: input.metadata,
          automatic: input.automatic_payment_methods?.enabled,
          setupFutureUsage: input.setup_future_usage,
        });
        return expanded(intent, input.expand);
      },
    }),
    list(
      '/v1/payment_intents',
      'payment_intents',
      'payment_intent',
      { customer: z.string().optional() },
      (o, i) => !i.customer || o.customer === i.customer,
    ),
    route('GET /v1/payment_intents/:id', 'client', {
      input: z.object({ client_secret: z.string().optional(), expand: expand.optional() }),
      handler: (context) =>
        expanded(ownIntent('payment_intents', 'payment_intent', context), context.input.expand),
    }),
    route('POST /v1/payment_intents/:id/confirm', 'client', {
      input: z.object({
        client_secret: z.string().optional(),
        payment_method: z.string().optional(),
        payment_method_data: methodData,
        off_session: bool.optional(),
        return_url: z.string().optional(),
        expand: expand.optional(),
      }),
      handler: (context) => {
        const intent = ownIntent('payment_intents', 'payment_intent', context);
        const data = context.input.payment_method_data;
        const methodId =
          context.input.payment_method ??
          (data?.card ? payments.createPaymentMethod(data.card, data.billing_details).id : undefined);
        const confirmed = payments.confirm(intent, {
          paymentMethod: methodId,
          offSession: context.input.off_session,
        });
        return expanded(confirmed, context.input.expand);
      },
    }),
    route('POST /v1/payment_intents/:id/cancel', 'secret', {
      input: z.object({ cancellation_reason: cancellationReason.optional() }),
      handler: ({ input, param }) =>
        json(
          200,
          payments.cancel(
            ctx.retrieve('payment_intents', 'payment_intent', param('id')),
            input.cancellation_reason,
          ),
        ),
    }),

    // SetupIntents
    route('POST /v1/setup_intents', 'secret', {
      input: z.object({
        customer: z.string().optional(),
        usage: z.enum(['on_session', 'off_session']).optional(),
        metadata: metadata.optional(),
      }),
      handler: ({ input }) => {
        if (input.customer) customer(input.customer);
        const intent = setupIntentObject(ctx.now(), {
          customer: input.customer ?? null,
          usage: input.usage ?? 'off_session',
          metadata: input.metadata,
        });
        ctx.save('setup_intents', intent);
        ctx.emit('setup_intent.created', intent);
        return json(200, intent);
      },
    }),
    route('GET /v1/setup_intents/:id', 'client', {
      input: z.object({ client_secret: z.string().optional() }),
      handler: (context) => json(200, ownIntent('setup_intents', 'setup_intent', context)),
    }),
    route('POST /v1/setup_intents/:id/confirm', 'client', {
      input: z.object({
        client_secret: z.string().optional(),
        payment_method: z.string().optional(),
        payment_method_data: methodData,
        return_url: z.string().optional(),
      }),
      handler: (context) => {
        const intent = ownIntent('setup_intents', 'setup_intent', context);
        if (intent.status === 'succeeded' || intent.status === 'canceled') {
          invalidRequest(
            `You cannot confirm this SetupIntent because it has a status of ${String(intent.status)}.`,
            {
              code: 'setup_intent_unexpected_state',
            },
          );
        }
        return confirmSetup(intent, context.input.payment_method, context.input.payment_method_data, false);
      },
    }),

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
        else
          return stripeError(400, {
            type: 'invalid_request_error',
            code: 'parameter_missing',
            message: 'Missing required param: product.',
            param: 'product',
          });
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
        if (!first)
          return stripeError(400, {
            type: 'invalid_request_error',
            code: 'parameter_missing',
            message: 'Missing required param: items.',
            param: 'items',
          });
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
    route('GET /v1/subscriptions/:id', 'secret', {
      input: z.object({ expand: expand.optional() }),
      handler: ({ input, param }) =>
        expanded(ctx.retrieve('subscriptions', 'subscription', param('id')), input.expand),
    }),
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

    // Invoices, charges, refunds, disputes, events
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
    route('GET /v1/invoices/:id', 'secret', {
      input: z.object({ expand: expand.optional() }),
      handler: ({ input, param }) => expanded(ctx.retrieve('invoices', 'invoice', param('id')), input.expand),
    }),
    list(
      '/v1/charges',
      'charges',
      'charge',
      { payment_intent: z.string().optional(), customer: z.string().optional() },
      (o, i) =>
        (!i.payment_intent || o.payment_intent === i.payment_intent) &&
        (!i.customer || o.customer === i.customer),
    ),
    route('GET /v1/charges/:id', 'secret', {
      input: z.object({ expand: expand.optional() }),
      handler: ({ input, param }) => expanded(ctx.retrieve('charges', 'charge', param('id')), input.expand),
    }),
    route('POST /v1/refunds', 'secret', {
      input: z.object({
        charge: z.string().optional(),
        payment_intent: z.string().optional(),
        amount: int.optional(),
        reason: refundReason.optional(),
        metadata: metadata.optional(),
        expand: expand.optional(),
      }),
      handler: ({ input }) => {
        const charge = payments.chargeOf({ charge: input.charge, paymentIntent: input.payment_intent });
        if (input.charge && input.payment_intent && charge.payment_intent !== input.payment_intent) {
          invalidRequest('The charge does not belong to this PaymentIntent.', { param: 'payment_intent' });
        }
        return expanded(payments.refund(charge, input), input.expand);
      },
    }),
    list(
      '/v1/refunds',
      'refunds',
      'refund',
      { charge: z.string().optional(), payment_intent: z.string().optional() },
      (o, i) =>
        (!i.charge || o.charge === i.charge) && (!i.payment_intent || o.payment_intent === i.payment_intent),
    ),
    route('GET /v1/refunds/:id', 'secret', {
      input: z.object({ expand: expand.optional() }),
      handler: ({ input, param }) => expanded(ctx.retrieve('refunds', 'refund', param('id')), input.expand),
    }),
    list(
      '/v1/disputes',
      'disputes',
      'dispute',
      { charge: z.string().optional(), payment_intent: z.string().optional() },
      (o, i) =>
        (!i.charge || o.charge === i.charge) && (!i.payment_intent || o.payment_intent === i.payment_intent),
    ),
    route('GET /v1/disputes/:id', 'secret', {
      input: z.object({ expand: expand.optional() }),
      handler: ({ input, param }) => expanded(ctx.retrieve('disputes', 'dispute', param('id')), input.expand),
    }),
    list(
      '/v1/events',
      'events',
      'event',
      {
        type: z.string().optional(),
        types: z.union([z.array(z.string()), z.record(z.string(), z.string())]).optional(),
      },
      (o, i) => {
        const given = i.types as string[] | Record<string, string> | undefined;
        const types = given
          ? Array.isArray(given)
            ? given
            : Object.values(given)
          : typeof i.type === 'string'
            ? [i.type]
            : [];
        // Stripe keeps events for 30 days.
        const recent = Number(o.created) >= ctx.now() - 30 * 24 * 3600;
        return recent && (types.length === 0 || types.some((type) => matchesType(String(o.type), type)));
      },
    ),
    route('GET /v1/events/:id', 'secret', {
      handler: ({ param }) => json(200, ctx.retrieve('events', 'event', param('id'))),
    }),
  ];
}

/** `charge.dispute.*` style filters, as Stripe's event list takes them. */
function matchesType(type: string, filter: string): boolean {
  if (!filter.includes('*')) return type === filter;
  const pattern = new RegExp(
    `^${filter
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^]*')}$`,
  );
  return pattern.test(type);
}

export function completeSetup(ctx: StripeContext, intent: Obj): Obj {
  const method = ctx.find('payment_methods', intent.payment_method as string);
  if (method && intent.customer && !method.customer) {
    method.customer = intent.customer;
    ctx.save('payment_methods', method);
    ctx.emit('payment_method.attached', method);
  }
  Object.assign(intent, { status: 'succeeded', next_action: null, last_setup_error: null });
  ctx.save('setup_intents', intent);
  ctx.emit('setup_intent.succeeded', intent);
  return intent;
}
