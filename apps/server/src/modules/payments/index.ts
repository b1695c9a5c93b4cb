import type { FastifyInstance } from 'fastify';
import type { PaymentGateway as GatewayName } from '@backbeat/contract';
import type { ModuleContext } from '..';
import { RateLimitRepository, RateLimitService } from '../auth';
import { adminPaymentRoutes } from './admin-payments.routes';
import { checkoutLimit } from './checkout-limit';
import { PaymentAccountData, paymentAccountErasure } from './account-erasure';
import type { SubscriptionStarter } from './gateway-checkout';
import { GatewayRegistry, type PaymentGateway } from './payment-gateway';
import {
  autoRefundHandler,
  cancelCheckoutHandler,
  cancelSubscriptionHandler,
  EXPIRE_EVERY_MS,
  expireOrdersHandler,
  PAYMENT_JOBS,
  type PaymentJobDeps,
} from './payment-jobs';
import { PaymentLedger } from './payment-ledger';
import { createPaymentsTransactor, PaymentsRepository } from './payments.repository';
import { paymentRoutes, sandboxPaymentRoutes } from './payments.routes';
import { PaymentsService } from './payments.service';
import { PaypalGateway } from './paypal/paypal.gateway';
import { paypalReconciliation } from './paypal/paypal.reconcile';
import { PAYPAL_PATHS, paypalRoutes } from './paypal/paypal.routes';
import { PaypalService } from './paypal/paypal.service';
import { RazorpayGateway } from './razorpay/razorpay.gateway';
import { razorpayReconciliation } from './razorpay/razorpay.reconcile';
import { RAZORPAY_PATHS, razorpayRoutes } from './razorpay/razorpay.routes';
import { RazorpayService } from './razorpay/razorpay.service';
import { RECEIPT_JOB, receiptJobHandler } from './receipts';
import { Reconciliation, RECONCILE_EVERY_MS, type ReconciliationSource } from './reconciliation';
import { SandboxGateway } from './sandbox.gateway';
import { StripeGateway } from './stripe/stripe.gateway';
import { stripeReconciliation } from './stripe/stripe.reconcile';
import { STRIPE_PATHS, stripeRoutes } from './stripe/stripe.routes';
import { StripeService } from './stripe/stripe.service';
import { subscriptionRoutes } from './subscriptions.routes';
import { unavailableRoutes } from './unavailable.routes';

export { paymentContentSources } from './content-security';
export { createDemoPayments } from './demo-payments';
export { startDevEmulator } from './dev-emulator';

/** Everything payments needs, built once per process (the API and the job handlers share it). */
interface PaymentsCore {
  repo: PaymentsRepository;
  ledger: PaymentLedger;
  payments: PaymentsService;
  gateways: GatewayRegistry;
  sandbox: SandboxGateway | null;
  stripe: { gateway: StripeGateway; service: StripeService } | null;
  razorpay: { gateway: RazorpayGateway; service: RazorpayService } | null;
  paypal: { gateway: PaypalGateway; service: PaypalService } | null;
  reconciliation: Reconciliation;
  log: PaymentJobDeps['log'];
  setLog(log: ReturnType<PaymentJobDeps['log']>): void;
}

const cores = new WeakMap<ModuleContext['services'], PaymentsCore>();

function paymentsCore({ config, database, services }: ModuleContext): PaymentsCore {
  const known = cores.get(services);
  if (known) return known;
  const db = database.db;
  const repo = new PaymentsRepository(db);
  const settings = config.payments;
  const sandbox = settings.sandbox ? new SandboxGateway() : null;
  const stripeGateway = settings.stripe ? new StripeGateway(settings.stripe) : null;
  const razorpayGateway = settings.razorpay ? new RazorpayGateway(settings.razorpay) : null;
  const paypalGateway = settings.paypal ? new PaypalGateway(settings.paypal) : null;
  const list: PaymentGateway[] = [stripeGateway, razorpayGateway, paypalGateway, sandbox].filter(
    (gateway): gateway is NonNullable<typeof gateway> => gateway !== null,
  );
  const gateways = new GatewayRegistry(list);
  const ledger = new PaymentLedger({
    transaction: createPaymentsTransactor(db),
    repo,
    entitlements: services.entitlements,
    jobs: services.jobs,
    clock: services.clock,
  });
  const payments = new PaymentsService({
    repo,
    ledger,
    gateways,
    sandbox,
    sandboxRefunds: config.isProduction ? null : (sandbox ?? new SandboxGateway()),
    currency: config.currency,
  });
  const stripe = stripeGateway
    ? { gateway: stripeGateway, service: new StripeService(payments, stripeGateway) }
    : null;
  const razorpay = razorpayGateway
    ? { gateway: razorpayGateway, service: new RazorpayService(payments, razorpayGateway) }
    : null;
  const paypal = paypalGateway
    ? { gateway: paypalGateway, service: new PaypalService(payments, paypalGateway, config.publicUrl) }
    : null;
  let log = services.jobs.logger;
  services.accountErasure.register(
    'payments',
    paymentAccountErasure(new PaymentAccountData(db), gateways, {
      warn: (entry, message) => log.warn(entry, message),
    }),
  );
  const sources: ReconciliationSource[] = [];
  if (stripe) {
    sources.push(
      stripeReconciliation(stripe.gateway.client, stripe.service.events, repo.adjustments, services.clock),
    );
  }
  if (razorpay)
    sources.push(razorpayReconciliation(razorpay.gateway, razorpay.service, ledger, repo.adjustments));
  if (paypal) {
    sources.push(
      paypalReconciliation(paypal.gateway, paypal.service.events, paypal.service.sales, ledger, repo),
    );
  }
  const core: PaymentsCore = {
    repo,
    ledger,
    payments,
    gateways,
    sandbox,
    stripe,
    razorpay,
    paypal,
    reconciliation: new Reconciliation({
      db,
      sources,
      adjustments: repo.adjustments,
      clock: services.clock,
      log: () => log,
    }),
    log: () => log,
    setLog: (next) => {
      log = next;
    },
  };
  cores.set(services, core);
  return core;
}

/**
 * The payment jobs' handlers (API instances with `JOBS=inline`, and workers): receipts, automatic refunds,
 * cancellations at the gateways, abandoned orders expiring, and reconciliation with each provider.
 */
export function registerPaymentJobs(context: ModuleContext): void {
  const core = paymentsCore(context);
  const { services, config } = context;
  const deps: PaymentJobDeps = {
    repo: core.repo,
    ledger: core.ledger,
    gateways: core.gateways,
    log: core.log,
  };
  services.jobs.register(
    RECEIPT_JOB,
    receiptJobHandler({ repo: core.repo, mailer: services.mailer, publicUrl: config.publicUrl }),
  );
  services.jobs.register(PAYMENT_JOBS.autoRefund, autoRefundHandler(deps));
  services.jobs.register(PAYMENT_JOBS.cancelSubscription, cancelSubscriptionHandler(deps));
  services.jobs.register(PAYMENT_JOBS.cancelCheckout, cancelCheckoutHandler(deps));
  services.jobs.registerRecurring(PAYMENT_JOBS.expireOrders, expireOrdersHandler(deps), EXPIRE_EVERY_MS);
  if (core.reconciliation.gateways.length > 0) {
    services.jobs.registerRecurring(
      PAYMENT_JOBS.reconcile,
      async () => {
        await core.reconciliation.runAll('schedule');
      },
      RECONCILE_EVERY_MS,
    );
  }
}

/**
 * Wires payments: the configured gateways, the ledger every confirmation goes through, and the routes under
 * /payments, /subscriptions and /admin. The sandbox routes exist even when it is disabled (503).
 */
export async function registerPayments(api: FastifyInstance, context: ModuleContext): Promise<void> {
  const { database, services } = context;
  const core = paymentsCore(context);
  core.setLog(api.log);
  const { payments, stripe, razorpay, paypal, sandbox } = core;
  const limit = checkoutLimit(new RateLimitService(new RateLimitRepository(database.db), services.clock));
  const starters = new Map<GatewayName, SubscriptionStarter>();
  if (sandbox) {
    starters.set('sandbox', (buyer, artistId, cycle, body) =>
      payments.createSandboxSubscription(buyer, artistId, cycle, body),
    );
  }
  // Each gateway: its subscriptions and routes when configured, else the same paths answering 503.
  const checkouts = [
    {
      name: 'stripe' as const,
      paths: STRIPE_PATHS,
      mounted: stripe && {
        service: stripe.service,
        routes: () => api.register(stripeRoutes, { stripe: stripe.service, gateway: stripe.gateway, limit }),
      },
    },
    {
      name: 'razorpay' as const,
      paths: RAZORPAY_PATHS,
      mounted: razorpay && {
        service: razorpay.service,
        routes: () =>
          api.register(razorpayRoutes, { razorpay: razorpay.service, gateway: razorpay.gateway, limit }),
      },
    },
    {
      name: 'paypal' as const,
      paths: PAYPAL_PATHS,
      mounted: paypal && {
        service: paypal.service,
        routes: () => api.register(paypalRoutes, { paypal: paypal.service, gateway: paypal.gateway, limit }),
      },
    },
  ];
  for (const { name, paths, mounted } of checkouts) {
    if (mounted) {
      starters.set(name, mounted.service.subscribe);
      await mounted.routes();
    } else {
      await api.register(unavailableRoutes, { gateway: name, routes: Object.values(paths) });
    }
  }

  await api.register(paymentRoutes, { payments });
  await api.register(sandboxPaymentRoutes, { payments, limit });
  await api.register(subscriptionRoutes, { payments, starters, limit });
  await api.register(adminPaymentRoutes, {
    reconciliation: core.reconciliation,
    issues: core.repo.adjustments,
    clock: services.clock,
  });
}
