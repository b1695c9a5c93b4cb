import { z } from 'zod';
import { json, route, type RouteSpec } from '../core/router';
import type { Obj } from '../core/store';
import type { StripeContext } from './context';
import { expand, int, invalidRequest, metadata } from './dialect';
import type { StripePayments } from './payments';
import type { RouteKit } from './route-kit';

const refundReason = z.enum(['duplicate', 'fraudulent', 'requested_by_customer']);

/** Refunds and disputes are listed by their charge or PaymentIntent. */
const byCharge = { charge: z.string().optional(), payment_intent: z.string().optional() };
const ofCharge = (o: Obj, i: Record<string, unknown>) =>
  (!i.charge || o.charge === i.charge) && (!i.payment_intent || o.payment_intent === i.payment_intent);

/** What reconciliation reads and refunds: charges, refunds, disputes and events, with their lists. */
export function ledgerRoutes(
  ctx: StripeContext,
  payments: StripePayments,
  { expanded, list, retrieve }: RouteKit,
): Array<RouteSpec<unknown, unknown>> {
  return [
    // Invoices, charges, refunds, disputes, events
    list(
      '/v1/charges',
      'charges',
      'charge',
      { payment_intent: z.string().optional(), customer: z.string().optional() },
      (o, i) =>
        (!i.payment_intent || o.payment_intent === i.payment_intent) &&
        (!i.customer || o.customer === i.customer),
    ),
    retrieve('charges', 'charge'),
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
    list('/v1/refunds', 'refunds', 'refund', byCharge, ofCharge),
    retrieve('refunds', 'refund'),
    list('/v1/disputes', 'disputes', 'dispute', byCharge, ofCharge),
    retrieve('disputes', 'dispute'),
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
