import { describe, expect, it } from 'vitest';
import { INVALID_CYCLE_MESSAGE, InvalidCycleError, checkCycle, cyclePrice } from './subscription-cycles';

describe('subscription cycles (SPEC sections 5 and 9)', () => {
  it.each(['1m', '3m', '6m', '12m'])('accepts %s', (cycle) => {
    expect(checkCycle(cycle)).toBe(cycle);
  });

  it.each(['2m', '1y', '', '12M', 12, null, undefined])(
    'refuses %j with exactly the SPEC message',
    (cycle) => {
      expect(() => checkCycle(cycle)).toThrow(InvalidCycleError);
      expect(() => checkCycle(cycle)).toThrow(INVALID_CYCLE_MESSAGE);
      expect(INVALID_CYCLE_MESSAGE).toBe('Invalid subscription cycle. Use 1m, 3m, 6m, or 12m.');
    },
  );

  it('prices a cycle as the monthly price times its months', () => {
    expect([
      cyclePrice(399, '1m'),
      cyclePrice(399, '3m'),
      cyclePrice(399, '6m'),
      cyclePrice(399, '12m'),
    ]).toEqual([399, 1197, 2394, 4788]);
  });
});
