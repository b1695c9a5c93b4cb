import { z } from 'zod';
import { json, route, type EmulatorResponse, type RouteContext, type RouteSpec } from '../core/router';
import type { Obj } from '../core/store';
import type { StripeBilling } from './billing';
import { billingRoutes } from './billing-routes';
import type { StripeContext } from './context';
import {
  bool,
  currency,
  expand,
  int,
  invalidRequest,
  metadata,
  missingParam,
  refuse,
  stripeError,
} from './dialect';
import { ledgerRoutes } from './ledger-routes';
import { customerObject, setupIntentObject } from './objects';
import type { StripePayments } from './payments';
import { routeKit } from './route-kit';

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
const cancellationReason = z.enum(['duplicate', 'fraudulent', 'requested_by_customer', 'abandoned']);

/**
 * Stripe's REST routes as stripe-node and Stripe.js call them for Backbeat: each a row with its auth scheme
 * (`secret`, or `client` where Stripe.js may call with the publishable key and the object's client secret), its
 * parameters as Stripe validates them and a handler. Payments here; billing-routes.ts and ledger-routes.ts hold
 * the rest of the table.
 */
export function stripeRoutes(
  ctx: StripeContext,
  payments: StripePayments,
  billingPart: StripeBilling,
): Array<RouteSpec<unknown, unknown>> {
  const kit = routeKit(ctx);
  const { expanded, customer, list } = kit;
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
  const confirmSetup = (
    intent: Obj,
    pm: string | undefined,
    data: z.infer<typeof methodData>,
    authenticated: boolean,
  ): EmulatorResponse => {
    const methodId =
      pm ?? (data?.card ? payments.createPaymentMethod(data.card, data.billing_details).id : undefined);
    if (!methodId) missingParam('payment_method');
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

    ...billingRoutes(ctx, billingPart, kit),
    ...ledgerRoutes(ctx, payments, kit),
  ];
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
