import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ConfirmSandboxOrderBody,
  ConfirmSandboxOrderResponse,
  CreateSandboxOrderBody,
  CreateSandboxOrderResponse,
  ErrorResponse,
  GatewaysResponse,
  OrderParams,
  OrderResponse,
  PaymentHistoryResponse,
  PaymentResultResponse,
  RefundOrderBody,
} from '@backbeat/contract';
import { requireRole, requireUser } from '../../platform/auth';
import type { CheckoutLimit } from './checkout-limit';
import type { PaymentsService } from './payments.service';

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  503: ErrorResponse,
};
const writeErrors = { ...errors, 409: ErrorResponse, 429: ErrorResponse };
const tags = ['payments'];

/** What every gateway shares: the gateways list, the buyer's orders and history, admin refunds. */
export const paymentRoutes: FastifyPluginAsyncZod<{ payments: PaymentsService }> = async (
  app,
  { payments },
) => {
  app.get(
    '/payments/gateways',
    {
      schema: {
        tags,
        summary: 'The configured payment gateways and their publishable keys; the web app offers only these',
        response: { 200: GatewaysResponse },
      },
    },
    async () => payments.gatewaysInfo(),
  );

  app.get(
    '/payments/history',
    {
      schema: {
        tags,
        summary: "The signed-in user's orders, renewals and refunds, newest first",
        response: { 200: PaymentHistoryResponse, 401: ErrorResponse },
      },
    },
    async (request) => payments.history(await requireUser(request)),
  );

  app.get(
    '/payments/orders/:id',
    {
      schema: {
        tags,
        summary: "One of the signed-in user's orders, any gateway (e.g. to wait for a webhook to settle it)",
        params: OrderParams,
        response: { 200: OrderResponse, 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request) => payments.getOrder(await requireUser(request), request.params.id),
  );

  app.post(
    '/admin/orders/:id/refund',
    {
      schema: {
        tags,
        summary: 'Refund a paid order through its gateway (admin); what it granted is revoked',
        params: OrderParams,
        body: RefundOrderBody,
        response: {
          200: PaymentResultResponse,
          ...errors,
          409: ErrorResponse,
          502: ErrorResponse,
        },
      },
    },
    async (request) => {
      await requireRole(request, 'admin');
      return payments.refundOrder(request.params.id, request.body.reason ?? null);
    },
  );
};

/** The demo gateway's calls; with the sandbox disabled by config each answers 503 GATEWAY_UNAVAILABLE. */
export const sandboxPaymentRoutes: FastifyPluginAsyncZod<{
  payments: PaymentsService;
  limit: CheckoutLimit;
}> = async (app, { payments, limit }) => {
  app.post(
    '/payments/sandbox/create-order',
    {
      preHandler: limit,
      schema: {
        tags,
        summary: 'Order a song or album at the catalogue price; answers the demo checkout address',
        body: CreateSandboxOrderBody,
        response: { 201: CreateSandboxOrderResponse, ...writeErrors },
      },
    },
    async (request, reply) => {
      const created = await payments.createSandboxPurchase(await requireUser(request), request.body);
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
    async (request) => payments.getOrder(await requireUser(request), request.params.id, 'sandbox'),
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
