import { describe, expect, it } from 'vitest';
import { addMonths, formatMoney } from '@backbeat/contract';
import { subscriptionTitle } from '../src/modules/payments/offers';

describe('payment money helpers', () => {
  it('formats minor units in the currency', () => {
    expect(formatMoney(129, 'USD')).toBe('$1.29');
    expect(formatMoney(500, 'JPY')).toBe('¥500');
    expect(formatMoney(99, 'ZZZ')).toMatch(/0\.99/);
  });

  it('adds calendar months, clamping to the end of a shorter month', () => {
    expect(addMonths(new Date('2025-01-31T10:00:00Z'), 1).toISOString()).toBe('2025-02-28T10:00:00.000Z');
    expect(addMonths(new Date('2024-01-31T10:00:00Z'), 1).toISOString()).toBe('2024-02-29T10:00:00.000Z');
    expect(addMonths(new Date('2025-11-15T00:00:00Z'), 3).toISOString()).toBe('2026-02-15T00:00:00.000Z');
    expect(addMonths(new Date('2025-03-31T23:59:59Z'), 12).toISOString()).toBe('2026-03-31T23:59:59.000Z');
  });

  it('names a subscription by its artist and period', () => {
    expect(subscriptionTitle('Nova Reyes', 1)).toBe('Nova Reyes · monthly subscription');
    expect(subscriptionTitle('Nova Reyes', 3)).toBe('Nova Reyes · 3-month subscription');
    expect(subscriptionTitle('Nova Reyes', 12)).toBe('Nova Reyes · yearly subscription');
    expect(subscriptionTitle('', 6)).toBe('Artist · 6-month subscription');
  });
});
