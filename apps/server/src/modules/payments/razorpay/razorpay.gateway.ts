import Razorpay from 'razorpay';
import razorpayUtils from 'razorpay/dist/utils/razorpay-utils.js';
import type { GatewayInfo, GatewayMode } from '@backbeat/contract';
import { AppError } from '../../../platform/errors';
import { gatewayFailed, type PaymentGateway } from '../payment-gateway';
import type { RefundReport } from '../payment-ledger';
import type { OrderRow, PaymentRow, SubscriptionRow } from '../payments.repository';

export interface RazorpaySettings {
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  /** The local gateway emulator's address (development and tests). */
  apiBase?: string;
}

/** Razorpay's SDK error shape: `{ statusCode, error: { code, description, ... } }`. */
interface RazorpayError {
  statusCode?: number;
  error?: { code?: string; description?: string };
}

/**
 * The Razorpay SDK client. The SDK hard-codes api.razorpay.com and offers no base-URL option; its narrowest seam is
 * its own axios instance, whose base URL is pointed at the emulator in development and tests.
 */
export function createRazorpayClient(settings: RazorpaySettings): Razorpay {
  const client = new Razorpay({ key_id: settings.keyId, key_secret: settings.keySecret });
  const api = (client as unknown as { api: { rq: { defaults: { baseURL?: string; timeout?: number } } } })
    .api;
  api.rq.defaults.timeout = 20_000;
  if (settings.apiBase) api.rq.defaults.baseURL = settings.apiBase.replace(/\/$/, '');
  return client;
}

/** Razorpay's refusal as the buyer should read it (its description), else a gateway failure. */
export function razorpayFailure(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const failure = error as RazorpayError;
  if (failure?.statusCode && failure.statusCode < 500 && failure.error?.description) {
    return new AppError(
      400,
      'GATEWAY_REJECTED',
      `Razorpay refused the request: ${failure.error.description}`,
    );
  }
  return gatewayFailed('razorpay', error instanceof Error ? error.message : failure?.error?.description);
}

export class RazorpayGateway implements PaymentGateway {
  readonly name = 'razorpay' as const;
  readonly client: Razorpay;

  constructor(readonly settings: RazorpaySettings) {
    this.client = createRazorpayClient(settings);
  }

  get mode(): GatewayMode {
    if (this.settings.apiBase) return 'emulator';
    return this.settings.keyId.startsWith('rzp_live_') ? 'live' : 'test';
  }

  describe(): GatewayInfo {
    return {
      name: 'razorpay',
      label: 'Razorpay (UPI, cards, netbanking)',
      mode: this.mode,
      publishableKey: this.settings.keyId,
      scriptUrl: this.settings.apiBase ? `${this.settings.apiBase.replace(/\/$/, '')}/v1/checkout.js` : null,
      subscriptions: true,
    };
  }

  /** Checkout's result for an order or a subscription, checked with the SDK's own helper. */
  verifyCheckout(
    ids: { paymentId: string; orderId?: string; subscriptionId?: string },
    signature: string,
  ): boolean {
    const params = ids.orderId
      ? { payment_id: ids.paymentId, order_id: ids.orderId }
      : { payment_id: ids.paymentId, subscription_id: ids.subscriptionId! };
    try {
      return razorpayUtils.validatePaymentVerification(params as never, signature, this.settings.keySecret);
    } catch {
      return false;
    }
  }

  /** A webhook's X-Razorpay-Signature over the raw body, checked with the SDK's own helper. */
  verifyWebhook(rawBody: Buffer, signature: string | undefined): void {
    if (!signature) throw new AppError(400, 'INVALID_SIGNATURE', 'Missing X-Razorpay-Signature header');
    let valid = false;
    try {
      valid = Razorpay.validateWebhookSignature(
        rawBody.toString('utf8'),
        signature,
        this.settings.webhookSecret,
      );
    } catch {
      valid = false;
    }
    if (!valid) throw new AppError(400, 'INVALID_SIGNATURE', 'Invalid Razorpay signature');
  }

  /** Refunds the payment in full; Razorpay answers with the refund (processed, or pending until its webhook). */
  async refund(order: OrderRow, payment: PaymentRow, reason: string | null): Promise<RefundReport | null> {
    const paymentId = payment.externalId.startsWith('pay_') ? payment.externalId : payment.reference;
    if (!paymentId) throw gatewayFailed('razorpay', 'no payment to refund');
    try {
      const refund = await this.client.payments.refund(paymentId, {
        amount: payment.amount,
        notes: { order_id: order.id, ...(reason ? { note: reason.slice(0, 250) } : {}) },
      });
      if (refund.status !== 'processed') return null;
      return {
        gateway: 'razorpay',
        externalId: refund.id,
        kind: 'refund',
        amount: Number(refund.amount),
        currency: String(refund.currency).toUpperCase(),
        reason,
        raw: { refund: refund.id, payment: paymentId },
      };
    } catch (error) {
      throw razorpayFailure(error);
    }
  }

  /** Backbeat creates no Razorpay customer (the buyer's details stay in Razorpay's own checkout): nothing to delete. */
  async deleteCustomer(): Promise<void> {}

  /** Stops renewals at the end of the current cycle (`cancel_at_cycle_end`). */
  async cancelSubscription(subscription: SubscriptionRow): Promise<void> {
    if (!subscription.externalId) return;
    try {
      await this.client.subscriptions.cancel(subscription.externalId, true);
    } catch (error) {
      throw razorpayFailure(error);
    }
  }
}
