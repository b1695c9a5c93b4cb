import Stripe from 'stripe';
import { AppError } from '../../../platform/errors';
import { gatewayFailure, GatewayScaffold, type CheckoutState, type RefundRequest } from '../payment-gateway';
import type { OrderRow, PaymentRow } from '../payments.repository';
import { stripeRefundReport } from './stripe.facts';

export interface StripeSettings {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /** The local gateway emulator's address (development and tests), reached through the SDK's host/port/protocol. */
  apiBase?: string;
}

/** The Stripe SDK client, pointed at the emulator only through the SDK's own host, port and protocol settings. */
export function createStripeClient(settings: StripeSettings): Stripe {
  const base = settings.apiBase ? new URL(settings.apiBase) : null;
  return new Stripe(settings.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'Backbeat' },
    ...(base && {
      host: base.hostname,
      port: Number(base.port || (base.protocol === 'https:' ? 443 : 80)),
      protocol: base.protocol === 'https:' ? 'https' : 'http',
    }),
  });
}

/**
 * Stripe's error as the buyer should read it: a card's own message (Stripe writes those for buyers), else a clear
 * gateway failure; Stripe's own words go to the log with the error.
 */
export const stripeFailure = gatewayFailure('stripe', (error) => {
  if (error instanceof Stripe.errors.StripeCardError) {
    return new AppError(402, 'PAYMENT_DECLINED', error.message, { declineCode: error.decline_code ?? null });
  }
  if (error instanceof Stripe.errors.StripeRateLimitError) return 'busy';
  if (
    error instanceof Stripe.errors.StripeInvalidRequestError ||
    error instanceof Stripe.errors.StripeIdempotencyError ||
    error instanceof Stripe.errors.StripePermissionError
  ) {
    return 'rejected';
  }
  return undefined;
});

/** Stripe in Backbeat's terms: what the web needs, refunds, and stopping a subscription's renewals. */
export class StripeGateway extends GatewayScaffold {
  readonly name = 'stripe' as const;
  readonly client: Stripe;

  constructor(readonly settings: StripeSettings) {
    super(stripeFailure, 'PaymentIntent');
    this.client = createStripeClient(settings);
  }

  protected face() {
    return {
      label: 'Card (Stripe)',
      publishableKey: this.settings.publishableKey,
      apiBase: this.settings.apiBase,
      scriptPath: '/v3/',
      live: this.settings.secretKey.startsWith('sk_live_'),
    };
  }

  /**
   * Verifies a webhook's signature on the raw body with the SDK's own check; throws when it is not Stripe's, or
   * when the signed body is not an event (the SDK parses any JSON: `null` would reach the handlers).
   */
  verifyEvent(rawBody: Buffer, signature: string | undefined): Stripe.Event {
    if (!signature) throw new AppError(400, 'INVALID_SIGNATURE', 'Missing Stripe-Signature header');
    let event: Partial<Stripe.Event> | null;
    try {
      event = this.client.webhooks.constructEvent(rawBody, signature, this.settings.webhookSecret);
    } catch {
      throw new AppError(400, 'INVALID_SIGNATURE', 'Invalid Stripe signature');
    }
    const object: unknown = event?.data?.object;
    if (
      typeof event?.id !== 'string' ||
      typeof event.type !== 'string' ||
      typeof object !== 'object' ||
      !object
    )
      throw new AppError(400, 'BAD_REQUEST', 'The event has no id, type or object');
    return event as Stripe.Event;
  }

  /**
   * Refunds the PaymentIntent behind the payment (a purchase's own intent, or the invoice's intent kept as the
   * payment's reference). Stripe reports card refunds `succeeded` or `pending`; only a succeeded one is final now.
   */
  protected paymentRef(_order: OrderRow, payment: PaymentRow): string | null {
    return payment.externalId.startsWith('pi_') ? payment.externalId : payment.reference;
  }

  protected async refundAt(
    paymentIntent: string,
    order: OrderRow,
    _payment: PaymentRow,
    request: RefundRequest,
  ) {
    const refund = await this.client.refunds.create(
      {
        payment_intent: paymentIntent,
        ...(request.amount !== undefined && { amount: request.amount }),
        reason: request.cause === 'duplicate_payment' ? 'duplicate' : 'requested_by_customer',
        metadata: { order_id: order.id, ...(request.reason ? { note: request.reason.slice(0, 400) } : {}) },
      },
      { idempotencyKey: request.idempotencyKey },
    );
    return refund.status === 'succeeded' ? stripeRefundReport(refund, paymentIntent) : null;
  }

  /** DELETE /v1/customers/:id (Stripe also cancels the customer's subscriptions); a 404 means already gone. */
  async deleteCustomer(externalId: string): Promise<void> {
    try {
      await this.client.customers.del(externalId);
    } catch (error) {
      if (error instanceof Stripe.errors.StripeError && error.statusCode === 404) return;
      throw this.unreachable(error instanceof Error ? error.message : undefined);
    }
  }

  protected async stopRenewals(externalId: string): Promise<void> {
    const remote = await this.client.subscriptions.retrieve(externalId);
    if (remote.status === 'canceled' || remote.status === 'incomplete_expired') return;
    if (remote.status === 'incomplete') {
      // Never paid: nothing to keep playing, it ends now.
      await this.client.subscriptions.cancel(externalId);
      return;
    }
    if (!remote.cancel_at_period_end) {
      await this.client.subscriptions.update(externalId, { cancel_at_period_end: true });
    }
  }

  /** Cancels an order's PaymentIntent unless it was paid meanwhile (a cancelled intent can no longer be paid). */
  protected async purchaseState(intentId: string): Promise<CheckoutState> {
    const intent = await this.client.paymentIntents.retrieve(intentId);
    if (intent.status === 'succeeded' || intent.status === 'processing') return 'paid';
    if (intent.status === 'canceled') return 'cancelled';
    await this.client.paymentIntents.cancel(intentId, { cancellation_reason: 'abandoned' });
    return 'cancelled';
  }
}
