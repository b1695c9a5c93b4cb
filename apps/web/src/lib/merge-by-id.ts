/**
 * Merges a later page into a list without duplicate ids (SPEC: later pages merge without duplicate ids): an item
 * already shown keeps its place and takes the newer copy's content; new items are appended in the page's order.
 * A list that shifted between two requests (an item added or removed before the page boundary) repeats an item
 * across pages; the merge shows it once.
 */
export function mergeById<T extends { _id: string }>(current: readonly T[], incoming: readonly T[]): T[] {
  const fresh = new Map(incoming.map((item) => [item._id, item]));
  const merged = current.map((item) => fresh.get(item._id) ?? item);
  const seen = new Set(merged.map((item) => item._id));
  for (const item of incoming) {
    if (!seen.has(item._id)) {
      seen.add(item._id);
      merged.push(item);
    }
  }
  return merged;
}

/** Pages in order (the first page first), merged into one list without duplicate ids. */
export function mergePages<T extends { _id: string }>(pages: ReadonlyArray<readonly T[]>): T[] {
  return pages.reduce<T[]>((list, page) => mergeById(list, page), []);
}
