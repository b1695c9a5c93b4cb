import type {
  PAYMENT_ERROR_CODES as ContractErrorCodes,
  PAYMENT_MESSAGES as ContractMessages,
  SANDBOX_CHECKOUT_LABEL as ContractSandboxLabel,
  SUBSCRIPTION_MESSAGES as ContractSubscriptionMessages,
} from '@backbeat/contract';

/*
 * The contract's constants, restated here because the web imports only types from the contract (zod stays out of
 * the bundle). The `typeof` annotations make the compiler fail if the two ever drift apart.
 */

/** The demo checkout's label (ARCHITECTURE section 5). */
export const SANDBOX_CHECKOUT_LABEL: typeof ContractSandboxLabel = 'Demo payment - no money moves';

export const PAYMENT_MESSAGES: typeof ContractMessages = {
  paid: 'Payment complete',
  declined: 'Payment declined',
};

export const PAYMENT_ERROR_CODES: typeof ContractErrorCodes = {
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
};

export const SUBSCRIPTION_MESSAGES: typeof ContractSubscriptionMessages = {
  /** SPEC section 4: a cancelled subscription shows the server's message, else this. */
  cancelled: 'Subscription cancelled',
};

export const COMMERCE_MESSAGES = {
  paymentFailed: 'Payment failed',
  orderFailed: 'Failed to fetch order',
} as const;

export const PAYMENT_RESULT_PATHS = { success: '/payment-success', fail: '/payment-fail' } as const;
