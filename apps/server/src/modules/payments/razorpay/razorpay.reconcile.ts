import type { AdjustmentsRepository } from '../adjustments.repository';
import type { PaymentLedger } from '../payment-ledger';
import type { ReconciliationSource, Tally, Window } from '../reconciliation';
import type { RzpDispute, RzpPayment, RzpRefund } from './razorpay-api';
import { razorpayDisputeReports, razorpayRefundReport, type RazorpayGateway } from './razorpay.gateway';
import type { RazorpayService } from './razorpay.service';

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * Razorpay has no event list: reconciliation reads the payments, refunds and disputes created in the window
 * (`GET /v1/payments`, `/v1/refunds`, `/v1/disputes`) and applies each as its webhook would (an authorized payment
 * of ours is captured first). A captured payment no order or subscription knows is an issue.
 */
export function razorpayReconciliation(
  gateway: RazorpayGateway,
  service: RazorpayService,
  ledger: PaymentLedger,
  adjustments: AdjustmentsRepository,
): ReconciliationSource {
  const api = gateway.api;
  return {
    gateway: 'razorpay',
    async reconcile(window: Window, tally: Tally) {
      const from = seconds(window.from);
      const to = seconds(window.to);
      for await (const payment of api.list<RzpPayment>('payments', from, to)) {
        tally.examined += 1;
        const truth = await service.paymentTruth(payment.id);
        const { result, changes } = await ledger.track((unit) => service.apply(unit, 'reconcile', truth));
        tally.fixes.push(...changes.map((change) => `payment ${payment.id}: ${change}`));
        const taken = payment.status === 'captured' || payment.status === 'refunded';
        if (result.status === 'unknown_order' || (taken && result.note === 'a payment without an order')) {
          tally.problems += 1;
          await adjustments.openIssue({
            gateway: 'razorpay',
            kind: 'unknown_payment',
            externalId: payment.id,
            amount: Number(payment.amount),
            currency: payment.currency.toUpperCase(),
            detail: `a payment no order knows (${result.note ?? payment.status})`,
            at: ledger.now(),
          });
        }
      }
      for await (const refund of api.list<RzpRefund>('refunds', from, to)) {
        tally.examined += 1;
        if (refund.status !== 'processed') continue;
        const { changes } = await ledger.track((unit) => ledger.adjust(unit, razorpayRefundReport(refund)));
        tally.fixes.push(...changes.map((change) => `refund ${refund.id}: ${change}`));
      }
      for await (const dispute of api.list<RzpDispute>('disputes', from, to)) {
        tally.examined += 1;
        for (const report of razorpayDisputeReports(dispute)) {
          const { changes } = await ledger.track((unit) => ledger.adjust(unit, report));
          tally.fixes.push(...changes.map((change) => `dispute ${dispute.id}: ${change}`));
        }
      }
    },
  };
}
