import type { FastifyPluginAsync } from 'fastify';
import { ErrorResponse, type PaymentGateway as GatewayName } from '@backbeat/contract';
import { gatewayUnavailable } from './payment-gateway';

/**
 * A gateway that is not configured still answers its SPEC calls, with 503 GATEWAY_UNAVAILABLE (not 404), so a client
 * can tell "this shop does not take PayPal" from a wrong address.
 */
export const unavailableRoutes: FastifyPluginAsync<{ gateway: GatewayName; routes: string[] }> = async (
  app,
  { gateway, routes },
) => {
  for (const url of routes) {
    app.post(
      url,
      {
        schema: {
          tags: ['payments'],
          summary: `Answers 503 while ${gateway} is not configured`,
          response: { 400: ErrorResponse, 413: ErrorResponse, 415: ErrorResponse, 503: ErrorResponse },
        },
      },
      async () => {
        throw gatewayUnavailable(gateway);
      },
    );
  }
};
