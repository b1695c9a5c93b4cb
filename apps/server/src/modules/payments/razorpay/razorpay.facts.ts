import type { PaymentConfirmation, RefundReport } from '../payment-gateway';
import type { RazorpayApi, RzpPayment, RzpSubscription } from './razorpay-api';
import { razorpayRefundReport } from './razorpay.gateway';

/** Whether Razorpay holds the money of a payment (captured, possibly refunded since). */
export const moneyTaken = (payment: RzpPayment) =>
  payment.status === 'captured' || payment.status === 'refunded';

/** The processed refunds of a payment, read only when the payment says some money went back. */
export async function razorpayRefundsOf(api: RazorpayApi, payment: RzpPayment): Promise<RefundReport[]> {
  if (!(Number(payment.amount_refunded) > 0) && payment.status !== 'refunded') return [];
  const refunds = await api.refundsOfPayment(payment.id);
  return refunds.items.filter((refund) => refund.status === 'processed').map((r) => razorpayRefundReport(r));
}

/**
 * A payment as the ledger settles it: captured money (with its refunds), or a failure. Null while nothing is
 * decided (created, or authorized and not captured: no money was taken yet).
 */
export async function razorpayConfirmation(
  api: RazorpayApi,
  payment: RzpPayment,
): Promise<PaymentConfirmation | null> {
  if (payment.status === 'failed') {
    return {
      externalId: payment.id,
      status: 'failed',
      amount: Number(payment.amount),
      currency: payment.currency.toUpperCase(),
      raw: { payment: payment.id, order: payment.order_id, error: payment.error_description ?? null },
    };
  }
  if (!moneyTaken(payment)) return null;
  return {
    externalId: payment.id,
    status: 'succeeded',
    amount: Number(payment.amount),
    currency: payment.currency.toUpperCase(),
    raw: { payment: payment.id, order: payment.order_id, invoice: payment.invoice_id },
    adjustments: await razorpayRefundsOf(api, payment),
  };
}

/**
 * The period a subscription charge paid for: its invoice's billing period (Razorpay writes one invoice per
 * charge), else the subscription's current cycle (the charge Razorpay just made).
 */
export async function razorpayChargePeriod(
  api: RazorpayApi,
  payment: RzpPayment,
  subscription: RzpSubscription,
): Promise<{ periodStart: Date; periodEnd: Date } | null> {
  if (payment.invoice_id) {
    const invoice = await api.fetchInvoice(payment.invoice_id);
    if (invoice.billing_start && invoice.billing_end) {
      return {
        periodStart: new Date(invoice.billing_start * 1000),
        periodEnd: new Date(invoice.billing_end * 1000),
      };
    }
  }
  if (!subscription.current_start || !subscription.current_end) return null;
  return {
    periodStart: new Date(subscription.current_start * 1000),
    periodEnd: new Date(subscription.current_end * 1000),
  };
}
