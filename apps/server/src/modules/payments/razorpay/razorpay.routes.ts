import type { FastifyPluginAsync } from 'fastify';
import {
  CreatePurchaseBody,
  PaymentResultResponse,
  RazorpayCreateOrderResponse,
  RazorpayVerifyBody,
} from '@backbeat/contract';
import type { CheckoutLimit } from '../checkout-limit';
import { checkoutRoute, GATEWAY_ERRORS, parseEvent, registerGatewayRoutes } from '../gateway-routes';
import type { RazorpayGateway } from './razorpay.gateway';
import { RazorpayService, type RazorpayEvent } from './razorpay.service';

/** Razorpay's routes, in the order they are registered (index.ts answers 503 on them when it is not configured). */
export const RAZORPAY_PATHS = {
  createOrder: '/payments/razorpay/create-order',
  verify: '/payments/razorpay/verify',
  webhook: '/payments/razorpay/webhook',
} as const;

/** Razorpay: orders for Checkout, Checkout's verified result, and the webhook. */
export const razorpayRoutes: FastifyPluginAsync<{
  razorpay: RazorpayService;
  gateway: RazorpayGateway;
  limit: CheckoutLimit;
}> = async (app, { razorpay, gateway, limit }) =>
  registerGatewayRoutes(app, {
    limit,
    routes: [
      checkoutRoute({
        path: RAZORPAY_PATHS.createOrder,
        summary: "A Razorpay order for a song or album at the server's price, for Razorpay Checkout",
        body: CreatePurchaseBody,
        response: { 200: RazorpayCreateOrderResponse, ...GATEWAY_ERRORS },
        limited: true,
        handle: (buyer, body) => razorpay.createOrder(buyer, body),
      }),
      checkoutRoute({
        path: RAZORPAY_PATHS.verify,
        summary:
          "Razorpay Checkout's result (order or subscription): signature checked, payment fetched, settled",
        body: RazorpayVerifyBody,
        response: { 200: PaymentResultResponse, ...GATEWAY_ERRORS },
        handle: (buyer, body) => razorpay.verify(buyer, body),
      }),
    ],
    webhook: {
      path: RAZORPAY_PATHS.webhook,
      summary: 'Razorpay events, verified with X-Razorpay-Signature on the raw body, applied once',
      handle: async (raw, header) => {
        gateway.verifyWebhook(raw, header('x-razorpay-signature'));
        const parsed = parseEvent<Omit<RazorpayEvent, 'id'>>(
          raw,
          (event) => typeof event?.event === 'string' && typeof event.payload === 'object' && !!event.payload,
          'The event has no type or payload',
        );
        await razorpay.handleEvent({
          id: RazorpayService.eventId(header('x-razorpay-event-id'), raw),
          event: parsed.event,
          payload: parsed.payload,
        });
      },
    },
  });
