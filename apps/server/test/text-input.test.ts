import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playlists, sessions, users } from '../src/db/schema';
import { findInvalidText } from '../src/platform/text-input';
import { countRows, randomIp, uniqueEmail } from './auth-helpers';
import { catalogFixtures, multipartForm } from './catalog-fixtures';
import { createTestApp, type TestContext } from './test-app';

let ctx: TestContext;
let f: ReturnType<typeof catalogFixtures>;
let listener: Awaited<ReturnType<typeof f.user>>;
let admin: Awaited<ReturnType<typeof f.user>>;

beforeAll(async () => {
  ctx = await createTestApp();
  f = catalogFixtures(ctx.database);
  [listener, admin] = await Promise.all([f.user('user'), f.user('admin')]);
  await f.genre('Jazz');
});
afterAll(() => ctx.close());

const NUL_MESSAGE = 'must not contain the NUL character (U+0000)';
const SURROGATE_MESSAGE = 'must not contain an unpaired UTF-16 surrogate';

describe('NUL characters in text input: 400 INVALID_TEXT, never a 500', () => {
  it.each([
    ['/api/search?q=ab%00cd', 'q'],
    ['/api/artists?q=ab%00cd', 'q'],
    ['/api/songs/genre/%00', 'genre'],
    ['/api/songs/genre/Ja%00zz', 'genre'],
  ])('GET %s', async (url, field) => {
    const res = await ctx.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: `${field}: ${NUL_MESSAGE}`, code: 'INVALID_TEXT' });
  });

  it('POST /api/users/register with a NUL in the name creates no account and no session', async () => {
    const [usersBefore, sessionsBefore] = [await countRows(ctx, users), await countRows(ctx, sessions)];
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/register',
      payload: { name: 'Ann\u0000Bee', email: uniqueEmail(), password: 'a long password' },
      remoteAddress: randomIp(),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: `name: ${NUL_MESSAGE}`, code: 'INVALID_TEXT' });
    expect(res.cookies).toHaveLength(0);
    expect(await countRows(ctx, users)).toBe(usersBefore);
    expect(await countRows(ctx, sessions)).toBe(sessionsBefore);
  });

  it('POST /api/playlists with a NUL in the name writes no playlist', async () => {
    const before = await countRows(ctx, playlists);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/playlists',
      headers: listener.headers,
      payload: { name: 'Late\u0000night' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: `name: ${NUL_MESSAGE}`, code: 'INVALID_TEXT' });
    expect(await countRows(ctx, playlists)).toBe(before);
  });

  it('checks multipart form fields too (artist form), before any file or row is written', async () => {
    const before = await f.counts();
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/artists',
      headers: admin.headers,
      payload: multipartForm({ name: 'Neon\u0000Harbor', genre: 'Jazz' }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: `name: ${NUL_MESSAGE}`, code: 'INVALID_TEXT' });
    expect(await f.counts()).toEqual(before);
  });
});

describe('unpaired surrogates in text input', () => {
  it('refuses a lone surrogate in a JSON body (it has no UTF-8 form), and writes nothing', async () => {
    const before = await countRows(ctx, playlists);
    for (const name of ['\uD83Dmix', 'mix\uDFB5', 'mix \uDFB5\uD83D']) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/playlists',
        headers: listener.headers,
        payload: { name },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: `name: ${SURROGATE_MESSAGE}`, code: 'INVALID_TEXT' });
    }
    expect(await countRows(ctx, playlists)).toBe(before);
  });

  it('accepts paired surrogates (emoji) and other text as before', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/playlists',
      headers: listener.headers,
      payload: { name: '\uD83C\uDFB5 Late night café' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().playlist.name).toBe('🎵 Late night café');
    const search = await ctx.app.inject({
      method: 'GET',
      url: `/api/search?q=${encodeURIComponent('🎵 ab')}`,
    });
    expect(search.statusCode).toBe(200);
  });
});

describe('findInvalidText', () => {
  it('names the nested field, checks field names, and survives very deep nesting', () => {
    expect(findInvalidText({ songs: [{ title: 'ok' }, { title: 'a\u0000' }] }, 'body')).toEqual({
      path: 'body.songs.1.title',
      problem: NUL_MESSAGE,
    });
    expect(findInvalidText({ 'na\u0000me': 'ok' }, 'body')).toEqual({
      path: 'body (a field name)',
      problem: NUL_MESSAGE,
    });
    let deep: unknown = 'bad\u0000';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(findInvalidText(deep, 'body')?.problem).toBe(NUL_MESSAGE);
    expect(findInvalidText(Buffer.from('raw\u0000bytes'), 'body')).toBeNull();
  });
});
