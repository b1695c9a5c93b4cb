/** Pure helpers for reordering a playlist (keyboard buttons and drag and drop share them). */

/** A copy of `items` with the item at `from` moved to index `to`; out-of-range moves return an unchanged copy. */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const copy = [...items];
  if (from === to || from < 0 || from >= copy.length || to < 0 || to >= copy.length) return copy;
  const [moved] = copy.splice(from, 1);
  copy.splice(to, 0, moved as T);
  return copy;
}

/**
 * `items` in the order of `ids`. Items whose id is not listed keep their relative order at the end, and ids
 * without an item are ignored, so a stale order never loses a song.
 */
export function moveToOrder<T extends { _id: string }>(items: readonly T[], ids: readonly string[]): T[] {
  const byId = new Map(items.map((item) => [item._id, item]));
  const ordered: T[] = [];
  for (const id of ids) {
    const item = byId.get(id);
    if (item) {
      ordered.push(item);
      byId.delete(id);
    }
  }
  return [...ordered, ...byId.values()];
}

/**
 * Where a dragged row lands: dropping on the upper half of a row puts it before that row, on the lower half
 * after it. Returns the target index for `moveItem`, or null when nothing moves.
 */
export function dropIndex(from: number, over: number, after: boolean): number | null {
  let to = after ? over + 1 : over;
  if (from < to) to -= 1;
  return to === from ? null : to;
}
