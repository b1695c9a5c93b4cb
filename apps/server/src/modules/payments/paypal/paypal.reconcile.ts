import type { PaymentLedger } from '../payment-ledger';
import type { PaymentsRepository } from '../payments.repository';
import type { ReconciliationSource, Tally, Window } from '../reconciliation';
import type { PaypalEvents, PaypalTruth } from './paypal.events';
import { paypalDisputeReports, paypalRefundReport, str, type Json } from './paypal.facts';
import type { PaypalGateway } from './paypal.gateway';
import type { PaypalSubscriptions } from './paypal.subscriptions';

const DAY_MS = 24 * 3600 * 1000;
/** The longest window PayPal's transaction search takes. */
const SEARCH_DAYS = 31;

/** PayPal's transaction event codes Backbeat reads (Transaction Search: "Transaction event codes"). */
const isRefund = (code: string) => code.startsWith('T11');
const isSubscriptionPayment = (code: string, info: Json) =>
  code === 'T0002' || str(info.paypal_reference_id_type) === 'SUB';
const isPayment = (code: string) => code.startsWith('T00');

/**
 * PayPal's Transaction Search (`GET /v1/reporting/transactions`) lists what moved on the account in the window:
 * captures, subscription sales and refunds, each read again (capture with its order, sale with its subscription,
 * refund) and applied as its webhook would; then the disputes changed in the window (Disputes API). PayPal fills the
 * listing with a delay of up to three hours, which the windows' overlap covers. A payment no order or subscription
 * knows is an issue.
 */
export function paypalReconciliation(
  gateway: PaypalGateway,
  events: PaypalEvents,
  sales: PaypalSubscriptions,
  ledger: PaymentLedger,
  repo: PaymentsRepository,
): ReconciliationSource {
  const truthOf = async (info: Json): Promise<PaypalTruth> => {
    const code = str(info.transaction_event_code) ?? '';
    const id = str(info.transaction_id) ?? '';
    const reference = str(info.paypal_reference_id) ?? '';
    if (isRefund(code)) {
      const paid = await repo.findPaymentByGatewayId('paypal', reference);
      const refund =
        paid?.order.itemType === 'subscription'
          ? await gateway.getSaleRefund(id)
          : await gateway.getRefund(id).catch(() => gateway.getSaleRefund(id));
      const report = paypalRefundReport(
        { ...refund, status: str(refund.status) ?? str(refund.state)?.toUpperCase() },
        reference,
      );
      return { kind: 'adjustments', reports: report ? [report] : [] };
    }
    if (isSubscriptionPayment(code, info) && reference) return sales.saleTruth(reference, id);
    if (isPayment(code)) return events.captureTruth(id);
    return { kind: 'none' };
  };
  const reconcileSlice = async (from: Date, to: Date, tally: Tally) => {
    for (let page = 1; ; page += 1) {
      const body = await gateway.searchTransactions(from, to, page);
      const details = (body.transaction_details as Array<{ transaction_info?: Json }> | undefined) ?? [];
      for (const detail of details) {
        const info = detail.transaction_info ?? {};
        tally.examined += 1;
        const truth = await truthOf(info);
        const { result, changes } = await ledger.track((unit) => events.apply(unit, 'reconcile', truth));
        const id = str(info.transaction_id) ?? '';
        tally.fixes.push(...changes.map((change) => `transaction ${id}: ${change}`));
        if (result.status === 'unknown_order') {
          tally.problems += 1;
          const amount = info.transaction_amount as { value?: string; currency_code?: string } | undefined;
          await repo.adjustments.openIssue({
            gateway: 'paypal',
            kind: 'unknown_payment',
            externalId: id,
            currency: amount?.currency_code ?? null,
            detail: `a PayPal transaction no order knows (${result.note ?? ''})`,
            at: ledger.now(),
          });
        }
      }
      const pages = Number(body.total_pages ?? 1);
      if (page >= pages || details.length === 0) return;
    }
  };
  /**
   * Disputes changed in the window (opened, or resolved for either side), each read again and applied as its
   * `CUSTOMER.DISPUTE.*` webhook would be: Transaction Search shows a dispute's money only once PayPal settles it.
   */
  const reconcileDisputes = async (window: Window, tally: Tally) => {
    let token: string | undefined;
    do {
      const body = await gateway.listDisputes(window.from, token);
      const items = (body.items as Json[] | undefined) ?? [];
      for (const item of items) {
        const id = str(item.dispute_id) ?? '';
        tally.examined += 1;
        const dispute = await gateway.getDispute(id);
        const truth: PaypalTruth = { kind: 'adjustments', reports: paypalDisputeReports(dispute) };
        const { changes } = await ledger.track((unit) => events.apply(unit, 'reconcile', truth));
        tally.fixes.push(...changes.map((change) => `dispute ${id}: ${change}`));
      }
      const next = ((body.links as Json[] | undefined) ?? []).find((link) => str(link.rel) === 'next');
      token = next
        ? (new URL(str(next.href) ?? '', 'https://paypal.invalid').searchParams.get('next_page_token') ??
          undefined)
        : undefined;
    } while (token);
  };
  return {
    gateway: 'paypal',
    async reconcile(window: Window, tally: Tally) {
      // PayPal searches at most 31 days at a time: a longer window is read in slices.
      for (let from = window.from.getTime(); from < window.to.getTime(); from += SEARCH_DAYS * DAY_MS) {
        const to = new Date(Math.min(from + SEARCH_DAYS * DAY_MS, window.to.getTime()));
        await reconcileSlice(new Date(from), to, tally);
      }
      await reconcileDisputes(window, tally);
    },
  };
}
