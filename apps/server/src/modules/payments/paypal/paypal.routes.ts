import type { FastifyPluginAsync } from 'fastify';
import {
  ErrorResponse,
  PaymentResultResponse,
  PaypalCaptureBody,
  PaypalCaptureResponse,
  PaypalConfirmSubscriptionBody,
  PaypalCreateOrderBody,
  PaypalCreateOrderResponse,
} from '@backbeat/contract';
import type { CheckoutLimit } from '../checkout-limit';
import { checkoutRoute, GATEWAY_ERRORS, parseEvent, registerGatewayRoutes } from '../gateway-routes';
import type { PaypalGateway } from './paypal.gateway';
import type { PaypalEvent, PaypalService } from './paypal.service';

/** PayPal's routes, in the order they are registered (index.ts answers 503 on them when it is not configured). */
export const PAYPAL_PATHS = {
  createOrder: '/payments/paypal/create-order',
  captureOrder: '/payments/paypal/capture-order',
  confirmSubscription: '/payments/paypal/confirm-subscription',
  webhook: '/payments/paypal/webhook',
} as const;

/** PayPal: orders for the PayPal buttons, their capture, subscription approval, and the webhook. */
export const paypalRoutes: FastifyPluginAsync<{
  paypal: PaypalService;
  gateway: PaypalGateway;
  limit: CheckoutLimit;
}> = async (app, { paypal, gateway, limit }) =>
  registerGatewayRoutes(app, {
    limit,
    routes: [
      checkoutRoute({
        path: PAYPAL_PATHS.createOrder,
        summary: "A PayPal order for a song or album at the server's price (currency defaults to USD)",
        body: PaypalCreateOrderBody,
        response: { 200: PaypalCreateOrderResponse, ...GATEWAY_ERRORS },
        limited: true,
        handle: (buyer, body) => paypal.createOrder(buyer, body),
      }),
      checkoutRoute({
        path: PAYPAL_PATHS.captureOrder,
        summary: 'Capture the approved PayPal order; settled only when the captured amount equals the order',
        body: PaypalCaptureBody,
        response: { 200: PaypalCaptureResponse, ...GATEWAY_ERRORS, 402: ErrorResponse },
        handle: (buyer, body) => paypal.captureOrder(buyer, body.orderId),
      }),
      checkoutRoute({
        path: PAYPAL_PATHS.confirmSubscription,
        summary:
          'After the buyer approved a PayPal subscription: read its first payment from PayPal and start it',
        body: PaypalConfirmSubscriptionBody,
        response: { 200: PaymentResultResponse, ...GATEWAY_ERRORS },
        handle: (buyer, body) => paypal.confirmSubscription(buyer, body.subscriptionId),
      }),
    ],
    webhook: {
      path: PAYPAL_PATHS.webhook,
      summary: "PayPal events, verified through PayPal's verify-webhook-signature call, applied once",
      handle: async (raw, header) => {
        const event = parseEvent<PaypalEvent>(
          raw,
          (event) =>
            typeof event?.id === 'string' && typeof event.event_type === 'string' && !!event.resource,
          'The event has no id, type or resource',
        );
        await gateway.verifyEvent(
          {
            authAlgo: header('paypal-auth-algo'),
            certUrl: header('paypal-cert-url'),
            transmissionId: header('paypal-transmission-id'),
            transmissionSig: header('paypal-transmission-sig'),
            transmissionTime: header('paypal-transmission-time'),
          },
          event,
        );
        await paypal.handleEvent(event);
      },
    },
  });
