import {
  INVALID_CYCLE_MESSAGE,
  SUBSCRIPTION_CYCLE_MONTHS,
  SUBSCRIPTION_CYCLES,
  type SubscriptionCycle,
} from '@backbeat/contract/constants';

/**
 * SPEC section 9: the subscription cycles and section 5's exact refusal of any other (no call is made), from the
 * contract's zod-free entry point.
 */
export { INVALID_CYCLE_MESSAGE, SUBSCRIPTION_CYCLES };

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
  return monthly * SUBSCRIPTION_CYCLE_MONTHS[cycle];
}
