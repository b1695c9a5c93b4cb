import { existsSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogFixtures, multipartForm, type FormFields } from './catalog-fixtures';
import { createTestApp, type TestContext } from './test-app';

let ctx: TestContext;
let f: ReturnType<typeof catalogFixtures>;
type User = Awaited<ReturnType<typeof f.user>>;
let admin: User;
let listener: User;
let artistUser: User;
let otherArtistUser: User;
let png: Buffer;
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

type Fields = FormFields;
const send = (method: 'POST' | 'PUT' | 'DELETE', url: string, user: User | null, fields?: Fields) =>
  ctx.app.inject({
    method,
    url,
    headers: user?.headers ?? {},
    ...(fields && { payload: multipartForm(fields) }),
  });
const mediaFile = (url: string) => path.join(ctx.config.mediaDir, url.replace('/api/media/', ''));

beforeAll(async () => {
  ctx = await createTestApp();
  f = catalogFixtures(ctx.database);
  [admin, listener, artistUser, otherArtistUser] = await Promise.all([
    f.user('admin'),
    f.user('user'),
    f.user('artist'),
    f.user('artist'),
  ]);
  png = await sharp({ create: { width: 48, height: 32, channels: 3, background: '#3366ff' } })
    .png()
    .toBuffer();
});
afterAll(() => ctx.close());

describe('albums: create, update, delete', () => {
  let own: { _id: string };
  let trackIds: string[];
  let rivalId: string;

  beforeAll(async () => {
    own = { _id: (await f.artist({ name: 'Solo Act', ownerUserId: artistUser.id })).id };
    rivalId = (await f.artist({ name: 'Rival', ownerUserId: otherArtistUser.id })).id;
    trackIds = [];
    for (const title of ['One', 'Two', 'Three'])
      trackIds.push((await f.song({ artistId: own._id, title })).id);
  });

  it('refuses guests and listeners', async () => {
    expect((await send('POST', '/api/albums', null, { title: 'X' })).statusCode).toBe(401);
    expect((await send('POST', '/api/albums', listener, { title: 'X' })).statusCode).toBe(403);
  });

  it('lets an artist create an album for their own artist, with songs in order', async () => {
    const res = await send('POST', '/api/albums', artistUser, {
      title: 'First Light',
      description: 'Debut',
      genre: 'Ambient',
      price: '12.5',
      isPremium: 'true',
      songs: ['', trackIds[2]!, trackIds[0]!],
      cover: { file: png, name: 'cover.png' },
    });
    expect(res.statusCode).toBe(201);
    const { message, album } = res.json();
    expect(message).toBe('Album created successfully');
    expect(album).toMatchObject({
      title: 'First Light',
      description: 'Debut',
      genre: 'Ambient',
      price: 1250,
      isPremium: true,
      artist: { _id: own._id, name: 'Solo Act' },
      songCount: 2,
    });
    expect(album.cover).toMatch(/^\/api\/media\/images\/album\//);
    const tracks = (await ctx.app.inject({ method: 'GET', url: `/api/songs/album/${album._id}` })).json();
    expect(tracks.map((s: { title: string }) => s.title)).toEqual(['Three', 'One']);
    expect(tracks[0].coverImage).toBe(album.cover); // songs without a cover show the album's
  });

  it('refuses albums for another artist, foreign or repeated songs, and bad values, writing nothing', async () => {
    const rivalSong = await f.song({ artistId: rivalId, title: 'Rival Song' });
    const before = await f.counts();
    const cases: Array<[User, Fields, number, RegExp]> = [
      [artistUser, { title: 'Steal', artist: rivalId }, 403, /own artist profile/],
      [admin, { title: 'No artist' }, 400, /^artist: is required/],
      [admin, { title: 'Ghost', artist: UNKNOWN }, 400, /^artist: no artist/],
      [artistUser, { title: 'Mixed', songs: [trackIds[1]!, rivalSong.id] }, 400, /^songs: every song/],
      [
        artistUser,
        { title: 'Twice', songs: [trackIds[1]!, trackIds[1]!] },
        400,
        /^songs: a song is listed twice/,
      ],
      [artistUser, { title: 'Missing', songs: [UNKNOWN] }, 400, /^songs: no song/],
      [artistUser, { title: 'Bad id', songs: ['x'] }, 400, /^songs\.0: /],
      [artistUser, { title: 'Cheap', price: 'free' }, 400, /^price: /],
      [artistUser, { title: 'Flag', isPremium: 'maybe' }, 400, /^isPremium: /],
      [artistUser, { title: '' }, 400, /^title: /],
    ];
    for (const [user, fields, status, message] of cases) {
      const res = await send('POST', '/api/albums', user, fields);
      expect([res.statusCode, res.json().message]).toEqual([status, expect.stringMatching(message)]);
    }
    const withFile = await send('POST', '/api/albums', artistUser, {
      title: 'Fake cover',
      cover: { file: Buffer.from('%PDF-1.7 not an image at all, sorry'), name: 'cover.jpg' },
    });
    expect(withFile.statusCode).toBe(415);
    expect(await f.counts()).toEqual(before);
  });

  it('updates an album: fields, track list and cover', async () => {
    const created = (
      await send('POST', '/api/albums', admin, {
        title: 'Draft',
        artist: own._id,
        cover: { file: png, name: 'c.png' },
      })
    ).json().album;
    const res = await send('PUT', `/api/albums/${created._id}`, artistUser, {
      title: 'Final',
      songs: JSON.stringify([trackIds[1], trackIds[0]]),
      isPremium: 'false',
      cover: { file: png, name: 'd.png' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Album updated successfully',
      album: { title: 'Final', songCount: 2 },
    });
    expect(existsSync(mediaFile(created.cover))).toBe(false);
    const tracks = (await ctx.app.inject({ method: 'GET', url: `/api/songs/album/${created._id}` })).json();
    expect(tracks.map((s: { title: string }) => s.title)).toEqual(['Two', 'One']);
    const moved = await send('PUT', `/api/albums/${created._id}`, admin, { artist: UNKNOWN });
    expect(moved.statusCode).toBe(400);
    expect((await send('PUT', `/api/albums/${UNKNOWN}`, admin, { title: 'x' })).statusCode).toBe(404);
    expect(
      (await send('PUT', `/api/albums/${created._id}`, otherArtistUser, { title: 'x' })).statusCode,
    ).toBe(403);
  });

  it('deletes an album and its cover; its songs stay', async () => {
    const album = (
      await send('POST', '/api/albums', artistUser, {
        title: 'Short Lived',
        songs: [trackIds[2]!],
        cover: { file: png, name: 'c.png' },
      })
    ).json().album;
    expect((await send('DELETE', `/api/albums/${album._id}`, otherArtistUser)).statusCode).toBe(403);
    const res = await send('DELETE', `/api/albums/${album._id}`, artistUser);
    expect(res.json()).toEqual({ message: 'Album deleted successfully', buyers: 0 });
    expect(existsSync(mediaFile(album.cover))).toBe(false);
    expect((await ctx.app.inject({ method: 'GET', url: `/api/albums/${album._id}` })).statusCode).toBe(404);
    const song = (await ctx.app.inject({ method: 'GET', url: `/api/songs/artist/${own._id}` }))
      .json()
      .songs.find((s: { _id: string }) => s._id === trackIds[2]);
    expect(song.album).toBeNull();
  });
});
