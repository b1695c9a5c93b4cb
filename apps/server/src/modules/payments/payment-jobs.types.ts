/** The durable jobs through which the ledger acts on a gateway after its transaction committed. */
export const PAYMENT_JOBS = {
  /** Gives back money that must not buy anything (a capture of another amount, a second payment). */
  autoRefund: 'payment-auto-refund',
  /** Makes an order that can no longer be paid unpayable at its gateway (a superseded or expired checkout). */
  cancelCheckout: 'payment-cancel-checkout',
  /** Stops a gateway subscription renewing (after a refund, or a duplicate subscription). */
  cancelSubscription: 'payment-cancel-subscription',
  /** Expires abandoned orders (recurring). */
  expireOrders: 'payment-expire-orders',
  /** Lists each gateway's recent activity and applies what webhooks missed (recurring). */
  reconcile: 'payment-reconcile',
} as const;

/**
 * Attempts of the jobs above: with the runner's backoff (2 s, 8 s, 32 s ... capped at 10 minutes) ten attempts
 * span about an hour of a gateway's outage; the last failure is listed for the admin as a payment issue.
 */
export const AUTO_JOB_ATTEMPTS = 10;

export interface AutoRefundJob {
  orderId: string;
  /** The gateway's id of the money to give back. */
  paymentId: string;
  reason: 'amount_mismatch' | 'duplicate_payment';
}
