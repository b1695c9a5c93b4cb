import { describe, expect, it } from 'vitest';
import { ByteBudgetCache } from './stream-media';

const bytes = (n: number, fill = 1) => Buffer.alloc(n, fill);

describe('ByteBudgetCache', () => {
  it('evicts the least recently used buffers once the byte budget is exceeded', () => {
    const cache = new ByteBudgetCache(10, 10);
    cache.set('a', bytes(4));
    cache.set('b', bytes(4));
    expect(cache.get('a')).toBeDefined(); // a is now the most recent
    cache.set('c', bytes(4));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    expect(cache.size).toBe(8);
  });

  it('never keeps a buffer larger than the entry limit, and replacing a key keeps the count exact', () => {
    const cache = new ByteBudgetCache(100, 5);
    cache.set('big', bytes(6));
    expect(cache.get('big')).toBeUndefined();
    cache.set('k', bytes(5, 1));
    cache.set('k', bytes(3, 2));
    expect(cache.size).toBe(3);
    expect(cache.get('k')?.[0]).toBe(2);
  });
});
