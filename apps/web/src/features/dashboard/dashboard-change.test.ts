import { describe, expect, it } from 'vitest';
import { daysIn, describeChange } from './dashboard-change';

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

describe('describeChange', () => {
  it('gives a whole percentage against the previous period', () => {
    expect(describeChange(112, 100)).toEqual({ direction: 'up', text: '+12%' });
    expect(describeChange(92, 100)).toEqual({ direction: 'down', text: '\u22128%' });
    expect(describeChange(300, 100)).toEqual({ direction: 'up', text: '+200%' });
  });

  it('says "No change" for equal figures, zeros included', () => {
    expect(describeChange(0, 0)).toEqual({ direction: 'same', text: 'No change' });
    expect(describeChange(42, 42).text).toBe('No change');
  });

  it('gives the difference itself from nothing, never an infinite percentage', () => {
    expect(describeChange(499, 0, dollars)).toEqual({ direction: 'up', text: '+$4.99' });
    expect(describeChange(3, 0)).toEqual({ direction: 'up', text: '+3' });
  });

  it('gives the difference when the move is under half a percent', () => {
    expect(describeChange(100_001, 100_000, dollars)).toEqual({ direction: 'up', text: '+$0.01' });
  });

  it('measures a fall from a negative period (net revenue after refunds) by its size', () => {
    expect(describeChange(-200, -100)).toEqual({ direction: 'down', text: '\u2212100%' });
    expect(describeChange(100, -100)).toEqual({ direction: 'up', text: '+200%' });
  });
});

describe('daysIn', () => {
  it('counts both ends, across months and a leap day', () => {
    expect(daysIn({ from: '2025-02-01', to: '2025-02-28' })).toBe(28);
    expect(daysIn({ from: '2024-02-01', to: '2024-03-01' })).toBe(30);
    expect(daysIn({ from: '2025-03-10', to: '2025-03-10' })).toBe(1);
  });
});
