import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  periodEnd,
  periodOf,
  periodsOf,
  previousRange,
  rangeDays,
  rangeTiers,
  resolveRange,
} from './dashboard-range';

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

describe('the previous period a range is compared with', () => {
  it('is as long as the range and ends the day before it', () => {
    expect(previousRange({ from: '2025-02-09', to: '2025-03-10' })).toEqual({
      from: '2025-01-10',
      to: '2025-02-08',
    });
    expect(previousRange({ from: '2025-03-10', to: '2025-03-10' })).toEqual({
      from: '2025-03-09',
      to: '2025-03-09',
    });
    // A month is compared with the same number of days before it, not with the previous month.
    expect(previousRange({ from: '2025-03-01', to: '2025-03-31' })).toEqual({
      from: '2025-01-29',
      to: '2025-02-28',
    });
    // Across a leap day and a year.
    expect(previousRange({ from: '2024-03-01', to: '2024-03-07' })).toEqual({
      from: '2024-02-23',
      to: '2024-02-29',
    });
    expect(previousRange({ from: '2025-01-01', to: '2025-01-14' })).toEqual({
      from: '2024-12-18',
      to: '2024-12-31',
    });
  });

  it('invariant: same length, contiguous, before the range', () => {
    const day = fc.integer({ min: 0, max: 20_000 }).map((offset) => addDays('1990-01-01', offset));
    fc.assert(
      fc.property(day, fc.integer({ min: 1, max: 800 }), (from, days) => {
        const range = { from, to: addDays(from, days - 1) };
        const previous = previousRange(range);
        expect(rangeDays(range)).toBe(days);
        expect(rangeDays(previous)).toBe(days);
        expect(addDays(previous.to, 1)).toBe(range.from);
      }),
    );
  });
});
