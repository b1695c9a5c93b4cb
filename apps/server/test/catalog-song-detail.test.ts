import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogFixtures } from './catalog-fixtures';
import { createTestApp, type TestContext } from './test-app';

let ctx: TestContext;
let f: ReturnType<typeof catalogFixtures>;
type User = Awaited<ReturnType<ReturnType<typeof catalogFixtures>['user']>>;
const get = (url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url, headers });

let listener: User;
let admin: User;
let owner: User;
let otherArtist: User;
const ids: Record<string, string> = {};
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  ctx = await createTestApp();
  f = catalogFixtures(ctx.database);
  [listener, admin, owner, otherArtist] = await Promise.all([
    f.user('user'),
    f.user('admin'),
    f.user('artist'),
    f.user('artist'),
  ]);
  const jazz = await f.genre('Jazz');
  const nova = await f.artist({ name: 'Nova Reyes', ownerUserId: owner.id, genreId: jazz.id });
  await f.artist({ name: 'Echo Park', ownerUserId: otherArtist.id });
  const album = await f.album({ artistId: nova.id, title: 'Night Shift' });
  ids.nova = nova.id;
  ids.album = album.id;
  const song = async (title: string, values: Partial<Parameters<typeof f.song>[0]>) =>
    (await f.song({ artistId: nova.id, artistName: 'Nova Reyes', title, genreId: jazz.id, ...values })).id;
  ids.open = await song('Open Air', { accessType: 'subscription', albumId: album.id, trackNumber: 1 });
  ids.paid = await song('Paid Only', { accessType: 'purchase-only', price: 199 });
  ids.processing = await song('Still Processing', { status: 'processing' });
  ids.failed = await song('Broken Upload', { status: 'failed' });
});
afterAll(() => ctx.close());

describe('GET /api/songs/:id', () => {
  it('answers a ready song in the catalogue shape to a guest, canPlay false', async () => {
    const res = await get(`/api/songs/${ids.open}`);
    expect(res.statusCode).toBe(200);
    const song = res.json();
    expect(Object.keys(song).sort()).toEqual(
      [
        '_id',
        'accessType',
        'album',
        'artist',
        'audioUrl',
        'canDownload',
        'canPlay',
        'coverImage',
        'createdAt',
        'currency',
        'duration',
        'freeToStream',
        'genre',
        'previewStartSec',
        'price',
        'singer',
        'status',
        'title',
      ].sort(),
    );
    expect(song).toMatchObject({
      _id: ids.open,
      title: 'Open Air',
      status: 'ready',
      canPlay: false,
      canDownload: false,
      freeToStream: false,
      previewStartSec: null,
      audioUrl: null,
      genre: 'Jazz',
      artist: { _id: ids.nova, name: 'Nova Reyes' },
      album: { _id: ids.album, title: 'Night Shift', isPremium: false },
    });
  });

  it('decides canPlay per viewer, like the lists', async () => {
    const canPlay = async (id: string, user?: User) =>
      (await get(`/api/songs/${id}`, user?.headers)).json().canPlay as boolean;
    expect(await canPlay(ids.paid!, admin)).toBe(true);
    expect(await canPlay(ids.paid!, owner)).toBe(true);
    const fan = await f.user('user');
    expect(await canPlay(ids.paid!, fan)).toBe(false);
    await f.purchase(fan.id, { songId: ids.paid! });
    expect(await canPlay(ids.paid!, fan)).toBe(true);
    expect(await canPlay(ids.open!, fan)).toBe(false);
    await f.subscribe(fan.id, ids.nova!);
    expect(await canPlay(ids.open!, fan)).toBe(true);
    // The single-song answer agrees with the album list for the same viewer.
    const albumSongs = (await get(`/api/songs/album/${ids.album}`, fan.headers)).json();
    expect(albumSongs[0]).toEqual((await get(`/api/songs/${ids.open}`, fan.headers)).json());
  });

  it("shows a processing or failed song only to its artist's account and admins", async () => {
    for (const id of [ids.processing!, ids.failed!]) {
      for (const user of [owner, admin]) {
        const res = await get(`/api/songs/${id}`, user.headers);
        expect(res.statusCode).toBe(200);
        expect(res.json()._id).toBe(id);
      }
      for (const headers of [{}, listener.headers, otherArtist.headers]) {
        const res = await get(`/api/songs/${id}`, headers);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ message: 'Song not found', code: 'SONG_NOT_FOUND' });
      }
    }
    expect((await get(`/api/songs/${ids.processing}`, owner.headers)).json().status).toBe('processing');
    expect((await get(`/api/songs/${ids.failed}`, admin.headers)).json().status).toBe('failed');
  });

  it('answers 400 to a malformed id and 404 to an unknown one', async () => {
    const bad = await get('/api/songs/not-a-uuid');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ message: expect.any(String), code: expect.any(String) });
    const unknown = await get(`/api/songs/${UNKNOWN}`, admin.headers);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Song not found', code: 'SONG_NOT_FOUND' });
  });

  it('leaves the other /songs routes where they were', async () => {
    expect((await get(`/api/songs/album/${ids.album}`)).json()).toHaveLength(1);
    expect((await get('/api/songs/genre/jazz')).json()).toMatchObject({ total: 2 });
    expect((await get(`/api/songs/artist/${ids.nova}`)).json()).toMatchObject({ total: 2 });
    expect((await get('/api/songs/liked')).statusCode).toBe(401);
    expect((await get('/api/songs/matching-genre')).statusCode).toBe(401);
    expect((await get(`/api/songs/${ids.processing}/status`, owner.headers)).json()).toEqual({
      status: 'processing',
      failureReason: null,
    });
    expect((await get('/api/songs?limit=50')).json()).toMatchObject({ total: 2 });
  });
});
