import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ConfirmSandboxOrderBody,
  ConfirmSandboxOrderResponse,
  CreateSandboxOrderBody,
  CreateSandboxOrderResponse,
  ErrorResponse,
  OrderParams,
  OrderResponse,
} from '@backbeat/contract';
import { requireUser } from '../../platform/auth';
import type { PaymentsService } from './payments.service';

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  503: ErrorResponse,
};
const writeErrors = { ...errors, 409: ErrorResponse };
const tags = ['payments'];

/** The demo gateway's calls; with the sandbox disabled by config each answers 503 GATEWAY_UNAVAILABLE. */
export const sandboxPaymentRoutes: FastifyPluginAsyncZod<{ payments: PaymentsService }> = async (
  app,
  { payments },
) => {
  app.post(
    '/payments/sandbox/create-order',
    {
      schema: {
        tags,
        summary: 'Order a song or album at the catalogue price; answers the demo checkout address',
        body: CreateSandboxOrderBody,
        response: { 201: CreateSandboxOrderResponse, ...writeErrors },
      },
    },
    async (request, reply) => {
      const created = await payments.createPurchaseOrder(await requireUser(request), 'sandbox', request.body);
      return reply.status(201).send(created);
    },
  );

  app.get(
    '/payments/sandbox/orders/:id',
    {
      schema: {
        tags,
        summary: "One of the signed-in user's sandbox orders",
        params: OrderParams,
        response: { 200: OrderResponse, ...errors },
      },
    },
    async (request) => payments.getOrder(await requireUser(request), 'sandbox', request.params.id),
  );

  app.post(
    '/payments/sandbox/orders/:id/confirm',
    {
      schema: {
        tags,
        summary: 'Pay or decline a sandbox order (idempotent); paying grants the item at once',
        params: OrderParams,
        body: ConfirmSandboxOrderBody,
        response: { 200: ConfirmSandboxOrderResponse, ...writeErrors },
      },
    },
    async (request) =>
      payments.confirmSandbox(await requireUser(request), request.params.id, request.body.outcome),
  );
};
