import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOME_SHELF_SIZE } from '../src/modules/catalog/home.service';
import { catalogFixtures } from './catalog-fixtures';
import { createTestApp, type TestContext } from './test-app';

/*
 * GET /api/home: shelves that change with the listener, in one call. Invariant: no song on two shelves. The clock is
 * the app's injected clock, so "this week" is fixed.
 */

let ctx: TestContext;
let f: ReturnType<typeof catalogFixtures>;
const NOW = new Date('2025-05-20T12:00:00Z');
const DAY = 24 * 60 * 60 * 1000;
const ids: Record<string, string> = {};
type User = Awaited<ReturnType<ReturnType<typeof catalogFixtures>['user']>>;
let listener: User;
let newcomer: User;

interface Home {
  recentlyPlayed: Array<{ _id: string; title: string; canPlay: boolean }>;
  freeToStream: Array<{ _id: string; title: string; canPlay: boolean; freeToStream: boolean }>;
  forYourGenres: Array<{ _id: string; title: string }>;
  popularThisWeek: Array<{ _id: string; title: string }>;
  newAlbums: Array<{ title: string }>;
  yourArtists: Array<{ name: string }>;
  matchingGenres: string[];
}

const home = async (user: User) => {
  const res = await ctx.app.inject({ method: 'GET', url: '/api/home', headers: user.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Home>();
};
const titles = (list: Array<{ title: string }>) => list.map((song) => song.title);

beforeAll(async () => {
  ctx = await createTestApp({ services: { clock: () => NOW } });
  f = catalogFixtures(ctx.database);
  const jazz = await f.genre('Jazz');
  const rock = await f.genre('Rock');
  const mira = await f.artist({ name: 'Mira', genreId: jazz.id });
  const velvet = await f.artist({ name: 'Velvet', genreId: rock.id });
  const blue = await f.album({ artistId: mira.id, artistName: 'Mira', title: 'Blue Hour', genreId: jazz.id });
  await f.album({ artistId: velvet.id, artistName: 'Velvet', title: 'Paper Amps', genreId: rock.id });
  const song = async (title: string, artistId: string, genreId: string, extra: object = {}) =>
    (ids[title] = (await f.song({ artistId, title, genreId, ...extra })).id);
  await song('Quiet Corners', mira.id, jazz.id, { albumId: blue.id });
  await song('Brass Weather', mira.id, jazz.id, { albumId: blue.id, freeToStream: true });
  await song('Lantern Street', mira.id, jazz.id, { freeToStream: true });
  await song('Feedback Season', velvet.id, rock.id, { freeToStream: true });
  await song('Loud Little Town', velvet.id, rock.id);
  for (let i = 1; i <= 14; i++) await song(`Jazz Study ${i}`, mira.id, jazz.id);

  listener = await f.user();
  newcomer = await f.user();
  for (const user of [listener, newcomer]) await f.prefer(user.id, jazz.id);
  // The listener played two songs (latest first: Loud Little Town); a preview is no listen.
  await f.play(listener.id, ids['Quiet Corners']!, new Date(NOW.getTime() - 2 * DAY));
  await f.play(listener.id, ids['Loud Little Town']!, new Date(NOW.getTime() - DAY));
  await f.play(listener.id, ids['Jazz Study 3']!, new Date(NOW.getTime() - 1000), 'preview');
  await f.subscribe(listener.id, velvet.id, new Date(NOW.getTime() + 30 * DAY));
  // This week's plays by others: Jazz Study 9 most, then Feedback Season; an old hit does not count.
  const fan = await f.user();
  for (let i = 0; i < 3; i++) await f.play(fan.id, ids['Jazz Study 9']!, new Date(NOW.getTime() - 3 * DAY));
  await f.play(fan.id, ids['Feedback Season']!, new Date(NOW.getTime() - 6 * DAY + 60_000));
  for (let i = 0; i < 5; i++) await f.play(fan.id, ids['Jazz Study 1']!, new Date(NOW.getTime() - 20 * DAY));
});
afterAll(() => ctx.close());

describe('GET /api/home', () => {
  it('asks a guest to sign in', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/home' })).statusCode).toBe(401);
  });

  it('shows what the listener played, free songs (their genres first), their genres, this week, albums, artists', async () => {
    const body = await home(listener);
    expect(titles(body.recentlyPlayed)).toEqual(['Loud Little Town', 'Quiet Corners']);
    expect(titles(body.freeToStream)).toEqual(['Lantern Street', 'Brass Weather', 'Feedback Season']);
    expect(body.freeToStream.every((song) => song.freeToStream && song.canPlay)).toBe(true);
    expect(body.forYourGenres).toHaveLength(HOME_SHELF_SIZE.forYourGenres);
    expect(titles(body.popularThisWeek)).toEqual(['Jazz Study 9']);
    expect(titles(body.newAlbums)).toEqual(['Paper Amps', 'Blue Hour']);
    expect(body.yourArtists.map((artist) => artist.name)).toEqual(['Velvet']);
    expect(body.matchingGenres).toEqual(['Jazz']);
  });

  it('never puts a song on two shelves: later shelves take their next candidates instead', async () => {
    const body = await home(listener);
    const all = [body.recentlyPlayed, body.freeToStream, body.forYourGenres, body.popularThisWeek]
      .flat()
      .map((song) => song._id);
    expect(new Set(all).size).toBe(all.length);
    // Feedback Season was played this week, but the free shelf has it already; the genre shelf skips this week's.
    expect(titles(body.popularThisWeek)).not.toContain('Feedback Season');
    expect(titles(body.forYourGenres)).not.toContain('Quiet Corners');
    expect(titles(body.forYourGenres)).not.toContain('Jazz Study 9');
  });

  it('changes with the listener: a newcomer has no history and backs nobody yet', async () => {
    const body = await home(newcomer);
    expect(body.recentlyPlayed).toEqual([]);
    expect(body.yourArtists).toEqual([]);
    // Everyone's plays of the week: Jazz Study 9 (3), then the listener's two; Feedback Season is on the free shelf.
    expect(titles(body.popularThisWeek)[0]).toBe('Jazz Study 9');
    expect(titles(body.popularThisWeek).slice(1).sort()).toEqual(['Loud Little Town', 'Quiet Corners']);
    expect(titles(body.forYourGenres)).not.toContain('Jazz Study 9');
    expect(body.forYourGenres).toHaveLength(HOME_SHELF_SIZE.forYourGenres);
  });

  it('counts an artist bought from; an account without genres still gets free songs, newest first', async () => {
    const buyer = await f.user();
    await f.purchase(buyer.id, { songId: ids['Quiet Corners']! });
    const body = await home(buyer);
    expect(body.yourArtists.map((artist) => artist.name)).toEqual(['Mira']);
    expect(titles(body.freeToStream)).toEqual(['Feedback Season', 'Lantern Street', 'Brass Weather']);
    expect(body.forYourGenres).toEqual([]);
  });
});
