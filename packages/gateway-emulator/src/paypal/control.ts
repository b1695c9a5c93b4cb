import { z } from 'zod';
import { json, route, type RouteSpec } from '../core/router';
import { paypalId } from './context';
import { notFound } from './dialect';
import type { PaypalEmulator } from './paypal';
import { money } from './routes';

const outcome = z.object({ outcome: z.enum(['paid', 'failed']).optional() });

/** PayPal's `/_emulator/*` routes: billing, approvals, refunds and disputes from PayPal's side. */
export function paypalControl(pp: PaypalEmulator): Array<RouteSpec<unknown, unknown>> {
  const { ctx } = pp;
  return [
    route('POST /_emulator/subscriptions/:id/bill', 'none', {
      input: outcome,
      handler: ({ input, param }) => {
        pp.billing.bill(ctx.get('subscriptions', param('id')), input.outcome);
        return json(200, { ok: true });
      },
    }),
    route('POST /_emulator/subscriptions/:id/cancel', 'none', {
      handler: ({ param }) => {
        pp.billing.cancel(param('id'));
        return json(200, { ok: true });
      },
    }),
    route('POST /_emulator/orders/:id/approve', 'none', {
      input: z.object({
        buyer: z.enum(['pays', 'declined']).optional(),
        capture_amount: z.string().optional(),
      }),
      handler: ({ input, param }) => {
        const order = pp.orders.approve(param('id'), input.buyer ?? 'pays', input.capture_amount);
        return json(200, { orderID: order.id, payerID: (order.payer as { payer_id: string }).payer_id });
      },
    }),
    route('POST /_emulator/captures/:id/refund', 'none', {
      input: z.object({ amount: money.optional() }),
      handler: ({ input, param }) => json(201, pp.orders.refund(param('id'), { amount: input.amount })),
    }),
    route('POST /_emulator/sales/:id/refund', 'none', {
      input: z.object({ total: z.string().optional() }),
      handler: ({ input, param }) => json(201, pp.sales.refundSale(param('id'), { total: input.total })),
    }),
    route('POST /_emulator/transactions/:id/dispute', 'none', {
      handler: ({ param }) => json(200, pp.disputes.open(param('id'))),
    }),
    route('POST /_emulator/disputes/:id/resolve', 'none', {
      input: z.object({ outcome: z.enum(['buyer', 'seller']) }),
      handler: ({ input, param }) => json(200, pp.disputes.resolve(param('id'), input.outcome)),
    }),
    route('POST /_emulator/approve/:kind/:id', 'none', {
      input: z.object({ buyer: z.enum(['pays', 'declined']).optional() }),
      handler: ({ input, param }) => {
        const buyer = input.buyer ?? 'pays';
        if (param('kind') === 'order') {
          const order = pp.orders.approve(param('id'), buyer);
          return json(200, { orderID: order.id, payerID: (order.payer as { payer_id: string }).payer_id });
        }
        if (param('kind') !== 'subscription') notFound();
        pp.billing.approve(param('id'), buyer);
        return json(200, { subscriptionID: param('id'), orderID: `BA-${paypalId(17)}` });
      },
    }),
  ];
}
