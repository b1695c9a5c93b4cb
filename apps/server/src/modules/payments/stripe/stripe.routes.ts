import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CreatePurchaseBody,
  ErrorResponse,
  SetupIntentResponse,
  StripeCreatePaymentResponse,
  WebhookResponse,
} from '@backbeat/contract';
import { requireUser } from '../../../platform/auth';
import type { CheckoutLimit } from '../checkout-limit';
import { rawBodyParser, WEBHOOK_BODY } from '../webhook-body';
import type { StripeGateway } from './stripe.gateway';
import type { StripeService } from './stripe.service';

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

/** Stripe: PaymentIntents for purchases, a SetupIntent for subscriptions, and the webhook. */
export const stripeRoutes: FastifyPluginAsyncZod<{
  stripe: StripeService;
  gateway: StripeGateway;
  limit: CheckoutLimit;
}> = async (app, { stripe, gateway, limit }) => {
  app.post(
    '/payments/stripe/create-payment',
    {
      preHandler: limit,
      schema: {
        tags,
        summary: "A PaymentIntent for a song or album at the server's price; answers its client secret",
        body: CreatePurchaseBody,
        response: { 200: StripeCreatePaymentResponse, ...errors },
      },
    },
    async (request) => stripe.createPayment(await requireUser(request), request.body),
  );

  app.post(
    '/subscriptions/setup-intent',
    {
      preHandler: limit,
      schema: {
        tags: ['subscriptions'],
        summary:
          'A Stripe SetupIntent to save the card a subscription will charge; answers its client secret',
        response: {
          200: SetupIntentResponse,
          401: ErrorResponse,
          429: ErrorResponse,
          502: ErrorResponse,
          503: ErrorResponse,
        },
      },
    },
    async (request) => stripe.setupIntent(await requireUser(request)),
  );

  await app.register(async (webhook) => {
    // The signature covers the exact bytes Stripe sent: keep the raw body.
    webhook.removeAllContentTypeParsers();
    webhook.addContentTypeParser('*', WEBHOOK_BODY, rawBodyParser);
    webhook.post(
      '/payments/stripe/webhook',
      {
        schema: {
          tags,
          summary: 'Stripe events, verified with the Stripe-Signature header on the raw body, applied once',
          response: { 200: WebhookResponse, 400: ErrorResponse, 413: ErrorResponse, 502: ErrorResponse },
        },
      },
      async (request) => {
        const signature = request.headers['stripe-signature'];
        const event = gateway.verifyEvent(
          request.body as Buffer,
          Array.isArray(signature) ? signature[0] : signature,
        );
        await stripe.handleEvent(event);
        return { received: true };
      },
    );
  });
};
