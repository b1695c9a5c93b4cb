/**
 * The contract's payment values, from its zod-free entry point (the schemas stay out of the web bundle), next to
 * the web's own texts.
 */
export {
  PAYMENT_ERROR_CODES,
  PAYMENT_MESSAGES,
  SANDBOX_CHECKOUT_LABEL,
  SUBSCRIPTION_MESSAGES,
} from '@backbeat/contract/constants';

export const COMMERCE_MESSAGES = {
  paymentFailed: 'Payment failed',
  orderFailed: 'Failed to fetch order',
} as const;

export const PAYMENT_RESULT_PATHS = { success: '/payment-success', fail: '/payment-fail' } as const;
