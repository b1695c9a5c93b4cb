import type { FastifyInstance } from 'fastify';
import type { PaymentGateway as GatewayName } from '@backbeat/contract';
import type { ModuleContext } from '..';
import { PaymentAccountData, paymentAccountErasure } from './account-erasure';
import { GatewayRegistry, type PaymentGateway } from './payment-gateway';
import { PaypalGateway } from './paypal/paypal.gateway';
import { paypalRoutes } from './paypal/paypal.routes';
import { PaypalService } from './paypal/paypal.service';
import { RazorpayGateway } from './razorpay/razorpay.gateway';
import { razorpayRoutes } from './razorpay/razorpay.routes';
import { RazorpayService } from './razorpay/razorpay.service';
import { StripeGateway } from './stripe/stripe.gateway';
import { stripeRoutes } from './stripe/stripe.routes';
import { StripeService } from './stripe/stripe.service';
import { PaymentLedger } from './payment-ledger';
import { createPaymentsTransactor, PaymentsRepository } from './payments.repository';
import { paymentRoutes, sandboxPaymentRoutes } from './payments.routes';
import { PaymentsService } from './payments.service';
import { RECEIPT_JOB, receiptJobHandler } from './receipts';
import { SandboxGateway } from './sandbox.gateway';
import { subscriptionRoutes, type SubscriptionStarter } from './subscriptions.routes';
import { unavailableRoutes } from './unavailable.routes';

/** The receipt job's handler (API instances with `JOBS=inline`, and workers). */
export function registerPaymentJobs({ config, database, services }: ModuleContext): void {
  services.jobs.register(
    RECEIPT_JOB,
    receiptJobHandler({
      repo: new PaymentsRepository(database.db),
      mailer: services.mailer,
      publicUrl: config.publicUrl,
    }),
  );
}

/**
 * Wires payments: the configured gateways, the ledger every confirmation goes through, receipts, and the routes
 * under /payments, /subscriptions and /admin/orders. The sandbox routes exist even when it is disabled (503).
 */
export async function registerPayments(
  api: FastifyInstance,
  { config, database, services }: ModuleContext,
): Promise<void> {
  const db = database.db;
  const repo = new PaymentsRepository(db);
  const settings = config.payments;
  const sandbox = settings.sandbox ? new SandboxGateway() : null;
  const stripe = settings.stripe ? new StripeGateway(settings.stripe) : null;
  const razorpay = settings.razorpay ? new RazorpayGateway(settings.razorpay) : null;
  const paypal = settings.paypal ? new PaypalGateway(settings.paypal) : null;
  const gateways: PaymentGateway[] = [stripe, razorpay, paypal, sandbox].filter(
    (gateway): gateway is NonNullable<typeof gateway> => gateway !== null,
  );
  const ledger = new PaymentLedger({
    transaction: createPaymentsTransactor(db),
    repo,
    entitlements: services.entitlements,
    jobs: services.jobs,
    clock: services.clock,
  });
  const registry = new GatewayRegistry(gateways);
  services.accountErasure.register(
    'payments',
    paymentAccountErasure(new PaymentAccountData(db), registry, api.log),
  );
  const payments = new PaymentsService({
    repo,
    ledger,
    gateways: registry,
    sandbox,
    sandboxRefunds: config.isProduction ? null : (sandbox ?? new SandboxGateway()),
    currency: config.currency,
  });
  const starters = new Map<GatewayName, SubscriptionStarter>();
  if (sandbox) {
    starters.set('sandbox', (buyer, artistId, cycle, body) =>
      payments.createSandboxSubscription(buyer, artistId, cycle, body),
    );
  }

  if (stripe) {
    const service = new StripeService(payments, stripe);
    starters.set('stripe', (buyer, artistId, cycle, body) => service.subscribe(buyer, artistId, cycle, body));
    await api.register(stripeRoutes, { stripe: service, gateway: stripe });
  } else {
    await api.register(unavailableRoutes, {
      gateway: 'stripe',
      routes: ['/payments/stripe/create-payment', '/subscriptions/setup-intent', '/payments/stripe/webhook'],
    });
  }
  if (razorpay) {
    const service = new RazorpayService(payments, razorpay);
    starters.set('razorpay', (buyer, artistId, cycle, body) =>
      service.subscribe(buyer, artistId, cycle, body),
    );
    await api.register(razorpayRoutes, { razorpay: service, gateway: razorpay });
  } else {
    await api.register(unavailableRoutes, {
      gateway: 'razorpay',
      routes: ['/payments/razorpay/create-order', '/payments/razorpay/verify', '/payments/razorpay/webhook'],
    });
  }
  if (paypal) {
    const service = new PaypalService(payments, paypal, config.publicUrl);
    starters.set('paypal', (buyer, artistId, cycle, body) => service.subscribe(buyer, artistId, cycle, body));
    await api.register(paypalRoutes, { paypal: service, gateway: paypal });
  } else {
    await api.register(unavailableRoutes, {
      gateway: 'paypal',
      routes: [
        '/payments/paypal/create-order',
        '/payments/paypal/capture-order',
        '/payments/paypal/confirm-subscription',
        '/payments/paypal/webhook',
      ],
    });
  }

  await api.register(paymentRoutes, { payments });
  await api.register(sandboxPaymentRoutes, { payments });
  await api.register(subscriptionRoutes, { payments, starters });
}
