import { sql, type SQLWrapper } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchRepository } from '../src/modules/catalog/search.repository';
import { toSearchText } from '../src/modules/catalog/search-text';
import { catalogFixtures } from './catalog-fixtures';
import { createTestApp, type TestContext } from './test-app';

let ctx: TestContext;
let f: ReturnType<typeof catalogFixtures>;
const search = async (q: string, headers: Record<string, string> = {}) => {
  const res = await ctx.app.inject({ method: 'GET', url: `/api/search?q=${encodeURIComponent(q)}`, headers });
  expect(res.statusCode).toBe(200);
  return res.json() as {
    artists: Array<{ name: string }>;
    songs: Array<{ title: string; canPlay: boolean }>;
    albums: Array<{ title: string }>;
  };
};
const names = (list: Array<{ name?: string; title?: string }>) => list.map((item) => item.name ?? item.title);

beforeAll(async () => {
  ctx = await createTestApp();
  f = catalogFixtures(ctx.database);
  const queensAge = await f.artist({ name: 'Queens of the Stone Age' });
  const bees = await f.artist({ name: 'The Queen Bees' });
  const queen = await f.artist({ name: 'Queen' });
  const beyonce = await f.artist({ name: 'Beyoncé' });
  await f.artist({ name: 'Unrelated Orchestra' });
  await f.song({ artistId: queen.id, artistName: 'Queen', title: 'Bohemian Rhapsody' });
  await f.song({
    artistId: queen.id,
    artistName: 'Queen',
    title: 'Hidden Rhapsody Demo',
    status: 'processing',
  });
  await f.song({ artistId: beyonce.id, artistName: 'Beyoncé', title: 'Halo' });
  await f.song({ artistId: bees.id, artistName: 'The Queen Bees', title: '100% Pure' });
  await f.song({ artistId: bees.id, artistName: 'The Queen Bees', title: 'abc' });
  for (let i = 1; i <= 25; i++) await f.song({ artistId: queensAge.id, title: `Love Song ${i}` });
  await f.album({ artistId: queen.id, artistName: 'Queen', title: 'A Night at the Opera' });
  await f.album({ artistId: beyonce.id, artistName: 'Beyoncé', title: 'Lemonade' });
});
afterAll(() => ctx.close());

describe('toSearchText', () => {
  it('lower-cases, strips accents and collapses spaces', () => {
    expect(toSearchText('  Beyoncé   KNOWLES ')).toBe('beyonce knowles');
    expect(toSearchText('Sigur Rós — Ágætis byrjun')).toBe('sigur ros — agætis byrjun');
    expect(toSearchText('Ｃｏｆｆｅｅ')).toBe('ｃｏｆｆｅｅ');
  });
});

describe('GET /api/search', () => {
  it("answers artists, songs and albums (the SPEC's three lists), and genres", async () => {
    const body = await search('queen');
    expect(Object.keys(body).sort()).toEqual(['albums', 'artists', 'genres', 'songs']);
  });

  it('ranks exact, then prefix, then word matches', async () => {
    expect(names((await search('queen')).artists)).toEqual([
      'Queen',
      'Queens of the Stone Age',
      'The Queen Bees',
    ]);
  });

  it('ignores case and accents on both sides', async () => {
    expect(names((await search('beyonce')).artists)).toEqual(['Beyoncé']);
    expect(names((await search('BEYONCÉ')).artists)).toEqual(['Beyoncé']);
    expect(names((await search('lemonade')).albums)).toEqual(['Lemonade']);
  });

  it('tolerates typos', async () => {
    expect(names((await search('bohemian rapsody')).songs)).toEqual(['Bohemian Rhapsody']);
    expect(names((await search('beyonse')).artists)).toContain('Beyoncé');
    expect(names((await search('quen')).artists)[0]).toBe('Queen');
    expect(names((await search('night at the oprea')).albums)).toEqual(['A Night at the Opera']);
  });

  it('finds songs by their artist too, but never unplayable songs', async () => {
    const songs = names((await search('rhapsody')).songs);
    expect(songs).toEqual(['Bohemian Rhapsody']);
    expect(names((await search('beyonce')).songs)).toEqual(['Halo']);
  });

  it('caps each list at 20', async () => {
    const body = await search('love song');
    expect(body.songs).toHaveLength(20);
    expect(body.songs[0]!.canPlay).toBe(false);
  });

  it('treats LIKE wildcards as text', async () => {
    expect(names((await search('100%')).songs)).toEqual(['100% Pure']);
    expect(names((await search('a_c')).songs)).not.toContain('abc');
  });

  it('answers empty lists for an empty or blank q', async () => {
    for (const q of ['', '   '])
      expect(await search(q)).toEqual({ artists: [], songs: [], albums: [], genres: [] });
    const res = await ctx.app.inject({ method: 'GET', url: '/api/search' });
    expect(res.json()).toEqual({ artists: [], songs: [], albums: [], genres: [] });
  });

  it('refuses a q longer than 200 characters', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: `/api/search?q=${'a'.repeat(201)}` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'q: must be at most 200 characters', code: 'VALIDATION_ERROR' });
  });
});

describe('phrase search passes', () => {
  // word_similarity('kalo vostok', ...): "xalo vostok" 0.75 (the strict first pass), "kilo vostok" 0.67 (only
  // the default 0.6 threshold).
  const titles = (list: Array<{ title: string }>) => list.map((song) => song.title);
  let xaloId: string;

  it('falls back to the default threshold when the strict pass finds too few rows, strict rows first', async () => {
    const xalo = await f.artist({ name: 'Xalo Vostok' });
    xaloId = xalo.id;
    const kilo = await f.artist({ name: 'Kilo Vostok' });
    await f.song({ artistId: xalo.id, artistName: 'Xalo Vostok', title: 'Amber' });
    await f.song({ artistId: xalo.id, artistName: 'Xalo Vostok', title: 'Cobalt' });
    await f.song({ artistId: kilo.id, artistName: 'Kilo Vostok', title: 'Ember' });
    const body = await search('kalo vostok');
    expect(names(body.artists)).toEqual(['Xalo Vostok', 'Kilo Vostok']);
    expect(titles(body.songs)).toEqual(['Amber', 'Cobalt', 'Ember']);
  });

  it('answers from the strict pass when it fills the page: the same page the default threshold gives', async () => {
    for (let i = 1; i <= 20; i++)
      await f.song({ artistId: xaloId, artistName: 'Xalo Vostok', title: `Take ${i}` });
    const songs = titles((await search('kalo vostok')).songs);
    expect(songs).toHaveLength(20);
    expect(songs).not.toContain('Ember');
    // Shorter texts first within the same distance, as before.
    expect(songs[0]).toBe('Amber');
    // The song search ended on the strict threshold, local to its transaction: the connection is back to 0.6.
    expect(await new SearchRepository(ctx.database.db).songs('kalo vostok', 20)).toHaveLength(20);
    const [setting] = await ctx.database.query<{ threshold: string }>(
      sql`select current_setting('pg_trgm.word_similarity_threshold') as threshold`,
    );
    expect(setting?.threshold).toBe('0.6');
  });
});

describe('search query plan', () => {
  it('answers the search from the trigram indexes', async () => {
    const artist = await f.artist({ name: 'Bulk Artist' });
    await ctx.database.query(sql`
      insert into songs (artist_id, title, singer, status, search_text)
      select ${artist.id}, 'Bulk ' || i, 'Bulk Artist', 'ready',
             'bulk ' || md5(i::text) || ' ' || (array['amber','cobalt','velvet','ember','quartz'])[1 + i % 5]
      from generate_series(1, 5000) as i`);
    // VACUUM also merges the GIN pending list, as autovacuum would on a server that has been running.
    await ctx.database.query(sql`vacuum analyze songs`);
    const repository = new SearchRepository(ctx.database.db);
    // The repository runs every search with sequential scans disabled (the planner underprices pg_trgm's
    // operators); explained the same way, the plan must come from the trigram index.
    const explain = (query: SQLWrapper) =>
      ctx.database.db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        const result = await tx.execute(sql`explain `.append(query.getSQL()));
        return (result as unknown as { rows: Array<Record<string, string>> }).rows
          .map((row) => Object.values(row)[0])
          .join('\n');
      });
    for (const term of ['zephyr', 'qu']) {
      const songPlan = await explain(repository.songIdsQuery(term, 20));
      expect(songPlan).toContain('songs_search_trgm_idx');
      expect(songPlan).not.toMatch(/Seq Scan on songs/);
    }
  });
});
