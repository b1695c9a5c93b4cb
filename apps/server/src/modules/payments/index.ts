import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '..';
import { GatewayRegistry } from './payment-gateway';
import { createPaymentsTransactor, PaymentsRepository } from './payments.repository';
import { sandboxPaymentRoutes } from './payments.routes';
import { PaymentsService } from './payments.service';
import { SandboxGateway } from './sandbox.gateway';
import { subscriptionRoutes } from './subscriptions.routes';

/**
 * Wires payments: the configured gateways (only the demo `sandbox` today), repository -> service -> routes under
 * /payments and /subscriptions. The sandbox routes exist even when it is disabled, answering 503.
 */
export async function registerPayments(
  api: FastifyInstance,
  { config, database, services }: ModuleContext,
): Promise<void> {
  const db = database.db;
  const sandbox = config.payments.sandbox ? new SandboxGateway() : null;
  const payments = new PaymentsService({
    repo: new PaymentsRepository(db),
    transaction: createPaymentsTransactor(db),
    gateways: new GatewayRegistry(sandbox ? [sandbox] : []),
    sandbox,
    invalidateUser: (userId) => services.catalogCache.invalidateUser(userId),
  });
  await api.register(sandboxPaymentRoutes, { payments });
  await api.register(subscriptionRoutes, { payments });
}
