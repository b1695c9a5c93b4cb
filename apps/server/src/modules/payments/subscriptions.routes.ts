import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CreateSandboxOrderResponse,
  ErrorResponse,
  MessageResponse,
  SubscribeArtistBody,
  SubscriptionArtistParams,
} from '@backbeat/contract';
import { requireUser } from '../../platform/auth';
import type { PaymentsService } from './payments.service';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };
const tags = ['subscriptions'];

/** Subscribing to an artist (an order paid like a purchase) and cancelling at the end of the paid period. */
export const subscriptionRoutes: FastifyPluginAsyncZod<{ payments: PaymentsService }> = async (
  app,
  { payments },
) => {
  app.post(
    '/subscriptions/artist/:id',
    {
      schema: {
        tags,
        summary: 'Order one cycle of a subscription to the artist; answers the checkout address',
        params: SubscriptionArtistParams,
        body: SubscribeArtistBody,
        response: { 201: CreateSandboxOrderResponse, ...errors, 409: ErrorResponse, 503: ErrorResponse },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const created = await payments.createSubscriptionOrder(user, request.params.id, request.body);
      return reply.status(201).send(created);
    },
  );

  app.delete(
    '/subscriptions/artist/:id',
    {
      schema: {
        tags,
        summary: 'Cancel the subscription; it plays until the end of the period paid for',
        params: SubscriptionArtistParams,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request) => payments.cancelSubscription(await requireUser(request), request.params.id),
  );
};
