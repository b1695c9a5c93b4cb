import { describe, expect, it } from 'vitest';
import { dropIndex, moveItem, moveToOrder } from './playlist-order';

const song = (id: string) => ({ _id: id, title: id.toUpperCase() });

describe('moveItem', () => {
  it('moves an item down and up', () => {
    expect(moveItem(['a', 'b', 'c', 'd'], 0, 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(moveItem(['a', 'b', 'c', 'd'], 3, 1)).toEqual(['a', 'd', 'b', 'c']);
  });

  it('returns an unchanged copy for a move out of range or onto itself', () => {
    const items = ['a', 'b'];
    for (const [from, to] of [
      [0, 0],
      [-1, 1],
      [0, 2],
      [2, 0],
    ] as const) {
      const moved = moveItem(items, from, to);
      expect(moved).toEqual(items);
      expect(moved).not.toBe(items);
    }
  });

  it('always returns a permutation of its input', () => {
    const items = ['a', 'b', 'c', 'd', 'e'];
    for (let from = -1; from <= items.length; from++) {
      for (let to = -1; to <= items.length; to++) {
        expect([...moveItem(items, from, to)].sort()).toEqual(items);
      }
    }
  });
});

describe('moveToOrder', () => {
  it('orders items by id', () => {
    const items = [song('a'), song('b'), song('c')];
    expect(moveToOrder(items, ['c', 'a', 'b']).map((s) => s._id)).toEqual(['c', 'a', 'b']);
  });

  it('keeps unlisted items at the end and ignores unknown ids', () => {
    const items = [song('a'), song('b'), song('c')];
    expect(moveToOrder(items, ['x', 'c']).map((s) => s._id)).toEqual(['c', 'a', 'b']);
  });

  it('lists each item once even when an id repeats', () => {
    const items = [song('a'), song('b')];
    expect(moveToOrder(items, ['b', 'b', 'a']).map((s) => s._id)).toEqual(['b', 'a']);
  });
});

describe('dropIndex', () => {
  it('drops before or after the row it is over', () => {
    // Dragging row 0 over row 2: upper half lands at 1, lower half at 2.
    expect(dropIndex(0, 2, false)).toBe(1);
    expect(dropIndex(0, 2, true)).toBe(2);
    // Dragging row 3 over row 1: upper half lands at 1, lower half at 2.
    expect(dropIndex(3, 1, false)).toBe(1);
    expect(dropIndex(3, 1, true)).toBe(2);
  });

  it('answers null when the row would stay where it is', () => {
    expect(dropIndex(2, 2, false)).toBeNull();
    expect(dropIndex(2, 2, true)).toBeNull();
    expect(dropIndex(2, 1, true)).toBeNull();
    expect(dropIndex(2, 3, false)).toBeNull();
  });
});
