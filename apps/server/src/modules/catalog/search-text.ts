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
