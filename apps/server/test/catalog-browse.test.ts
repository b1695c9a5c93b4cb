import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogFixtures } from './catalog-fixtures';
import { createTestApp, type TestContext } from './test-app';

let ctx: TestContext;
let f: ReturnType<typeof catalogFixtures>;
const get = (url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url, headers });
const ids: Record<string, string> = {};
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  ctx = await createTestApp();
  f = catalogFixtures(ctx.database);
  const jazz = await f.genre('Jazz');
  await f.genre('R&B');
  // 12 artists named A..L (inserted in reverse order), one with an owner and a genre.
  for (const letter of 'LKJIHGFEDCBA') {
    const artist = await f.artist({ name: `Artist ${letter}`, genreId: letter === 'A' ? jazz.id : null });
    ids[letter] = artist.id;
  }
  for (let i = 1; i <= 12; i++) {
    const album = await f.album({
      artistId: ids.A!,
      title: `Album ${i}`,
      price: 100 * i,
      isPremium: i === 1,
    });
    ids[`album${i}`] = album.id;
  }
  await f.album({ artistId: ids.B!, title: 'Lonely Album' });
  for (let i = 1; i <= 3; i++)
    await f.song({ artistId: ids.A!, title: `A${i}`, albumId: ids.album1!, trackNumber: i });
  await f.song({ artistId: ids.B!, title: 'Hidden', status: 'processing' });
});
afterAll(() => ctx.close());

describe('artists', () => {
  it('lists artists alphabetically, 10 per page, with pagination', async () => {
    const res = await get('/api/artists');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['artists', 'pagination']);
    expect(body.pagination).toEqual({ page: 1, limit: 10, total: 12, totalPages: 2 });
    expect(body.artists.map((a: { name: string }) => a.name.slice(-1)).join('')).toBe('ABCDEFGHIJ');
    expect(body.artists[0]).toEqual({
      _id: ids.A,
      name: 'Artist A',
      bio: '',
      image: null,
      genres: ['Jazz'],
      subscriptionPrice: 499,
      currency: 'USD',
      ownerId: null,
      songCount: 3,
      albumCount: 12,
      allowSubscriberDownloads: false,
      createdAt: expect.any(String),
    });
    const last = (await get('/api/artists?page=2')).json();
    expect(last.artists.map((a: { name: string }) => a.name)).toEqual(['Artist K', 'Artist L']);
    expect((await get('/api/artists?page=5')).json()).toEqual({
      artists: [],
      pagination: { page: 5, limit: 10, total: 12, totalPages: 2 },
    });
    expect((await get('/api/artists?limit=1000')).statusCode).toBe(400);
  });

  it('searches artists with q: results, page, total, pages', async () => {
    const body = (await get('/api/artists?q=artist&limit=5&page=3')).json();
    expect(Object.keys(body).sort()).toEqual(['page', 'pages', 'results', 'total']);
    expect(body).toMatchObject({ page: 3, total: 12, pages: 3 });
    expect(body.results).toHaveLength(2);
    expect((await get('/api/artists?q=artist%20k')).json().results[0].name).toBe('Artist K');
    expect((await get('/api/artists?q=')).json()).toEqual({ results: [], page: 1, total: 0, pages: 0 });
    expect((await get(`/api/artists?q=${'x'.repeat(201)}`)).statusCode).toBe(400);
  });

  it('lists all artists and one artist', async () => {
    const all = (await get('/api/artists/all')).json();
    expect(Object.keys(all)).toEqual(['artists']);
    expect(all.artists).toHaveLength(12);
    const one = await get(`/api/artists/${ids.B}`);
    expect(one.json()).toMatchObject({
      artist: { _id: ids.B, name: 'Artist B', songCount: 0, albumCount: 1 },
    });
    expect((await get(`/api/artists/${UNKNOWN}`)).statusCode).toBe(404);
    expect((await get('/api/artists/not-an-id')).statusCode).toBe(400);
  });
});

describe('albums', () => {
  it('lists albums newest first, 10 per page', async () => {
    const body = (await get('/api/albums')).json();
    expect(Object.keys(body).sort()).toEqual(['albums', 'pagination']);
    expect(body.pagination).toEqual({ page: 1, limit: 10, total: 13, totalPages: 2 });
    expect(body.albums[0].title).toBe('Lonely Album');
    expect(body.albums[1]).toEqual({
      _id: ids.album12,
      title: 'Album 12',
      description: '',
      cover: null,
      genre: null,
      price: 1200,
      currency: 'USD',
      isPremium: false,
      artist: { _id: ids.A, name: 'Artist A' },
      songCount: 0,
      releaseDate: expect.any(String),
      createdAt: expect.any(String),
    });
    expect((await get('/api/albums?page=3')).json().albums).toEqual([]);
  });

  it("lists an artist's albums with the artist", async () => {
    const body = (await get(`/api/albums/artist/${ids.A}?limit=5`)).json();
    expect(Object.keys(body).sort()).toEqual(['albums', 'artist', 'pagination']);
    expect(body.pagination).toEqual({ page: 1, limit: 5, total: 12, totalPages: 3 });
    expect(body.artist).toMatchObject({ _id: ids.A, name: 'Artist A' });
    expect((await get(`/api/albums/artist/${UNKNOWN}`)).statusCode).toBe(404);
  });

  it('shows one album', async () => {
    const body = (await get(`/api/albums/${ids.album1}`)).json();
    expect(body).toMatchObject({ album: { _id: ids.album1, isPremium: true, price: 100, songCount: 3 } });
    const missing = await get(`/api/albums/${UNKNOWN}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Album not found', code: 'ALBUM_NOT_FOUND' });
  });
});

describe('genres and discovery', () => {
  it('lists genres with _id, name and slug', async () => {
    const body = (await get('/api/genres')).json();
    expect(body.genres.map((g: { name: string; slug: string }) => [g.name, g.slug])).toEqual([
      ['Jazz', 'jazz'],
      ['R&B', 'randb'],
    ]);
    expect(Object.keys(body.genres[0]).sort()).toEqual(['_id', 'name', 'slug']);
  });

  it('picks a random artist that has playable songs', async () => {
    for (let i = 0; i < 5; i++) {
      const body = (await get('/api/discover/random-artist')).json();
      expect(Object.keys(body).sort()).toEqual(['artist', 'pagination', 'songs']);
      // Only Artist A has ready songs (B's only song is still processing).
      expect(body.artist._id).toBe(ids.A);
      expect(body.songs).toHaveLength(3);
      expect(body.pagination).toEqual({ page: 1, limit: 10, total: 3, totalPages: 1 });
    }
    const paged = (await get('/api/discover/random-artist?page=2&limit=2')).json();
    expect(paged.songs).toHaveLength(1);
    expect((await get('/api/discover/random-artist?limit=0')).statusCode).toBe(400);
  });
});

describe('an empty catalogue', () => {
  it('answers empty lists, not errors', async () => {
    const empty = await createTestApp();
    try {
      const inject = (url: string) => empty.app.inject({ method: 'GET', url }).then((res) => res.json());
      expect(await inject('/api/songs')).toEqual({ songs: [], totalPages: 0, total: 0, page: 1 });
      expect(await inject('/api/discover/random-artist')).toEqual({
        artist: null,
        songs: [],
        pagination: { page: 1, limit: 10, total: 0, totalPages: 0 },
      });
      expect(await inject('/api/search?q=anything')).toEqual({
        artists: [],
        songs: [],
        albums: [],
        genres: [],
      });
      expect(await inject('/api/genres')).toEqual({ genres: [] });
    } finally {
      await empty.close();
    }
  });
});
