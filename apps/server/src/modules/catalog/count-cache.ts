/**
 * Totals of the public paged lists ("how many ready songs", "how many in this genre"), kept briefly in memory.
 * A count visits every matching row, so on a large catalogue it costs far more than the page itself; with the
 * cache, list latency stays flat as the catalogue grows.
 *
 * Invalidation: every catalogue write and every finished transcode, in this process or another instance or worker
 * (the change bus), clears the cache. `ttlMs` bounds what nobody announces: a direct database write, or a notice
 * lost while the bus reconnected (totals only; the rows of a page are always read fresh).
 */
export class CountCache {
  private readonly entries = new Map<string, { value: Promise<number>; expiresAt: number }>();

  constructor(
    private readonly ttlMs = 30_000,
    private readonly maxEntries = 5_000,
  ) {}

  get(key: string, load: () => Promise<number>): Promise<number> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > now) return hit.value;
    const value = load();
    const entry = { value, expiresAt: now + this.ttlMs };
    this.entries.set(key, entry);
    // A failed count is not remembered (unless a newer entry replaced it already).
    value.catch(() => this.entries.get(key) === entry && this.entries.delete(key));
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }

  invalidate(): void {
    this.entries.clear();
  }
}

/** For repositories used without a cache (inside write transactions, in tests): always counts. */
export const NO_COUNT_CACHE = { get: (_key: string, load: () => Promise<number>) => load() };
export type CountSource = Pick<CountCache, 'get'>;
