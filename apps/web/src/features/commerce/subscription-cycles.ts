import type { SubscriptionCycle } from '@backbeat/contract';

/** SPEC section 9: the subscription cycles, restated (the web imports only types from the contract). */
export const SUBSCRIPTION_CYCLES: readonly SubscriptionCycle[] = ['1m', '3m', '6m', '12m'];

/** SPEC section 5: the exact refusal of any other cycle; no call is made. */
export const INVALID_CYCLE_MESSAGE = 'Invalid subscription cycle. Use 1m, 3m, 6m, or 12m.';

export const CYCLE_MONTHS: Record<SubscriptionCycle, number> = { '1m': 1, '3m': 3, '6m': 6, '12m': 12 };

export const CYCLE_LABEL: Record<SubscriptionCycle, string> = {
  '1m': 'Monthly',
  '3m': 'Every 3 months',
  '6m': 'Every 6 months',
  '12m': 'Yearly',
};

/** "/month", " every 3 months", "/year". */
export const CYCLE_SUFFIX: Record<SubscriptionCycle, string> = {
  '1m': '/month',
  '3m': ' every 3 months',
  '6m': ' every 6 months',
  '12m': '/year',
};

export class InvalidCycleError extends Error {
  constructor() {
    super(INVALID_CYCLE_MESSAGE);
  }
}

/** The cycle, or the SPEC's refusal: checked before any subscription call. */
export function checkCycle(value: unknown): SubscriptionCycle {
  if (typeof value === 'string' && (SUBSCRIPTION_CYCLES as readonly string[]).includes(value)) {
    return value as SubscriptionCycle;
  }
  throw new InvalidCycleError();
}

/** The price of one cycle: the artist's monthly price times its months (the server prices the same way). */
export function cyclePrice(monthly: number, cycle: SubscriptionCycle): number {
  return monthly * CYCLE_MONTHS[cycle];
}
