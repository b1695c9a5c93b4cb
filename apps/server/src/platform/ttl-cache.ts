/**
 * A small in-process LRU map whose entries also expire: the TTL bounds how long a changed database fact (a
 * re-upload's new prefix, a deleted song, an ended session) can be served when nobody invalidates the entry.
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; expiresAt: number }>();

  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs: number = Number.POSITIVE_INFINITY,
  ) {}

  get(key: K, now: number = Date.now()): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    // Re-insert to mark it most recently used (Map keeps insertion order).
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** `ttlMs` shortens (or lengthens) this entry's life, e.g. to end with the fact it caches. */
  set(key: K, value: V, now: number = Date.now(), ttlMs: number = this.ttlMs): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: now + ttlMs });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  /** Drops every entry the predicate selects (a scan: for rare invalidations, not per request). */
  deleteWhere(predicate: (value: V, key: K) => boolean): void {
    for (const [key, entry] of this.entries) {
      if (predicate(entry.value, key)) this.entries.delete(key);
    }
  }

  /** The cached value, or the loader's; concurrent misses each load (loads here are idempotent reads). */
  async getOrLoad(
    key: K,
    load: () => Promise<V>,
    shouldCache: (value: V) => boolean = () => true,
  ): Promise<V> {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    const value = await load();
    if (shouldCache(value)) this.set(key, value);
    return value;
  }
}
