import { afterEach, describe, expect, it, vi } from 'vitest';
import { CountCache } from '../src/modules/catalog/count-cache';

describe('CountCache', () => {
  afterEach(() => vi.useRealTimers());

  it('counts once per key until invalidated', async () => {
    const cache = new CountCache();
    const load = vi.fn().mockResolvedValueOnce(3).mockResolvedValueOnce(4);
    expect(await cache.get('songs', load)).toBe(3);
    expect(await cache.get('songs', load)).toBe(3);
    expect(load).toHaveBeenCalledTimes(1);
    cache.invalidate();
    expect(await cache.get('songs', load)).toBe(4);
  });

  it('shares one count between concurrent callers', async () => {
    const cache = new CountCache();
    const load = vi.fn(() => Promise.resolve(7));
    expect(await Promise.all([cache.get('k', load), cache.get('k', load)])).toEqual([7, 7]);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('counts again after the time to live', async () => {
    vi.useFakeTimers();
    const cache = new CountCache(1000);
    const load = vi.fn().mockResolvedValueOnce(1).mockResolvedValueOnce(2);
    expect(await cache.get('k', load)).toBe(1);
    vi.advanceTimersByTime(1001);
    expect(await cache.get('k', load)).toBe(2);
  });

  it('does not remember a failed count', async () => {
    const cache = new CountCache();
    const load = vi.fn().mockRejectedValueOnce(new Error('db down')).mockResolvedValueOnce(5);
    await expect(cache.get('k', load)).rejects.toThrow('db down');
    expect(await cache.get('k', load)).toBe(5);
  });

  it('keeps at most maxEntries keys', async () => {
    const cache = new CountCache(60_000, 2);
    const load = vi.fn(() => Promise.resolve(1));
    for (const key of ['a', 'b', 'c']) await cache.get(key, load);
    await cache.get('a', load);
    expect(load).toHaveBeenCalledTimes(4);
  });
});
