import { formatMoney } from '@backbeat/contract';
import type { MailMessage, Mailer } from '../mail';
import type { OrderRow, PaymentsRepository, RefundRow } from './payments.repository';
import { escapeHtml } from '../../platform/html';

/** The durable job that mails a receipt; queued in the transaction that recorded the money. */
export const RECEIPT_JOB = 'payment-receipt';

export type ReceiptJob =
  { kind: 'payment' | 'renewal'; orderId: string } | { kind: 'refund'; orderId: string; refundId: string };

const GATEWAY_NAMES: Record<OrderRow['gateway'], string> = {
  stripe: 'card (Stripe)',
  razorpay: 'Razorpay',
  paypal: 'PayPal',
  sandbox: 'demo checkout (no money moved)',
};

/** The receipt of a payment, a renewal or a refund, as plain text and simple HTML. */
/** Why the ledger gave money back by itself, when it did (see PaymentLedger.refuseMoney). */
export type AutomaticRefundCause = 'duplicate_payment' | 'amount_mismatch' | null;

export function receiptMail(
  to: { name: string; email: string },
  order: OrderRow,
  kind: ReceiptJob['kind'],
  refund: RefundRow | null,
  links: { history: string },
  automatic: AutomaticRefundCause = null,
): MailMessage {
  const money =
    kind === 'refund' && refund
      ? formatMoney(Math.abs(refund.amount), refund.currency)
      : formatMoney(order.amount, order.currency);
  const subject =
    kind === 'refund'
      ? `Refund: ${order.itemTitle}`
      : kind === 'renewal'
        ? `Renewed: ${order.itemTitle}`
        : `Your receipt: ${order.itemTitle}`;
  const headline =
    kind === 'refund'
      ? refund?.kind === 'dispute'
        ? `A dispute was opened on your payment for ${order.itemTitle}; ${money} is held back and the purchase no longer plays.`
        : refund?.kind === 'reversal'
          ? `The dispute on your payment for ${order.itemTitle} was decided for the seller: ${money} was paid again and it plays on your account.`
          : automatic === 'duplicate_payment'
            ? `You already owned ${order.itemTitle}, so your second payment was refunded automatically: ${money}. It still plays on your account.`
            : automatic === 'amount_mismatch'
              ? `The amount taken for ${order.itemTitle} differed from its price, so nothing was sold and ${money} was refunded automatically. Please buy it again.`
              : `${money} was refunded for ${order.itemTitle}. It no longer plays on your account.`
      : kind === 'renewal'
        ? `Your subscription renewed: ${order.itemTitle}, ${money}.`
        : `Thank you for your purchase: ${order.itemTitle}, ${money}.`;
  const rows: Array<[string, string]> = [
    ['Item', order.itemTitle],
    ['Amount', money],
    ['Paid with', GATEWAY_NAMES[order.gateway]],
    ['Order', order.id],
    ['Date', (refund?.createdAt ?? order.updatedAt).toISOString().slice(0, 10)],
  ];
  return {
    to: to.email,
    subject,
    text: [
      `Hi ${to.name},`,
      '',
      headline,
      '',
      ...rows.map(([label, value]) => `${label}: ${value}`),
      '',
      `Your payment history: ${links.history}`,
      '',
      'Backbeat',
    ].join('\n'),
    html: [
      `<p>Hi ${escapeHtml(to.name)},</p>`,
      `<p>${escapeHtml(headline)}</p>`,
      '<table>',
      ...rows.map(([label, value]) => `<tr><th align="left">${label}</th><td>${escapeHtml(value)}</td></tr>`),
      '</table>',
      `<p><a href="${links.history}">Your payment history</a></p>`,
    ].join('\n'),
  };
}

/** The job handler: loads the order (and refund), and mails its buyer; a deleted account gets nothing. */
export function receiptJobHandler(deps: { repo: PaymentsRepository; mailer: Mailer; publicUrl: string }) {
  return async (payload: Record<string, unknown>) => {
    const job = payload as ReceiptJob;
    const order = await deps.repo.findOrder(job.orderId);
    if (!order?.userId) return;
    const buyer = await deps.repo.offers.findBuyer(order.userId);
    if (!buyer) return;
    const refund =
      job.kind === 'refund'
        ? ((await deps.repo.refundsOf(order.id)).find((row) => row.id === job.refundId) ?? null)
        : null;
    const automatic =
      job.kind === 'refund' ? await deps.repo.adjustments.automaticRefundCause(order.id) : null;
    await deps.mailer.send(
      receiptMail(
        buyer,
        order,
        job.kind,
        refund,
        { history: `${deps.publicUrl}/payment-history` },
        automatic,
      ),
    );
  };
}
