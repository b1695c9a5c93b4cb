import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ErrorResponse,
  MessageResponse,
  SubscribeArtistBody,
  SubscribeArtistResponse,
  SubscriptionArtistParams,
  type PaymentGateway as GatewayName,
} from '@backbeat/contract';
import { requireUser } from '../../platform/auth';
import type { CheckoutLimit } from './checkout-limit';
import type { SubscriptionStarter } from './gateway-checkout';
import { gatewayUnavailable } from './payment-gateway';
import { parseCycle, type PaymentsService } from './payments.service';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };
const tags = ['subscriptions'];

/** Subscribing to an artist through any configured gateway, and cancelling at the end of the paid period. */
export const subscriptionRoutes: FastifyPluginAsyncZod<{
  payments: PaymentsService;
  starters: Map<GatewayName, SubscriptionStarter>;
  limit: CheckoutLimit;
}> = async (app, { payments, starters, limit }) => {
  app.post(
    '/subscriptions/artist/:id',
    {
      preHandler: limit,
      schema: {
        tags,
        summary:
          'Subscribe to the artist for a cycle (1m, 3m, 6m, 12m) through a gateway; answers what its checkout needs',
        params: SubscriptionArtistParams,
        body: SubscribeArtistBody,
        response: {
          201: SubscribeArtistResponse,
          ...errors,
          409: ErrorResponse,
          429: ErrorResponse,
          502: ErrorResponse,
          503: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const cycle = parseCycle(request.body.cycle);
      // SPEC: Razorpay's body is `{ cycle }` alone; Stripe's names its gateway and saved card.
      const gateway = request.body.gateway ?? (request.body.paymentMethodId ? 'stripe' : 'razorpay');
      const start = starters.get(gateway);
      if (!start) throw gatewayUnavailable(gateway);
      const created = await start(user, request.params.id, cycle, request.body);
      return reply.status(201).send(created);
    },
  );

  app.delete(
    '/subscriptions/artist/:id',
    {
      schema: {
        tags,
        summary:
          'Cancel the subscription (at the gateway too); it plays until the end of the period paid for',
        params: SubscriptionArtistParams,
        response: { 200: MessageResponse, ...errors, 502: ErrorResponse },
      },
    },
    async (request) => payments.cancelSubscription(await requireUser(request), request.params.id),
  );
};
