import { isTypoOf, toSearchText } from './search-text';
import type { GenreRow } from './genre.repository';

/** A genre's name as search compares it: normalised, with "-" and "&" read as spaces ("Hip-Hop" = "hip hop"). */
const spelled = (text: string) =>
  toSearchText(text)
    .replace(/[-&/]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * The genres a (normalised) search term names: the genre itself ("jazz"), the start of its name ("elec"), a few
 * typos away ("jaz", "elektronic"), or one of the term's words ("smooth jazz"). Name order, as the genres come.
 */
export function genresNamedBy(term: string, genres: readonly GenreRow[]): GenreRow[] {
  const query = spelled(term);
  if (query.length < 2) return [];
  const words = new Set(query.split(' '));
  return genres.filter((genre) => {
    const names = [spelled(genre.name), spelled(genre.slug)];
    return names.some(
      (name) =>
        name === query ||
        (query.length >= 3 && name.startsWith(query)) ||
        (query.length >= 3 && !query.includes(' ') && isTypoOf(query, name) && name.length >= 3) ||
        words.has(name) ||
        (name.includes(' ') && query.includes(name)),
    );
  });
}
