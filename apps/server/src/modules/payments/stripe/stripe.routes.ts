import type { FastifyPluginAsync } from 'fastify';
import {
  CreatePurchaseBody,
  ErrorResponse,
  SetupIntentResponse,
  StripeCreatePaymentResponse,
} from '@backbeat/contract';
import type { CheckoutLimit } from '../checkout-limit';
import { checkoutRoute, GATEWAY_ERRORS, registerGatewayRoutes } from '../gateway-routes';
import type { StripeGateway } from './stripe.gateway';
import type { StripeService } from './stripe.service';

/** Stripe's routes, in the order they are registered (index.ts answers 503 on them when Stripe is not configured). */
export const STRIPE_PATHS = {
  createPayment: '/payments/stripe/create-payment',
  setupIntent: '/subscriptions/setup-intent',
  webhook: '/payments/stripe/webhook',
} as const;

/** Stripe: PaymentIntents for purchases, a SetupIntent for subscriptions, and the webhook. */
export const stripeRoutes: FastifyPluginAsync<{
  stripe: StripeService;
  gateway: StripeGateway;
  limit: CheckoutLimit;
}> = async (app, { stripe, gateway, limit }) =>
  registerGatewayRoutes(app, {
    limit,
    routes: [
      checkoutRoute({
        path: STRIPE_PATHS.createPayment,
        summary: "A PaymentIntent for a song or album at the server's price; answers its client secret",
        body: CreatePurchaseBody,
        response: { 200: StripeCreatePaymentResponse, ...GATEWAY_ERRORS },
        limited: true,
        handle: (buyer, body) => stripe.createPayment(buyer, body),
      }),
      checkoutRoute({
        path: STRIPE_PATHS.setupIntent,
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
        limited: true,
        handle: (buyer) => stripe.setupIntent(buyer),
      }),
    ],
    webhook: {
      path: STRIPE_PATHS.webhook,
      summary: 'Stripe events, verified with the Stripe-Signature header on the raw body, applied once',
      // The signature covers the exact bytes Stripe sent: the scaffold keeps the raw body.
      handle: (raw, header) => stripe.handleEvent(gateway.verifyEvent(raw, header('stripe-signature'))),
    },
  });
