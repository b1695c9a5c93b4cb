import { describe, expect, it } from 'vitest';
import { genresNamedBy } from './genre-match';

const genre = (name: string, slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-')) => ({
  id: slug,
  name,
  slug,
});
const GENRES = [
  'Ambient',
  'Classical',
  'Electronic',
  'Folk',
  'Hip-Hop',
  'Jazz',
  'Lo-Fi',
  'Pop',
  'R&B',
  'Rock',
].map((name) => genre(name));
const named = (term: string) => genresNamedBy(term, GENRES).map((found) => found.name);

describe('genresNamedBy', () => {
  it.each([
    ['jazz', ['Jazz']],
    ['jaz', ['Jazz']],
    ['elektronic', ['Electronic']],
    ['elec', ['Electronic']],
    ['hip hop', ['Hip-Hop']],
    ['hip-hop', ['Hip-Hop']],
    ['lofi', ['Lo-Fi']],
    ['lo fi', ['Lo-Fi']],
    ['smooth jazz', ['Jazz']],
    ['r&b', ['R&B']],
  ])('"%s" names %o', (term, expected) => {
    expect(named(term)).toEqual(expected);
  });

  it.each(['nova', 'harbour lights', 'j', 'the'])('"%s" names no genre', (term) => {
    expect(named(term)).toEqual([]);
  });
});
