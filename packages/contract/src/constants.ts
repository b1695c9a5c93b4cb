/**
 * The contract's plain values (limits, messages, error codes), without zod: the web imports them from
 * `@backbeat/contract/constants` instead of restating them, and its bundle stays free of the schemas. Each value is
 * also exported from the module of its calls (payments, playlists, catalog), as before.
 */

// ---------------------------------------------------------------------------------------------------------------
// Catalogue writes

/** The highest price a form may set, in minor units (1000.00). */
export const MAX_PRICE_MINOR = 100_000;

// ---------------------------------------------------------------------------------------------------------------
// Playlists

/** Limits enforced by the server (and shown by the web app before it asks). */
export const PLAYLIST_LIMITS = {
  nameLength: 100,
  descriptionLength: 500,
  songsPerPlaylist: 500,
  playlistsPerUser: 200,
} as const;

// ---------------------------------------------------------------------------------------------------------------
// Payments

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

// ---------------------------------------------------------------------------------------------------------------
// Subscriptions to an artist

export const SUBSCRIPTION_CYCLES = ['1m', '3m', '6m', '12m'] as const;
export type SubscriptionCycle = (typeof SUBSCRIPTION_CYCLES)[number];
/** Months paid for by one order of each cycle; the price is the artist's monthly price times the months. */
export const SUBSCRIPTION_CYCLE_MONTHS: Record<SubscriptionCycle, number> = {
  '1m': 1,
  '3m': 3,
  '6m': 6,
  '12m': 12,
};

/** The exact refusal of any other cycle (SPEC section 5). */
export const INVALID_CYCLE_MESSAGE = 'Invalid subscription cycle. Use 1m, 3m, 6m, or 12m.';

/**
 * `DELETE /api/subscriptions/artist/:id` -> `{ message: 'Subscription cancelled' }`. The subscription still plays
 * until the end of the period paid for; without an active subscription the answer is 404 NOT_SUBSCRIBED.
 */
export const SUBSCRIPTION_MESSAGES = {
  cancelled: 'Subscription cancelled',
} as const;
