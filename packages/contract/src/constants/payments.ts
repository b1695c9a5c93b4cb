// The plain values of payments, without zod (see ./index.ts).
/** Shown on the demo checkout; the sandbox never moves money. */
export const SANDBOX_CHECKOUT_LABEL = 'Demo payment - no money moves';

export const PAYMENT_MESSAGES = {
  paid: 'Payment complete',
  declined: 'Payment declined',
} as const;

/** Error codes of the payment calls, next to the common ones (VALIDATION_ERROR, NOT_FOUND, ...). */
export const PAYMENT_ERROR_CODES = {
  amountMismatch: 'AMOUNT_MISMATCH',
  alreadyOwned: 'ALREADY_OWNED',
  notForSale: 'NOT_FOR_SALE',
  orderDecided: 'ORDER_ALREADY_DECIDED',
  gatewayUnavailable: 'GATEWAY_UNAVAILABLE',
  notSubscribed: 'NOT_SUBSCRIBED',
  invalidCycle: 'INVALID_CYCLE',
  invalidSignature: 'INVALID_SIGNATURE',
  gatewayError: 'GATEWAY_ERROR',
  paymentDeclined: 'PAYMENT_DECLINED',
  notRefundable: 'NOT_REFUNDABLE',
  tooManyOrders: 'TOO_MANY_ORDERS',
  amountTooSmall: 'AMOUNT_TOO_SMALL',
} as const;
