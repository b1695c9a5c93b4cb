import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogFixtures } from './catalog-fixtures';
import { createTestApp, type TestContext } from './test-app';

let ctx: TestContext;
let f: ReturnType<typeof catalogFixtures>;
const get = (url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url, headers });

let listener: Awaited<ReturnType<typeof f.user>>;
let admin: Awaited<ReturnType<typeof f.user>>;
let owner: Awaited<ReturnType<typeof f.user>>;
const ids: Record<string, string> = {};

beforeAll(async () => {
  ctx = await createTestApp();
  f = catalogFixtures(ctx.database);
  listener = await f.user('user');
  admin = await f.user('admin');
  owner = await f.user('artist');
  const jazz = await f.genre('Jazz');
  const hipHop = await f.genre('Hip-Hop');
  const rock = await f.genre('Rock');
  ids.jazz = jazz.id;
  const nova = await f.artist({ name: 'Nova Reyes', ownerUserId: owner.id, genreId: jazz.id });
  const echo = await f.artist({ name: 'Echo Park' });
  ids.nova = nova.id;
  ids.echo = echo.id;
  const premium = await f.album({ artistId: nova.id, title: 'Night Shift', isPremium: true, price: 999 });
  const plain = await f.album({ artistId: echo.id, title: 'Daylight' });
  ids.premium = premium.id;
  ids.plain = plain.id;
  // 25 ready songs alternating between the two artists, plus hidden ones.
  for (let i = 1; i <= 25; i++) {
    const byNova = i % 2 === 1;
    const song = await f.song({
      artistId: byNova ? nova.id : echo.id,
      artistName: byNova ? 'Nova Reyes' : 'Echo Park',
      title: `Track ${String(i).padStart(2, '0')}`,
      genreId: i <= 12 ? jazz.id : hipHop.id,
      accessType: i % 3 === 0 ? 'purchase-only' : 'subscription',
    });
    ids[`t${i}`] = song.id;
  }
  await f.song({ artistId: nova.id, title: 'Still Processing', status: 'processing', genreId: jazz.id });
  await f.song({ artistId: nova.id, title: 'Broken Upload', status: 'failed', genreId: jazz.id });
  // Album tracks, inserted out of order.
  for (const [title, trackNumber] of [
    ['Side B', 2],
    ['Side A', 1],
    ['Bonus', null],
  ] as const) {
    const song = await f.song({
      artistId: nova.id,
      artistName: 'Nova Reyes',
      title,
      albumId: premium.id,
      trackNumber,
    });
    ids[title] = song.id;
  }
  await f.song({ artistId: echo.id, title: 'Morning', albumId: plain.id, trackNumber: 1, genreId: rock.id });
});
afterAll(() => ctx.close());

describe('GET /api/songs', () => {
  it('answers the SPEC keys with 10 songs, newest first, only ready songs', async () => {
    const res = await get('/api/songs');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['page', 'songs', 'total', 'totalPages']);
    expect(body).toMatchObject({ page: 1, total: 29, totalPages: 3 });
    expect(body.songs).toHaveLength(10);
    expect(body.songs[0].title).toBe('Morning');
    const times = body.songs.map((s: { createdAt: string }) => s.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(body.songs.every((s: { status: string }) => s.status === 'ready')).toBe(true);
    expect(JSON.stringify(body)).not.toMatch(/Still Processing|Broken Upload/);
  });

  it('returns every contract field, audioUrl null and canPlay false for guests', async () => {
    const song = (await get('/api/songs?limit=100'))
      .json()
      .songs.find((s: { _id: string }) => s._id === ids['Side A']);
    expect(song).toMatchObject({
      _id: ids['Side A'],
      title: 'Side A',
      singer: 'Nova Reyes',
      coverImage: null,
      audioUrl: null,
      duration: 180,
      accessType: 'subscription',
      price: 0,
      currency: 'USD',
      genre: null,
      artist: { _id: ids.nova, name: 'Nova Reyes' },
      album: { _id: ids.premium, title: 'Night Shift', isPremium: true },
      status: 'ready',
      canPlay: false,
    });
    expect(typeof song.createdAt).toBe('string');
  });

  it('pages without overlap and with stable order', async () => {
    const pages = await Promise.all([1, 2, 3].map((page) => get(`/api/songs?page=${page}&limit=10`)));
    const all = pages.flatMap((res) => res.json().songs.map((s: { _id: string }) => s._id));
    expect(all).toHaveLength(29);
    expect(new Set(all).size).toBe(29);
  });

  it('answers an out-of-range page with an empty list and the real totals', async () => {
    const body = (await get('/api/songs?page=99')).json();
    expect(body).toEqual({ songs: [], total: 29, totalPages: 3, page: 99 });
  });

  it.each([
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=abc', 'page'],
    ['page=1.5', 'page'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=x', 'limit'],
  ])('refuses %s with 400 naming the field', async (query, field) => {
    const res = await get(`/api/songs?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_ERROR');
    expect(res.json().message).toMatch(new RegExp(`^${field}`));
  });

  it('decides canPlay per viewer: admin, owner, subscriber, buyer', async () => {
    const canPlay = async (headers: Record<string, string>) =>
      Object.fromEntries(
        (await get('/api/songs?limit=100', headers))
          .json()
          .songs.map((s: { _id: string; canPlay: boolean }) => [s._id, s.canPlay]),
      );
    expect(Object.values(await canPlay(admin.headers)).every(Boolean)).toBe(true);
    const ownerView = await canPlay(owner.headers);
    expect(ownerView[ids.t1!]).toBe(true); // Nova's own song
    expect(ownerView[ids.t2!]).toBe(false); // Echo's song

    const fan = await f.user('user');
    await f.subscribe(fan.id, ids.echo!);
    await f.purchase(fan.id, { songId: ids.t3! }); // purchase-only song by Nova
    const fanView = await canPlay(fan.headers);
    expect(fanView[ids.t2!]).toBe(true); // subscription song by Echo
    expect(fanView[ids.t6!]).toBe(false); // purchase-only song by Echo: a subscription is not enough
    expect(fanView[ids.t3!]).toBe(true);
    expect(fanView[ids.t1!]).toBe(false);
    expect(fanView[ids['Side A']!]).toBe(false); // premium album not bought
    await f.purchase(fan.id, { albumId: ids.premium! });
    expect((await canPlay(fan.headers))[ids['Side A']!]).toBe(true);
  });
});

describe('GET /api/songs/album/:id', () => {
  it('answers a plain array in track order, unnumbered tracks last', async () => {
    const res = await get(`/api/songs/album/${ids.premium}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().map((s: { title: string }) => s.title)).toEqual(['Side A', 'Side B', 'Bonus']);
  });

  it('404s for an unknown album and 400s for a malformed id', async () => {
    const missing = await get('/api/songs/album/00000000-0000-4000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Album not found', code: 'ALBUM_NOT_FOUND' });
    expect((await get('/api/songs/album/nope')).statusCode).toBe(400);
  });
});

describe('GET /api/songs/artist/:id', () => {
  it('answers songs, total, page, pages and the artist, 20 per page by default', async () => {
    const body = (await get(`/api/songs/artist/${ids.nova}`)).json();
    expect(Object.keys(body).sort()).toEqual(['artist', 'page', 'pages', 'songs', 'total']);
    expect(body).toMatchObject({
      total: 16,
      page: 1,
      pages: 1,
      artist: { _id: ids.nova, name: 'Nova Reyes' },
    });
    expect(body.songs).toHaveLength(16);
    const second = (await get(`/api/songs/artist/${ids.nova}?page=2&limit=10`)).json();
    expect(second).toMatchObject({ total: 16, page: 2, pages: 2 });
    expect(second.songs).toHaveLength(6);
  });

  it('404s for an unknown artist', async () => {
    const res = await get('/api/songs/artist/00000000-0000-4000-8000-000000000000');
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('ARTIST_NOT_FOUND');
  });
});

describe('GET /api/songs/genre/:genre', () => {
  it('finds a genre by name or slug in any case', async () => {
    for (const genre of ['Jazz', 'jazz', 'JAZZ', 'hip-hop', 'Hip-Hop', 'HIP-HOP']) {
      const res = await get(`/api/songs/genre/${genre}`);
      expect(res.statusCode).toBe(200);
      expect(Object.keys(res.json()).sort()).toEqual(['page', 'pages', 'songs', 'total']);
    }
    const jazz = (await get('/api/songs/genre/jazz')).json();
    expect(jazz).toMatchObject({ total: 12, page: 1, pages: 1 });
    expect(jazz.songs.every((s: { genre: string }) => s.genre === 'Jazz')).toBe(true);
    expect((await get('/api/songs/genre/hip-hop?limit=5')).json()).toMatchObject({ total: 13, pages: 3 });
  });

  it('404s for an unknown genre', async () => {
    const res = await get('/api/songs/genre/polka');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Genre not found', code: 'GENRE_NOT_FOUND' });
  });
});

describe('signed-in lists', () => {
  it('refuses guests with 401', async () => {
    for (const url of ['/api/songs/liked', '/api/songs/matching-genre']) {
      const res = await get(url);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        message: 'Authentication token missing. Please login.',
        code: 'UNAUTHENTICATED',
      });
    }
    expect((await get('/api/songs/liked', { authorization: 'Bearer wrong' })).statusCode).toBe(401);
  });

  it('lists liked songs, most recent like first, without hidden songs', async () => {
    const fan = await f.user('user');
    for (const key of ['t1', 't5', 't9']) await f.like(fan.id, ids[key]!);
    const body = (await get('/api/songs/liked', fan.headers)).json();
    expect(Object.keys(body).sort()).toEqual(['page', 'pages', 'songs', 'total']);
    expect(body).toMatchObject({ total: 3, page: 1, pages: 1 });
    expect(body.songs.map((s: { _id: string }) => s._id)).toEqual([ids.t9, ids.t5, ids.t1]);
    expect((await get('/api/songs/liked?page=2&limit=2', fan.headers)).json()).toMatchObject({
      total: 3,
      pages: 2,
      songs: [{ _id: ids.t1 }],
    });
  });

  it("lists songs in the user's preferred genres with matchingGenres", async () => {
    const fan = await f.user('user');
    const none = (await get('/api/songs/matching-genre', fan.headers)).json();
    expect(none).toEqual({ songs: [], matchingGenres: [], total: 0, page: 1, pages: 0 });
    await f.prefer(fan.id, ids.jazz!);
    const body = (await get('/api/songs/matching-genre', fan.headers)).json();
    expect(Object.keys(body).sort()).toEqual(['matchingGenres', 'page', 'pages', 'songs', 'total']);
    expect(body).toMatchObject({ matchingGenres: ['Jazz'], total: 12, page: 1, pages: 1 });
  });
});

describe('GET /api/songs/:id/status', () => {
  it('shows processing state to the owner and admins only', async () => {
    const failed = await f.song({ artistId: ids.nova!, title: 'Bad', status: 'failed' });
    const url = `/api/songs/${failed.id}/status`;
    expect((await get(url)).statusCode).toBe(401);
    expect((await get(url, listener.headers)).statusCode).toBe(403);
    expect((await get(url, owner.headers)).json()).toEqual({ status: 'failed', failureReason: null });
    expect((await get(url, admin.headers)).statusCode).toBe(200);
    expect(
      (await get('/api/songs/00000000-0000-4000-8000-000000000000/status', admin.headers)).statusCode,
    ).toBe(404);
  });
});
