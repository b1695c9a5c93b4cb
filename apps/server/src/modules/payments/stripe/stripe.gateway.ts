import Stripe from 'stripe';
import type { GatewayInfo, GatewayMode } from '@backbeat/contract';
import { AppError } from '../../../platform/errors';
import { gatewayFailed, type PaymentGateway } from '../payment-gateway';
import type { RefundReport } from '../payment-ledger';
import type { OrderRow, PaymentRow, SubscriptionRow } from '../payments.repository';

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

/** Stripe's error as the buyer should read it: the card's own message, else a gateway failure. */
export function stripeFailure(error: unknown): AppError {
  if (error instanceof Stripe.errors.StripeCardError) {
    return new AppError(402, 'PAYMENT_DECLINED', error.message, { declineCode: error.decline_code ?? null });
  }
  if (error instanceof Stripe.errors.StripeInvalidRequestError) {
    return new AppError(400, 'GATEWAY_REJECTED', `Stripe refused the request: ${error.message}`);
  }
  if (error instanceof AppError) return error;
  return gatewayFailed('stripe', error instanceof Error ? error.message : undefined);
}

/** Stripe in Backbeat's terms: what the web needs, refunds, and stopping a subscription's renewals. */
export class StripeGateway implements PaymentGateway {
  readonly name = 'stripe' as const;
  readonly client: Stripe;

  constructor(readonly settings: StripeSettings) {
    this.client = createStripeClient(settings);
  }

  get mode(): GatewayMode {
    if (this.settings.apiBase) return 'emulator';
    return this.settings.secretKey.startsWith('sk_live_') ? 'live' : 'test';
  }

  describe(): GatewayInfo {
    return {
      name: 'stripe',
      label: 'Card (Stripe)',
      mode: this.mode,
      publishableKey: this.settings.publishableKey,
      scriptUrl: this.settings.apiBase ? `${this.settings.apiBase.replace(/\/$/, '')}/v3/` : null,
      subscriptions: true,
    };
  }

  /** Verifies a webhook's signature on the raw body with the SDK's own check; throws when it is not Stripe's. */
  verifyEvent(rawBody: Buffer, signature: string | undefined): Stripe.Event {
    if (!signature) throw new AppError(400, 'INVALID_SIGNATURE', 'Missing Stripe-Signature header');
    try {
      return this.client.webhooks.constructEvent(rawBody, signature, this.settings.webhookSecret);
    } catch {
      throw new AppError(400, 'INVALID_SIGNATURE', 'Invalid Stripe signature');
    }
  }

  /**
   * Refunds the PaymentIntent behind the payment (a purchase's own intent, or the invoice's intent kept as the
   * payment's reference). Stripe reports card refunds `succeeded` or `pending`; only a succeeded one is final now.
   */
  async refund(order: OrderRow, payment: PaymentRow, reason: string | null): Promise<RefundReport | null> {
    const paymentIntent = payment.externalId.startsWith('pi_') ? payment.externalId : payment.reference;
    if (!paymentIntent) throw gatewayFailed('stripe', 'no payment intent to refund');
    try {
      const refund = await this.client.refunds.create(
        {
          payment_intent: paymentIntent,
          reason: 'requested_by_customer',
          metadata: { order_id: order.id, ...(reason ? { note: reason.slice(0, 400) } : {}) },
        },
        { idempotencyKey: `refund-${order.id}` },
      );
      if (refund.status !== 'succeeded') return null;
      return {
        gateway: 'stripe',
        externalId: refund.id,
        kind: 'refund',
        amount: refund.amount,
        currency: refund.currency.toUpperCase(),
        reason,
        raw: { refund: refund.id, payment_intent: paymentIntent },
      };
    } catch (error) {
      throw stripeFailure(error);
    }
  }

  /** DELETE /v1/customers/:id (Stripe also cancels the customer's subscriptions); a 404 means already gone. */
  async deleteCustomer(externalId: string): Promise<void> {
    try {
      await this.client.customers.del(externalId);
    } catch (error) {
      if (error instanceof Stripe.errors.StripeError && error.statusCode === 404) return;
      throw gatewayFailed('stripe', error instanceof Error ? error.message : undefined);
    }
  }

  async cancelSubscription(subscription: SubscriptionRow): Promise<void> {
    if (!subscription.externalId) return;
    try {
      await this.client.subscriptions.update(subscription.externalId, { cancel_at_period_end: true });
    } catch (error) {
      throw stripeFailure(error);
    }
  }
}
