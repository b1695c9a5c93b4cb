import type { PaymentConfirmation, RefundReport } from '../payment-gateway';
import { fromDecimalString } from '../money';

/** PayPal's JSON as its REST API returns it (snake_case), read field by field. */
export type Json = Record<string, unknown>;

export const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

interface Money {
  amount: number;
  currency: string;
}

function money(value: unknown): Money {
  const amount = value as { value?: string; currency_code?: string } | undefined;
  const currency = amount?.currency_code ?? '';
  return { amount: fromDecimalString(amount?.value, currency || 'USD'), currency };
}

/** The last segment of a link's address: the id of the object it points at (`up` of a refund is its capture). */
export function linkedId(object: Json, rel: string): string | null {
  const links = (object.links as Array<{ rel?: string; href?: string }> | undefined) ?? [];
  return (
    links
      .find((link) => link.rel === rel)
      ?.href?.split('/')
      .pop() ?? null
  );
}

/** A completed refund of a capture or sale, in the ledger's terms. */
export function paypalRefundReport(refund: Json, paymentRef: string): RefundReport | null {
  if ((str(refund.status) ?? str(refund.state) ?? '').toUpperCase() !== 'COMPLETED') return null;
  const amount = refund.amount as {
    value?: string;
    currency_code?: string;
    total?: string;
    currency?: string;
  };
  const currency = amount?.currency_code ?? amount?.currency ?? 'USD';
  return {
    gateway: 'paypal',
    externalId: str(refund.id) ?? '',
    paymentRef,
    kind: 'refund',
    amount: fromDecimalString(amount?.value ?? amount?.total, currency),
    currency: currency.toUpperCase(),
    raw: { refund: refund.id, paid: paymentRef },
  };
}

/** A capture of a PayPal order as it stands: status, money, and the refunds PayPal lists for it in its order. */
export interface PaypalCapture {
  id: string;
  status: string;
  amount: number;
  currency: string;
  paypalOrderId: string | null;
  /** Our order id, written into the PayPal order as `custom_id`. */
  customId: string | null;
  refunds: RefundReport[];
}

/** The captures of a PayPal order (its JSON), each with its refunds. */
export function capturesIn(order: Json): PaypalCapture[] {
  const units = (order.purchase_units as Array<Json> | undefined) ?? [];
  const captures: PaypalCapture[] = [];
  for (const unit of units) {
    const payments = (unit.payments as { captures?: Json[]; refunds?: Json[] } | undefined) ?? {};
    for (const capture of payments.captures ?? []) {
      const id = str(capture.id) ?? '';
      const refunds = (payments.refunds ?? [])
        .filter((refund) => {
          const up = linkedId(refund, 'up');
          return up === null || up === id;
        })
        .map((refund) => paypalRefundReport(refund, id))
        .filter((report): report is RefundReport => report !== null);
      captures.push({
        ...readCapture(capture),
        paypalOrderId: str(order.id) ?? null,
        customId: str(unit.custom_id) ?? str(capture.custom_id) ?? null,
        refunds,
      });
    }
  }
  return captures;
}

/** One capture object (`GET /v2/payments/captures/:id`), without its refunds. */
export function readCapture(capture: Json): PaypalCapture {
  const { amount, currency } = money(capture.amount);
  const related = (capture.supplementary_data as { related_ids?: { order_id?: string } } | undefined)
    ?.related_ids;
  return {
    id: str(capture.id) ?? '',
    status: str(capture.status) ?? '',
    amount,
    currency,
    paypalOrderId: related?.order_id ?? null,
    customId: str(capture.custom_id) ?? null,
    refunds: [],
  };
}

/** Capture statuses in which PayPal holds (or held, before refunds) the money. */
const TAKEN = new Set(['COMPLETED', 'PARTIALLY_REFUNDED', 'REFUNDED']);

/** A capture as a confirmation: its money and refunds; a declined one fails; null while pending. */
export function captureConfirmation(capture: PaypalCapture): PaymentConfirmation | null {
  if (capture.status === 'DECLINED' || capture.status === 'FAILED') {
    return {
      externalId: capture.id,
      reference: capture.paypalOrderId,
      status: 'failed',
      amount: capture.amount,
      currency: capture.currency,
      raw: { capture: capture.id, order: capture.paypalOrderId, status: capture.status },
    };
  }
  if (!TAKEN.has(capture.status)) return null;
  return {
    externalId: capture.id,
    reference: capture.paypalOrderId,
    status: 'succeeded',
    amount: capture.amount,
    currency: capture.currency,
    raw: { capture: capture.id, order: capture.paypalOrderId },
    adjustments: capture.refunds,
  };
}

/** One payment of a subscription (`GET /v1/billing/subscriptions/:id/transactions`): its sale id is `id`. */
export interface SubscriptionSale {
  saleId: string;
  status: string;
  amount: number;
  currency: string;
  time: Date;
}

export function readSales(body: Json): SubscriptionSale[] {
  const transactions = (body.transactions as Json[] | undefined) ?? [];
  return transactions.map((transaction) => {
    const breakdown = transaction.amount_with_breakdown as { gross_amount?: unknown } | undefined;
    const { amount, currency } = money(breakdown?.gross_amount);
    return {
      saleId: str(transaction.id) ?? '',
      status: (str(transaction.status) ?? '').toUpperCase(),
      amount,
      currency,
      time: new Date(str(transaction.time) ?? 0),
    };
  });
}

/** Dispute statuses and outcomes in which the money was given back to the seller. */
const SELLER_WON = new Set(['RESOLVED_SELLER_FAVOUR', 'CANCELED_BY_BUYER', 'DENIED']);

/**
 * A dispute (`GET /v1/customer/disputes/:id`) in the ledger's terms: the disputed amount is held back from when it
 * is opened; a dispute resolved in the seller's favour (or withdrawn) gives it back.
 */
export function paypalDisputeReports(dispute: Json): RefundReport[] {
  const transactions = (dispute.disputed_transactions as Json[] | undefined) ?? [];
  const paymentRef = str(transactions[0]?.seller_transaction_id);
  const id = str(dispute.dispute_id);
  if (!paymentRef || !id) return [];
  const { amount, currency } = money(dispute.dispute_amount);
  const base = {
    gateway: 'paypal' as const,
    paymentRef,
    amount,
    currency: currency.toUpperCase(),
    reason: str(dispute.reason) ?? null,
    raw: { dispute: id, status: dispute.status },
  };
  const taken: RefundReport = { ...base, externalId: id, kind: 'dispute' };
  const outcome = str((dispute.dispute_outcome as Json | undefined)?.outcome_code);
  const won = str(dispute.status) === 'RESOLVED' && outcome !== undefined && SELLER_WON.has(outcome);
  return won ? [taken, { ...base, externalId: `${id}:reversed`, kind: 'reversal' }] : [taken];
}
