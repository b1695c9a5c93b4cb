import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ErrorResponse,
  PaymentResultResponse,
  PaypalCaptureBody,
  PaypalCaptureResponse,
  PaypalConfirmSubscriptionBody,
  PaypalCreateOrderBody,
  PaypalCreateOrderResponse,
  WebhookResponse,
} from '@backbeat/contract';
import { requireUser } from '../../../platform/auth';
import { AppError } from '../../../platform/errors';
import type { CheckoutLimit } from '../checkout-limit';
import { rawBodyParser, WEBHOOK_BODY } from '../webhook-body';
import type { PaypalGateway } from './paypal.gateway';
import type { PaypalEvent, PaypalService } from './paypal.service';

const tags = ['payments'];
const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
  429: ErrorResponse,
  502: ErrorResponse,
  503: ErrorResponse,
};
const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** PayPal: orders for the PayPal buttons, their capture, subscription approval, and the webhook. */
export const paypalRoutes: FastifyPluginAsyncZod<{
  paypal: PaypalService;
  gateway: PaypalGateway;
  limit: CheckoutLimit;
}> = async (app, { paypal, gateway, limit }) => {
  app.post(
    '/payments/paypal/create-order',
    {
      preHandler: limit,
      schema: {
        tags,
        summary: "A PayPal order for a song or album at the server's price (currency defaults to USD)",
        body: PaypalCreateOrderBody,
        response: { 200: PaypalCreateOrderResponse, ...errors },
      },
    },
    async (request) => paypal.createOrder(await requireUser(request), request.body),
  );

  app.post(
    '/payments/paypal/capture-order',
    {
      schema: {
        tags,
        summary: 'Capture the approved PayPal order; settled only when the captured amount equals the order',
        body: PaypalCaptureBody,
        response: { 200: PaypalCaptureResponse, ...errors, 402: ErrorResponse },
      },
    },
    async (request) => paypal.captureOrder(await requireUser(request), request.body.orderId),
  );

  app.post(
    '/payments/paypal/confirm-subscription',
    {
      schema: {
        tags,
        summary:
          'After the buyer approved a PayPal subscription: read its first payment from PayPal and start it',
        body: PaypalConfirmSubscriptionBody,
        response: { 200: PaymentResultResponse, ...errors },
      },
    },
    async (request) => paypal.confirmSubscription(await requireUser(request), request.body.subscriptionId),
  );

  await app.register(async (webhook) => {
    webhook.removeAllContentTypeParsers();
    webhook.addContentTypeParser('*', WEBHOOK_BODY, rawBodyParser);
    webhook.post(
      '/payments/paypal/webhook',
      {
        schema: {
          tags,
          summary: "PayPal events, verified through PayPal's verify-webhook-signature call, applied once",
          response: { 200: WebhookResponse, 400: ErrorResponse, 413: ErrorResponse, 502: ErrorResponse },
        },
      },
      async (request) => {
        let event: PaypalEvent;
        try {
          event = JSON.parse((request.body as Buffer).toString('utf8')) as PaypalEvent;
        } catch {
          throw new AppError(400, 'BAD_REQUEST', 'The event is not JSON');
        }
        if (
          !event ||
          typeof event.id !== 'string' ||
          typeof event.event_type !== 'string' ||
          !event.resource
        ) {
          throw new AppError(400, 'BAD_REQUEST', 'The event has no id, type or resource');
        }
        await gateway.verifyEvent(
          {
            authAlgo: header(request.headers['paypal-auth-algo']),
            certUrl: header(request.headers['paypal-cert-url']),
            transmissionId: header(request.headers['paypal-transmission-id']),
            transmissionSig: header(request.headers['paypal-transmission-sig']),
            transmissionTime: header(request.headers['paypal-transmission-time']),
          },
          event,
        );
        await paypal.handleEvent(event);
        return { received: true };
      },
    );
  });
};
