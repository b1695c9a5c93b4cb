import Razorpay from 'razorpay';
import razorpayUtils from 'razorpay/dist/utils/razorpay-utils.js';
import { AppError } from '../../../platform/errors';
import {
  gatewayFailure,
  GatewayScaffold,
  type CheckoutState,
  type RefundReport,
  type RefundRequest,
} from '../payment-gateway';
import type { OrderRow, PaymentRow } from '../payments.repository';
import { RazorpayApi, RazorpayApiError, type RzpDispute, type RzpRefund } from './razorpay-api';

export interface RazorpaySettings {
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  /** The local gateway emulator's address (development and tests). */
  apiBase?: string;
}

/**
 * Razorpay's refusal as the buyer should read it. A refusal of the buyer's own payment (a failed or unauthorized
 * payment) keeps Razorpay's description, written for buyers; anything else is a clear gateway failure, and
 * Razorpay's words go to the log.
 */
export const razorpayFailure = gatewayFailure('razorpay', (error) => {
  if (!(error instanceof RazorpayApiError)) return undefined;
  if (error.statusCode === 429) return 'busy';
  return error.statusCode < 500 ? 'rejected' : undefined;
});

/** A processed Razorpay refund in the ledger's terms. */
export function razorpayRefundReport(refund: RzpRefund, reason: string | null = null): RefundReport {
  return {
    gateway: 'razorpay',
    externalId: refund.id,
    paymentRef: refund.payment_id,
    kind: 'refund',
    amount: Number(refund.amount),
    currency: refund.currency.toUpperCase(),
    reason,
    raw: { refund: refund.id, payment: refund.payment_id },
  };
}

/** A dispute in the ledger's terms: what Razorpay deducted, given back when the merchant won. */
export function razorpayDisputeReports(dispute: RzpDispute): RefundReport[] {
  const deducted = Number(dispute.amount_deducted ?? 0);
  if (deducted <= 0) return [];
  const base = {
    gateway: 'razorpay' as const,
    paymentRef: dispute.payment_id,
    amount: deducted,
    currency: dispute.currency.toUpperCase(),
    reason: dispute.reason_code ?? null,
    raw: { dispute: dispute.id, status: dispute.status },
  };
  const taken: RefundReport = { ...base, externalId: dispute.id, kind: 'dispute' };
  return dispute.status === 'won'
    ? [taken, { ...base, externalId: `${dispute.id}:reversed`, kind: 'reversal' }]
    : [taken];
}

export class RazorpayGateway extends GatewayScaffold {
  readonly name = 'razorpay' as const;
  readonly api: RazorpayApi;

  constructor(readonly settings: RazorpaySettings) {
    super(razorpayFailure, 'Razorpay payment');
    this.api = new RazorpayApi({
      keyId: settings.keyId,
      keySecret: settings.keySecret,
      baseUrl: settings.apiBase,
    });
  }

  protected face() {
    return {
      label: 'Razorpay (UPI, cards, netbanking)',
      publishableKey: this.settings.keyId,
      apiBase: this.settings.apiBase,
      scriptPath: '/v1/checkout.js',
      live: this.settings.keyId.startsWith('rzp_live_'),
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

  protected paymentRef(_order: OrderRow, payment: PaymentRow): string | null {
    return payment.externalId.startsWith('pay_') ? payment.externalId : payment.reference;
  }

  /** Refunds the payment (in full unless an amount is given); processed at once, or pending until its webhook. */
  protected async refundAt(paymentId: string, order: OrderRow, payment: PaymentRow, request: RefundRequest) {
    const refund = await this.api.refundPayment(paymentId, {
      amount: request.amount ?? payment.amount,
      // Razorpay keeps a receipt per refund: our key, so a repeated request is recognisable in its dashboard.
      receipt: request.idempotencyKey.slice(0, 40),
      notes: { order_id: order.id, ...(request.reason ? { note: request.reason.slice(0, 250) } : {}) },
    });
    return refund.status === 'processed' ? razorpayRefundReport(refund, request.reason) : null;
  }

  /** Stops renewals at the end of the current cycle (`cancel_at_cycle_end`); a subscription never paid ends now. */
  protected async stopRenewals(externalId: string): Promise<void> {
    const remote = await this.api.fetchSubscription(externalId);
    if (['cancelled', 'completed', 'expired'].includes(remote.status)) return;
    await this.api.cancelSubscription(externalId, remote.status !== 'created');
  }

  /**
   * Razorpay orders cannot be cancelled: an order that must not be paid stays open there, and a payment made on it
   * anyway is refused at capture (an authorized payment Razorpay releases by itself) or refunded.
   */
  protected async purchaseState(orderId: string): Promise<CheckoutState> {
    const remote = await this.api.fetchOrder(orderId);
    return remote.status === 'paid' ? 'paid' : 'open';
  }
}
