/** Deterministic pseudo-random numbers for generated demo content: the same seed always gives the same output. */

/** murmur3's finaliser: neighbouring seeds (1, 2, 3...) become unrelated starting states. */
function scramble(seed: number): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** mulberry32, a tiny 32-bit generator: numbers in [0, 1). Not for anything secret. */
export function seededRandom(seed: number): () => number {
  let state = scramble(seed);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}
