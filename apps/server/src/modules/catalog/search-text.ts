/**
 * The one normaliser for search: applied to `search_text` columns on write and to the query on read, so that
 * "Beyoncé", "BEYONCE" and "beyonce" meet. NFD splits accented letters into letter + combining mark; the marks
 * are dropped, the rest lower-cased and whitespace collapsed.
 */
export function toSearchText(value: string): string {
  return value
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** Song and album search text also carries the artist's name, so "nova" finds Nova Reyes' songs. */
export const titleSearchText = (title: string, artistName: string) => toSearchText(`${title} ${artistName}`);

/** A URL slug for a genre name: "R&B" -> "randb", "Lo-Fi" -> "lo-fi", "Hip Hop" -> "hip-hop". */
export function toSlug(name: string): string {
  return toSearchText(name)
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * Edits (insert, delete, substitute, swap two neighbours) turning `a` into `b`: the optimal string alignment
 * distance, computed only up to `max` (anything larger answers `max + 1`).
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before = Array.from({ length: b.length + 1 }, (_, j) => j);
  let previous = before;
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, before[j - 2]! + 1);
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > max) return max + 1;
    before = previous;
    previous = current;
  }
  return Math.min(previous[b.length]!, max + 1);
}

/** Typos forgiven in a word of this length: one up to 4 letters, two up to 8, three beyond. */
export const allowedTypos = (length: number) => (length <= 4 ? 1 : length <= 8 ? 2 : 3);

/** Whether `word` is `term` with a few typos, or starts with such a misspelling of it ("ligth" -> "lighthouse"). */
export function isTypoOf(term: string, word: string): boolean {
  const max = allowedTypos(term.length);
  return editDistance(term, word, max) <= max || editDistance(term, word.slice(0, term.length), max) <= max;
}
