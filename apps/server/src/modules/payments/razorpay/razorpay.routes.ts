import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CreatePurchaseBody,
  ErrorResponse,
  PaymentResultResponse,
  RazorpayCreateOrderResponse,
  RazorpayVerifyBody,
  WebhookResponse,
} from '@backbeat/contract';
import { requireUser } from '../../../platform/auth';
import { AppError } from '../../../platform/errors';
import type { CheckoutLimit } from '../checkout-limit';
import { rawBodyParser, WEBHOOK_BODY } from '../webhook-body';
import type { RazorpayGateway } from './razorpay.gateway';
import { RazorpayService, type RazorpayEvent } from './razorpay.service';

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

/** Razorpay: orders for Checkout, Checkout's verified result, and the webhook. */
export const razorpayRoutes: FastifyPluginAsyncZod<{
  razorpay: RazorpayService;
  gateway: RazorpayGateway;
  limit: CheckoutLimit;
}> = async (app, { razorpay, gateway, limit }) => {
  app.post(
    '/payments/razorpay/create-order',
    {
      preHandler: limit,
      schema: {
        tags,
        summary: "A Razorpay order for a song or album at the server's price, for Razorpay Checkout",
        body: CreatePurchaseBody,
        response: { 200: RazorpayCreateOrderResponse, ...errors },
      },
    },
    async (request) => razorpay.createOrder(await requireUser(request), request.body),
  );

  app.post(
    '/payments/razorpay/verify',
    {
      schema: {
        tags,
        summary:
          "Razorpay Checkout's result (order or subscription): signature checked, payment fetched, settled",
        body: RazorpayVerifyBody,
        response: { 200: PaymentResultResponse, ...errors },
      },
    },
    async (request) => razorpay.verify(await requireUser(request), request.body),
  );

  await app.register(async (webhook) => {
    webhook.removeAllContentTypeParsers();
    webhook.addContentTypeParser('*', WEBHOOK_BODY, rawBodyParser);
    webhook.post(
      '/payments/razorpay/webhook',
      {
        schema: {
          tags,
          summary: 'Razorpay events, verified with X-Razorpay-Signature on the raw body, applied once',
          response: { 200: WebhookResponse, 400: ErrorResponse, 413: ErrorResponse, 502: ErrorResponse },
        },
      },
      async (request) => {
        const raw = request.body as Buffer;
        gateway.verifyWebhook(raw, header(request.headers['x-razorpay-signature']));
        let parsed: { event?: unknown; payload?: unknown };
        try {
          parsed = JSON.parse(raw.toString('utf8')) as typeof parsed;
        } catch {
          throw new AppError(400, 'BAD_REQUEST', 'The event is not JSON');
        }
        if (typeof parsed.event !== 'string' || typeof parsed.payload !== 'object' || !parsed.payload) {
          throw new AppError(400, 'BAD_REQUEST', 'The event has no type or payload');
        }
        const event: RazorpayEvent = {
          id: RazorpayService.eventId(header(request.headers['x-razorpay-event-id']), raw),
          event: parsed.event,
          payload: parsed.payload as RazorpayEvent['payload'],
        };
        await razorpay.handleEvent(event);
        return { received: true };
      },
    );
  });
};
