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

describe('one artist profile per artist account', () => {
  it('two profiles created at once by the same account: one is made, the other is refused (409)', async () => {
    const racer = await f.user('artist');
    const results = await Promise.all(
      ['Twin One', 'Twin Two', 'Twin Three'].map((name) => send('POST', '/api/artists', racer, { name })),
    );
    const statuses = results.map((res) => res.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409]);
    for (const res of results.filter((r) => r.statusCode === 409)) {
      expect(res.json().code).toBe('ARTIST_PROFILE_EXISTS');
    }
    const mine = (
      await ctx.app.inject({ method: 'GET', url: '/api/users/me', headers: racer.headers })
    ).json();
    expect(mine.artistId).toBe(results.find((res) => res.statusCode === 201)!.json().artist._id);
  });
});

describe('artists: create, update, delete', () => {
  it('refuses guests (401) and listeners (403) and writes nothing', async () => {
    const before = await f.counts();
    expect((await send('POST', '/api/artists', null, { name: 'X' })).statusCode).toBe(401);
    const res = await send('POST', '/api/artists', listener, { name: 'X' });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('FORBIDDEN_ROLE');
    expect(await f.counts()).toEqual(before);
  });

  it('lets an admin create an artist with an image, genre and price', async () => {
    const totalBefore = (await ctx.app.inject({ method: 'GET', url: '/api/artists' })).json().pagination
      .total;
    const res = await send('POST', '/api/artists', admin, {
      name: 'Neon Harbor',
      bio: 'Synths by the sea',
      genre: 'Synthwave',
      subscriptionPrice: '4.99',
      image: { file: png, name: 'photo.png', type: 'image/png' },
    });
    expect(res.statusCode).toBe(201);
    const { message, artist } = res.json();
    expect(message).toBe('Artist created successfully');
    // The cached list total is dropped by the write.
    const totalAfter = (await ctx.app.inject({ method: 'GET', url: '/api/artists' })).json().pagination.total;
    expect(totalAfter).toBe(totalBefore + 1);
    expect(artist).toMatchObject({
      name: 'Neon Harbor',
      bio: 'Synths by the sea',
      genres: ['Synthwave'],
      subscriptionPrice: 499,
      ownerId: null,
      songCount: 0,
    });
    expect(artist.image).toMatch(/^\/api\/media\/images\/artist\/[0-9a-f]{16}\/cover-640\.webp$/);
    const image = await ctx.app.inject({ method: 'GET', url: artist.image });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/webp');
    expect(image.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await sharp(image.rawPayload).metadata()).width).toBe(640);
    const again = await ctx.app.inject({
      method: 'GET',
      url: artist.image,
      headers: { 'if-none-match': image.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/genres' })).json().genres).toEqual([
      { _id: expect.any(String), name: 'Synthwave', slug: 'synthwave' },
    ]);
  });

  it.each([
    [{ bio: 'no name' }, /^name: /],
    [{ name: '   ' }, /^name: is required/],
    [{ name: 'A', subscriptionPrice: '-1' }, /^subscriptionPrice: /],
    [{ name: 'A', subscriptionPrice: '1.999' }, /^subscriptionPrice: /],
    [{ name: 'A', subscriptionPrice: '1000.01' }, /^subscriptionPrice: must be at most 1000.00/],
    [{ name: 'A', genre: '!!!' }, /^genre: /],
    [{ name: 'A', ownerId: 'nope' }, /^ownerId: /],
  ])('refuses %j with 400 and writes nothing', async (fields, message) => {
    const before = await f.counts();
    const res = await send('POST', '/api/artists', admin, fields as Fields);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
    expect(await f.counts()).toEqual(before);
  });

  it('refuses a non-image (415) and an image over 10 MB (413), writing nothing', async () => {
    const before = await f.counts();
    const text = await send('POST', '/api/artists', admin, {
      name: 'A',
      image: { file: Buffer.from('just some text, not a picture at all'.repeat(4)), name: 'photo.png' },
    });
    expect(text.statusCode).toBe(415);
    expect(text.json()).toEqual({
      message: expect.stringMatching(/^image: /),
      code: 'UNSUPPORTED_MEDIA_TYPE',
    });
    const huge = Buffer.concat([png, Buffer.alloc(10 * 1024 * 1024)]);
    const big = await send('POST', '/api/artists', admin, {
      name: 'A',
      image: { file: huge, name: 'big.png' },
    });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({ message: 'image: the file is larger than 10 MB', code: 'FILE_TOO_LARGE' });
    expect(await f.counts()).toEqual(before);
  });

  it('lets an artist account create its one profile and manage only that', async () => {
    const created = await send('POST', '/api/artists', artistUser, { name: 'Solo Act' });
    expect(created.statusCode).toBe(201);
    const artist = created.json().artist;
    expect(artist.ownerId).toBe(artistUser.id);
    const second = await send('POST', '/api/artists', artistUser, { name: 'Side Project' });
    expect(second.statusCode).toBe(409);

    const other = await send('POST', '/api/artists', otherArtistUser, { name: 'Rival' });
    const rivalId = other.json().artist._id;
    const denied = await send('PUT', `/api/artists/${rivalId}`, artistUser, { name: 'Hijacked' });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().code).toBe('NOT_YOUR_ARTIST');
    expect((await send('DELETE', `/api/artists/${rivalId}`, artistUser)).statusCode).toBe(403);

    const updated = await send('PUT', `/api/artists/${artist._id}`, artistUser, {
      bio: 'New bio',
      subscriptionPrice: '2',
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      message: 'Artist updated successfully',
      artist: { name: 'Solo Act', bio: 'New bio', subscriptionPrice: 200 },
    });
    const takeover = await send('PUT', `/api/artists/${artist._id}`, artistUser, {
      ownerId: otherArtistUser.id,
    });
    expect(takeover.statusCode).toBe(403);
  });

  it('only lets an admin name an artist account as owner', async () => {
    const bad = await send('POST', '/api/artists', admin, { name: 'Owned', ownerId: listener.id });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('ownerId: must be the id of an artist account');
    const fresh = await f.user('artist');
    const ok = await send('POST', '/api/artists', admin, { name: 'Owned', ownerId: fresh.id });
    expect(ok.json().artist.ownerId).toBe(fresh.id);
  });

  it('keeps search text current on rename and replaces the image', async () => {
    const created = (
      await send('POST', '/api/artists', admin, { name: 'Old Name', image: { file: png, name: 'a.png' } })
    ).json().artist;
    await f.song({ artistId: created._id, artistName: 'Old Name', title: 'Signature Tune' });
    const renamed = await send('PUT', `/api/artists/${created._id}`, admin, {
      name: 'Brand New Name',
      image: { file: png, name: 'b.png' },
    });
    expect(renamed.statusCode).toBe(200);
    const artist = renamed.json().artist;
    expect(artist.image).not.toBe(created.image);
    expect(existsSync(mediaFile(created.image))).toBe(false);
    expect(existsSync(mediaFile(artist.image))).toBe(true);
    const found = (await ctx.app.inject({ method: 'GET', url: '/api/search?q=brand%20new%20name' })).json();
    expect(found.artists[0].name).toBe('Brand New Name');
    expect(found.songs.map((s: { title: string }) => s.title)).toEqual(['Signature Tune']);
  });

  it('deletes an artist with their songs, albums and media', async () => {
    const artist = (
      await send('POST', '/api/artists', admin, { name: 'Doomed', image: { file: png, name: 'a.png' } })
    ).json().artist;
    const album = await f.album({ artistId: artist._id, title: 'Last Record' });
    await f.song({ artistId: artist._id, title: 'Last Song', albumId: album.id });
    const before = await f.counts();
    expect((await send('DELETE', `/api/artists/${UNKNOWN}`, admin)).statusCode).toBe(404);
    const res = await send('DELETE', `/api/artists/${artist._id}`, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Artist deleted successfully' });
    const after = await f.counts();
    expect([
      before.artists - after.artists,
      before.albums - after.albums,
      before.songs - after.songs,
    ]).toEqual([1, 1, 1]);
    expect(existsSync(mediaFile(artist.image))).toBe(false);
    expect((await ctx.app.inject({ method: 'GET', url: `/api/artists/${artist._id}` })).statusCode).toBe(404);
  });
});

describe('GET /api/media/*', () => {
  it('serves only image keys', async () => {
    for (const url of [
      '/api/media/songs/x/index.m3u8',
      '/api/media/songs/x/enc.key',
      '/api/media/uploads/x/source',
      '/api/media/images/artist/0123456789abcdef/../../../secret.key',
      '/api/media/images/artist/0123456789abcdef/missing.webp',
    ]) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toMatch(/NOT_FOUND/);
    }
  });
});
