import type { FastifyPluginAsync } from 'fastify';
import {
  CreatePurchaseBody,
  PaymentResultResponse,
  RazorpayCreateOrderResponse,
  RazorpayVerifyBody,
} from '@backbeat/contract';
import { AppError } from '../../../platform/errors';
import type { CheckoutLimit } from '../checkout-limit';
import {
  checkoutRoute,
  firstHeader,
  GATEWAY_ERRORS,
  parseEvent,
  registerGatewayRoutes,
} from '../gateway-routes';
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
      handle: async (raw, headers) => {
        gateway.verifyWebhook(raw, firstHeader(headers['x-razorpay-signature']));
        const parsed = parseEvent<{ event?: unknown; payload?: unknown }>(raw);
        if (typeof parsed.event !== 'string' || typeof parsed.payload !== 'object' || !parsed.payload) {
          throw new AppError(400, 'BAD_REQUEST', 'The event has no type or payload');
        }
        await razorpay.handleEvent({
          id: RazorpayService.eventId(firstHeader(headers['x-razorpay-event-id']), raw),
          event: parsed.event,
          payload: parsed.payload as RazorpayEvent['payload'],
        });
      },
    },
  });
