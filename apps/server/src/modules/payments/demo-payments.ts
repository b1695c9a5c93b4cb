import type { AppDb } from '../../db/client';
import type { EntitlementEvents } from '../access';
import { GatewayRegistry } from './payment-gateway';
import { PaymentLedger } from './payment-ledger';
import { createPaymentsTransactor, PaymentsRepository } from './payments.repository';
import { PaymentsService } from './payments.service';
import { SandboxGateway } from './sandbox.gateway';

/**
 * The payment path the app uses, over the demo gateway only, for writing the demo's past sales (demo/demo-sales.ts):
 * on the caller's clock, with no jobs queued and no receipts mailed.
 */
export function createDemoPayments(input: {
  db: AppDb;
  entitlements: EntitlementEvents;
  currency: string;
  clock: () => Date;
}): { payments: PaymentsService; ledger: PaymentLedger } {
  const repo = new PaymentsRepository(input.db);
  const sandbox = new SandboxGateway();
  const ledger = new PaymentLedger({
    transaction: createPaymentsTransactor(input.db),
    repo,
    entitlements: input.entitlements,
    jobs: { notify: async () => undefined },
    clock: input.clock,
    receipts: false,
  });
  const payments = new PaymentsService({
    repo,
    ledger,
    gateways: new GatewayRegistry([sandbox]),
    sandbox,
    currency: input.currency,
    ordersPerHour: 1000,
  });
  return { payments, ledger };
}
