import { describe, expect, it } from 'vitest';
import { isPermutation } from './playlists.service';

describe('isPermutation', () => {
  it('accepts every song exactly once, in any order', () => {
    expect(isPermutation(['a', 'b', 'c'], ['c', 'a', 'b'])).toBe(true);
    expect(isPermutation([], [])).toBe(true);
  });

  it('refuses a missing, extra, repeated or unknown song', () => {
    expect(isPermutation(['a', 'b', 'c'], ['a', 'b'])).toBe(false);
    expect(isPermutation(['a', 'b'], ['a', 'b', 'c'])).toBe(false);
    expect(isPermutation(['a', 'b', 'c'], ['a', 'a', 'b'])).toBe(false);
    expect(isPermutation(['a', 'b', 'c'], ['a', 'b', 'x'])).toBe(false);
  });
});
