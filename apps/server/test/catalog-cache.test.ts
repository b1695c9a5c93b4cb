import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purchases } from '../src/db/schema';
import { catalogFixtures, multipartForm, type FormFields } from './catalog-fixtures';
import { createTestApp, type TestContext } from './test-app';

let ctx: TestContext;
let f: ReturnType<typeof catalogFixtures>;
type User = Awaited<ReturnType<typeof f.user>>;
let admin: User;
let owner: User;
let buyer: User;
let listener: User;
const ids: Record<string, string> = {};

const get = (url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url, headers });
const send = (method: 'PUT' | 'DELETE', url: string, user: User, fields?: FormFields) =>
  ctx.app.inject({ method, url, headers: user.headers, ...(fields && { payload: multipartForm(fields) }) });
const canPlayById = async (url: string, headers: Record<string, string> = {}) => {
  const res = await get(url, headers);
  expect(res.statusCode).toBe(200);
  const body = res.json() as { songs: Array<{ _id: string; canPlay: boolean }> };
  return Object.fromEntries(body.songs.map((song) => [song._id, song.canPlay]));
};

beforeAll(async () => {
  ctx = await createTestApp();
  f = catalogFixtures(ctx.database);
  [admin, owner, buyer, listener] = await Promise.all([
    f.user('admin'),
    f.user('artist'),
    f.user('user'),
    f.user('user'),
  ]);
  const nova = await f.artist({ name: 'Nova Reyes', ownerUserId: owner.id });
  const echo = await f.artist({ name: 'Echo Park' });
  const album = await f.album({ artistId: nova.id, artistName: 'Nova Reyes', title: 'Tidal' });
  ids.nova = nova.id;
  ids.echo = echo.id;
  ids.album = album.id;
  ids.novaSong = (
    await f.song({
      artistId: nova.id,
      artistName: 'Nova Reyes',
      title: 'Low Tide',
      accessType: 'purchase-only',
    })
  ).id;
  ids.echoSong = (
    await f.song({
      artistId: echo.id,
      artistName: 'Echo Park',
      title: 'Night Bus',
      accessType: 'subscription',
    })
  ).id;
});
afterAll(() => ctx.close());

describe('catalogue answer cache', () => {
  it('answers a repeated read from the cache with the same body and ETag, and 304 to If-None-Match', async () => {
    const first = await get('/api/artists');
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('no-cache');
    const second = await get('/api/artists');
    expect(second.body).toBe(first.body);
    expect(second.headers.etag).toBe(etag);
    expect(second.headers['content-type']).toBe('application/json; charset=utf-8');

    const notModified = await get('/api/artists', { 'if-none-match': etag });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe('');
    expect(notModified.headers.etag).toBe(etag);
    expect((await get('/api/artists', { 'if-none-match': `W/${etag}, "other"` })).statusCode).toBe(304);
    expect((await get('/api/artists', { 'if-none-match': '"other"' })).statusCode).toBe(200);
  });

  it('answers 304 on a cache miss too, and never caches or 304s an error', async () => {
    ctx.app.services.catalogCache.invalidate();
    const etag = (await get('/api/genres')).headers.etag as string;
    ctx.app.services.catalogCache.invalidate();
    expect((await get('/api/genres', { 'if-none-match': etag })).statusCode).toBe(304);

    const unknown = '/api/artists/00000000-0000-4000-8000-000000000000';
    const missing = await get(unknown, { 'if-none-match': '*' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers.etag).toBeUndefined();
  });

  it('shows an artist rename, a song edit and an album deletion in the very next read', async () => {
    // Warm every affected answer first.
    await get('/api/artists');
    await get(`/api/artists/${ids.nova}`);
    await get('/api/songs');
    await get('/api/albums');
    await get(`/api/songs/artist/${ids.nova}`);
    const before = (await get(`/api/artists/${ids.nova}`)).headers.etag;

    expect((await send('PUT', `/api/artists/${ids.nova}`, admin, { name: 'Nova Rey' })).statusCode).toBe(200);
    const renamed = await get(`/api/artists/${ids.nova}`, { 'if-none-match': before as string });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().artist.name).toBe('Nova Rey');
    expect(renamed.headers.etag).not.toBe(before);
    expect((await get('/api/artists')).json().artists.map((a: { name: string }) => a.name)).toContain(
      'Nova Rey',
    );

    expect((await send('PUT', `/api/songs/${ids.novaSong}`, owner, { title: 'High Tide' })).statusCode).toBe(
      200,
    );
    const titles = (await get('/api/songs')).json().songs.map((s: { title: string }) => s.title);
    expect(titles).toContain('High Tide');
    expect(titles).not.toContain('Low Tide');
    expect((await get(`/api/songs/artist/${ids.nova}`)).json().songs[0].title).toBe('High Tide');

    expect((await send('DELETE', `/api/albums/${ids.album}`, admin)).statusCode).toBe(200);
    expect((await get('/api/albums')).json().albums).toEqual([]);
    expect((await get(`/api/albums/${ids.album}`)).statusCode).toBe(404);
  });

  it("never shows one viewer's canPlay to another, whatever the order of requests", async () => {
    await f.purchase(buyer.id, { songId: ids.novaSong! });
    const url = '/api/songs?limit=50';
    // Every viewer twice, interleaved: the second round is served from the cache.
    for (let round = 0; round < 2; round++) {
      expect(await canPlayById(url, buyer.headers)).toEqual({
        [ids.novaSong!]: true,
        [ids.echoSong!]: false,
      });
      expect(await canPlayById(url)).toEqual({ [ids.novaSong!]: false, [ids.echoSong!]: false });
      expect(await canPlayById(url, listener.headers)).toEqual({
        [ids.novaSong!]: false,
        [ids.echoSong!]: false,
      });
      expect(await canPlayById(url, admin.headers)).toEqual({ [ids.novaSong!]: true, [ids.echoSong!]: true });
      expect(await canPlayById(url, owner.headers)).toEqual({
        [ids.novaSong!]: true,
        [ids.echoSong!]: false,
      });
      // An unknown or expired token is a guest, never the last signed-in viewer.
      expect(await canPlayById(url, { authorization: 'Bearer not-a-session' })).toEqual({
        [ids.novaSong!]: false,
        [ids.echoSong!]: false,
      });
    }
    const perViewer = await get(url, buyer.headers);
    expect(perViewer.headers['cache-control']).toBe('private, no-cache');
    expect(perViewer.headers.vary).toBe('Authorization, Cookie');
  });

  it("invalidateUser shows one account's new purchase at once and keeps everyone else's entries", async () => {
    const songsUrl = '/api/songs?limit=20';
    expect((await canPlayById(songsUrl, listener.headers))[ids.echoSong!]).toBe(false);
    expect((await canPlayById(songsUrl, buyer.headers))[ids.echoSong!]).toBe(false);
    const cached = ctx.app.services.catalogCache.count;

    // What the commerce module does after a payment: write the entitlement, then invalidate that account.
    await ctx.database.db.insert(purchases).values({ userId: listener.id, songId: ids.echoSong! });
    ctx.app.services.catalogCache.invalidateUser(listener.id);
    const left = ctx.app.services.catalogCache.count;
    expect(left).toBeLessThan(cached);
    expect(left).toBeGreaterThan(0);

    expect((await canPlayById(songsUrl, listener.headers))[ids.echoSong!]).toBe(true);
    expect((await canPlayById(songsUrl, buyer.headers))[ids.echoSong!]).toBe(false);
  });

  it("ends a subscriber's cached canPlay when the paid period ends, without any write", async () => {
    const fan = await f.user('user');
    await f.subscribe(fan.id, ids.echo!, new Date(Date.now() + 1_500));
    const url = `/api/songs/artist/${ids.echo}`;
    expect((await canPlayById(url, fan.headers))[ids.echoSong!]).toBe(true);
    expect((await canPlayById(url, fan.headers))[ids.echoSong!]).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 1_700));
    expect((await canPlayById(url, fan.headers))[ids.echoSong!]).toBe(false);
  });
});
