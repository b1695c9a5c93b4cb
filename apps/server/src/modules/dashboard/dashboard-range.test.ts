import { describe, expect, it } from 'vitest';
import { periodEnd, periodOf, periodsOf, rangeTiers, resolveRange } from './dashboard-range';

describe('dashboard ranges', () => {
  it('defaults to the 30 days ending today, or 30 days from or to one bound', () => {
    expect(resolveRange({}, '2025-03-10')).toEqual({ from: '2025-02-09', to: '2025-03-10' });
    expect(resolveRange({ from: '2025-01-01' }, '2025-03-10')).toEqual({
      from: '2025-01-01',
      to: '2025-01-30',
    });
    expect(resolveRange({ to: '2024-03-01' }, '2025-03-10')).toEqual({
      from: '2024-02-01',
      to: '2024-03-01',
    });
  });

  it('reads whole months from month rows and the days around them from day rows', () => {
    expect(rangeTiers({ from: '2025-01-15', to: '2025-04-10' })).toEqual({
      days: { from: '2025-01-15', to: '2025-04-10' },
      months: { from: '2025-02-01', toExclusive: '2025-04-01' },
    });
    expect(rangeTiers({ from: '2025-02-01', to: '2025-02-28' }).months).toEqual({
      from: '2025-02-01',
      toExclusive: '2025-03-01',
    });
    expect(rangeTiers({ from: '2024-02-01', to: '2024-02-28' }).months).toBeNull(); // leap year: not whole
    expect(rangeTiers({ from: '2025-01-10', to: '2025-02-20' }).months).toBeNull();
    expect(rangeTiers({ from: '2024-12-01', to: '2025-01-31' }).months).toEqual({
      from: '2024-12-01',
      toExclusive: '2025-02-01',
    });
  });

  it('names periods by their first day: ISO weeks start on Monday, across years', () => {
    expect(periodOf('2025-01-01', 'week')).toBe('2024-12-30');
    expect(periodOf('2025-01-05', 'week')).toBe('2024-12-30');
    expect(periodOf('2025-01-06', 'week')).toBe('2025-01-06');
    expect(periodOf('2025-02-28', 'month')).toBe('2025-02-01');
    expect(periodsOf({ from: '2025-01-30', to: '2025-03-02' }, 'month')).toEqual([
      '2025-01-01',
      '2025-02-01',
      '2025-03-01',
    ]);
    expect(periodsOf({ from: '2024-12-31', to: '2025-01-02' }, 'day')).toEqual([
      '2024-12-31',
      '2025-01-01',
      '2025-01-02',
    ]);
    expect(periodEnd('2025-03-01', 'month', { from: '2025-01-30', to: '2025-03-02' })).toBe('2025-03-02');
    expect(periodEnd('2024-12-30', 'week', { from: '2025-01-01', to: '2025-01-31' })).toBe('2025-01-05');
  });
});
