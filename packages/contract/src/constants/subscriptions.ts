// The plain values of subscriptions to an artist, without zod (see ./index.ts).
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
