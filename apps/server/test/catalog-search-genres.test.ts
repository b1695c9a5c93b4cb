import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogFixtures } from './catalog-fixtures';
import { createTestApp, type TestContext } from './test-app';

/* Genres are search results too: "jazz" finds the Jazz genre, and its songs and albums after the direct matches. */

let ctx: TestContext;
interface Results {
  artists: Array<{ name: string }>;
  songs: Array<{ title: string }>;
  albums: Array<{ title: string }>;
  genres: Array<{ _id: string; name: string; slug: string }>;
}
const search = async (q: string) => {
  const res = await ctx.app.inject({ method: 'GET', url: `/api/search?q=${encodeURIComponent(q)}` });
  expect(res.statusCode).toBe(200);
  return res.json<Results>();
};
const titles = (list: Array<{ title: string }>) => list.map((item) => item.title);

beforeAll(async () => {
  ctx = await createTestApp();
  const f = catalogFixtures(ctx.database);
  const jazz = await f.genre('Jazz');
  const hipHop = await f.genre('Hip-Hop');
  const mira = await f.artist({ name: 'Mira Okafor', genreId: jazz.id });
  const kairo = await f.artist({ name: 'Kairo', genreId: hipHop.id });
  const blue = await f.album({
    artistId: mira.id,
    artistName: 'Mira Okafor',
    title: 'Blue Hour',
    genreId: jazz.id,
  });
  await f.album({ artistId: kairo.id, artistName: 'Kairo', title: 'Block Party', genreId: hipHop.id });
  await f.song({
    artistId: mira.id,
    artistName: 'Mira Okafor',
    title: 'Quiet Corners',
    genreId: jazz.id,
    albumId: blue.id,
  });
  await f.song({ artistId: mira.id, artistName: 'Mira Okafor', title: 'Brass Weather', genreId: jazz.id });
  // A title that says "jazz" matches directly and comes first.
  await f.song({ artistId: kairo.id, artistName: 'Kairo', title: 'Jazz Sample Loop', genreId: hipHop.id });
  await f.song({ artistId: kairo.id, artistName: 'Kairo', title: 'Concrete Garden', genreId: hipHop.id });
});
afterAll(() => ctx.close());

describe('GET /api/search: genres', () => {
  it('lists the genre and its songs and albums, after the songs that match by title', async () => {
    const body = await search('jazz');
    expect(body.genres).toEqual([
      { _id: expect.any(String) as unknown as string, name: 'Jazz', slug: 'jazz' },
    ]);
    expect(titles(body.songs)).toEqual(['Jazz Sample Loop', 'Brass Weather', 'Quiet Corners']);
    expect(titles(body.albums)).toEqual(['Blue Hour']);
  });

  it('forgives a typo and a spelling of the name ("jaz", "hip hop")', async () => {
    expect((await search('jaz')).genres.map((genre) => genre.name)).toEqual(['Jazz']);
    const hipHop = await search('hip hop');
    expect(hipHop.genres.map((genre) => genre.name)).toEqual(['Hip-Hop']);
    expect(titles(hipHop.songs).sort()).toEqual(['Concrete Garden', 'Jazz Sample Loop']);
  });

  it('lists no genre for a term that names none, and no song twice', async () => {
    const body = await search('quiet');
    expect(body.genres).toEqual([]);
    expect(titles(body.songs)).toEqual(['Quiet Corners']);
  });

  it('documents the genres list in the OpenAPI document', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const answer = doc.paths['/api/search'].get.responses['200'].content['application/json'].schema;
    expect(Object.keys(answer.properties as object).sort()).toEqual(['albums', 'artists', 'genres', 'songs']);
  });
});
