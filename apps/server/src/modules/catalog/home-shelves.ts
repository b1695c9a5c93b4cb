/** One shelf of the home page before de-duplication: its candidates, best first, and how many it shows. */
export interface ShelfCandidates<T> {
  rows: readonly T[];
  limit: number;
}

/**
 * Fills the shelves in order (the page's order: earlier shelves win a song), each with its best candidates that no
 * earlier shelf took, up to its limit: no song appears twice on the page, and a shelf whose first picks were taken
 * falls back on its next candidates rather than showing fewer.
 */
export function dedupeShelves<T extends { id: string }>(shelves: ReadonlyArray<ShelfCandidates<T>>): T[][] {
  const taken = new Set<string>();
  return shelves.map(({ rows, limit }) => {
    const shelf: T[] = [];
    for (const row of rows) {
      if (shelf.length >= limit) break;
      if (taken.has(row.id)) continue;
      taken.add(row.id);
      shelf.push(row);
    }
    return shelf;
  });
}
