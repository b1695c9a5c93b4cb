import type Stripe from 'stripe';
import type { PaymentConfirmation, RefundReport } from '../payment-gateway';

export const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value ? (typeof value === 'string' ? value : value.id) : null;

/** Dispute statuses in which the bank holds the money (an inquiry, `warning_*`, or a prevented one takes none). */
const WITHDRAWN = new Set([
  'needs_response',
  'under_review',
  'lost',
  'won',
  'appeal_needs_response',
  'appeal_under_review',
]);

/** A succeeded Stripe refund of a PaymentIntent's money, in the ledger's terms. */
export function stripeRefundReport(refund: Stripe.Refund, paymentIntent: string): RefundReport {
  return {
    gateway: 'stripe',
    externalId: refund.id,
    paymentRef: paymentIntent,
    kind: 'refund',
    amount: refund.amount,
    currency: refund.currency.toUpperCase(),
    reason: refund.reason ?? null,
    raw: { refund: refund.id, charge: idOf(refund.charge), payment_intent: paymentIntent },
  };
}

/**
 * A dispute in the ledger's terms: money held back by the bank once it is withdrawn, and given back (a reversal)
 * when the seller won it. An inquiry takes nothing.
 */
export function stripeDisputeReports(dispute: Stripe.Dispute, paymentIntent: string): RefundReport[] {
  if (!WITHDRAWN.has(dispute.status)) return [];
  const base = {
    gateway: 'stripe' as const,
    paymentRef: paymentIntent,
    amount: dispute.amount,
    currency: dispute.currency.toUpperCase(),
    reason: dispute.reason,
    raw: { dispute: dispute.id, status: dispute.status },
  };
  const taken: RefundReport = { ...base, externalId: dispute.id, kind: 'dispute' };
  return dispute.status === 'won'
    ? [taken, { ...base, externalId: `${dispute.id}:reversed`, kind: 'reversal' }]
    : [taken];
}

/**
 * Everything Stripe reports as moved after a PaymentIntent's charge: its succeeded refunds and its disputes. Read
 * only when the charge says there is something to read (`amount_refunded`, `disputed`).
 */
export async function stripeAdjustmentsOf(
  stripe: Stripe,
  paymentIntent: string,
  charge: Stripe.Charge | null,
): Promise<RefundReport[]> {
  if (!charge) return [];
  const reports: RefundReport[] = [];
  if (charge.amount_refunded > 0 || charge.refunded) {
    for await (const refund of stripe.refunds.list({ payment_intent: paymentIntent, limit: 100 })) {
      if (refund.status === 'succeeded') reports.push(stripeRefundReport(refund, paymentIntent));
    }
  }
  if (charge.disputed) {
    for await (const dispute of stripe.disputes.list({ payment_intent: paymentIntent, limit: 100 })) {
      reports.push(...stripeDisputeReports(dispute, paymentIntent));
    }
  }
  return reports;
}

/** The latest charge of a PaymentIntent, read from Stripe (null before any attempt). */
export async function latestChargeOf(
  stripe: Stripe,
  intent: Stripe.PaymentIntent,
): Promise<Stripe.Charge | null> {
  const chargeId = idOf(intent.latest_charge);
  if (!chargeId) return null;
  return typeof intent.latest_charge === 'object' && intent.latest_charge
    ? intent.latest_charge
    : stripe.charges.retrieve(chargeId);
}

/** A succeeded PaymentIntent of a purchase as a confirmation, with what was refunded or disputed since. */
export async function stripeIntentConfirmation(
  stripe: Stripe,
  intent: Stripe.PaymentIntent,
): Promise<PaymentConfirmation> {
  const charge = await latestChargeOf(stripe, intent);
  return {
    externalId: intent.id,
    reference: charge?.id ?? null,
    status: 'succeeded',
    amount: intent.amount_received,
    currency: intent.currency.toUpperCase(),
    raw: { payment_intent: intent.id, charge: charge?.id ?? null },
    adjustments: await stripeAdjustmentsOf(stripe, intent.id, charge),
  };
}

/** The PaymentIntent that paid an invoice (Stripe's `payments` list on the invoice). */
export function invoicePaymentIntent(invoice: Stripe.Invoice): string | null {
  return (
    invoice.payments?.data
      .map((payment) => idOf(payment.payment?.payment_intent))
      .find((value): value is string => Boolean(value)) ?? null
  );
}

/** A paid subscription invoice as a confirmation (its PaymentIntent's refunds and disputes included). */
export async function stripeInvoiceConfirmation(
  stripe: Stripe,
  invoice: Stripe.Invoice,
): Promise<PaymentConfirmation> {
  const paymentIntent = invoicePaymentIntent(invoice);
  let adjustments: RefundReport[] = [];
  if (paymentIntent) {
    const intent = await stripe.paymentIntents.retrieve(paymentIntent);
    adjustments = await stripeAdjustmentsOf(stripe, paymentIntent, await latestChargeOf(stripe, intent));
  }
  return {
    externalId: invoice.id!,
    reference: paymentIntent,
    status: 'succeeded',
    amount: invoice.amount_paid,
    currency: invoice.currency.toUpperCase(),
    raw: { invoice: invoice.id, billing_reason: invoice.billing_reason, payment_intent: paymentIntent },
    adjustments,
  };
}

/** The period a paid invoice pays for: its subscription line's, else the invoice's. */
export function invoicePeriod(invoice: Stripe.Invoice): { periodStart: Date; periodEnd: Date } {
  const line = invoice.lines.data[0];
  const start = line?.period?.start ?? invoice.period_start;
  const end = line?.period?.end ?? invoice.period_end;
  return { periodStart: new Date(start * 1000), periodEnd: new Date(end * 1000) };
}
