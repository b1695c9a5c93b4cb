import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editDistance, isTypoOf } from '../src/modules/catalog/search-text';
import { catalogFixtures, multipartForm } from './catalog-fixtures';
import { createTestApp, type TestContext } from './test-app';

let ctx: TestContext;
let f: ReturnType<typeof catalogFixtures>;
let admin: Awaited<ReturnType<typeof f.user>>;
let artistId: string;

const words = async () =>
  (await ctx.database.query<{ word: string }>(sql`select word from search_words`)).map((row) => row.word);
const search = async (q: string) => {
  const res = await ctx.app.inject({ method: 'GET', url: `/api/search?q=${encodeURIComponent(q)}` });
  expect(res.statusCode).toBe(200);
  return res.json() as { artists: Array<{ name: string }>; songs: Array<{ title: string }> };
};

beforeAll(async () => {
  ctx = await createTestApp();
  f = catalogFixtures(ctx.database);
  admin = await f.user('admin');
  artistId = (await f.artist({ name: 'Harbor Lights' })).id;
  await f.song({ artistId, artistName: 'Harbor Lights', title: 'Lighthouse Keeper' });
  await f.song({ artistId, artistName: 'Harbor Lights', title: 'Twilight Drive' });
  await f.song({ artistId, artistName: 'Harbor Lights', title: 'Love Song 10' });
});
afterAll(() => ctx.close());

describe('search_words dictionary', () => {
  it('holds every word of the search texts, kept by the database on insert and update', async () => {
    expect(await words()).toEqual(
      expect.arrayContaining(['harbor', 'lights', 'lighthouse', 'keeper', 'twilight']),
    );
    const res = await ctx.app.inject({
      method: 'PUT',
      url: `/api/artists/${artistId}`,
      headers: admin.headers,
      payload: multipartForm({ name: 'Zanzibar Quartet' }),
    });
    expect(res.statusCode).toBe(200);
    expect(await words()).toEqual(expect.arrayContaining(['zanzibar', 'quartet']));
  });

  it('corrects a misspelt word to the catalogue words a few typos away, closest first', async () => {
    expect((await search('lighthuose')).songs.map((s) => s.title)).toEqual(['Lighthouse Keeper']);
    expect((await search('zanzibr')).artists.map((a) => a.name)).toEqual(['Zanzibar Quartet']);
    // "10" is similar to "100" by trigrams, but two edits away from a four-letter query: not a typo of it.
    expect((await search('100%')).songs).toEqual([]);
  });

  it('measures typos as insertions, deletions, substitutions and swaps', () => {
    expect(editDistance('lighthuose', 'lighthouse', 3)).toBe(1);
    expect(editDistance('oprea', 'opera', 2)).toBe(1);
    expect(editDistance('kitten', 'sitting', 5)).toBe(3);
    expect(editDistance('abc', 'xyzxyz', 2)).toBe(3);
    expect(isTypoOf('ligth', 'lighthouse')).toBe(true);
    expect(isTypoOf('100%', '10')).toBe(false);
    expect(isTypoOf('beyonse', 'beyonce')).toBe(true);
  });
});
