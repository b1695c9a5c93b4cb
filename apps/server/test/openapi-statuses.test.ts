import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StreamTokenService } from '../src/modules/streaming';
import { createTestApp, type TestContext } from './test-app';
import { createAlbum, createArtist, createSong, createUser, type TestUser } from './stream.fixtures';

type Operation = { responses: Record<string, { content?: Record<string, unknown> }> };
type Doc = { paths: Record<string, Record<string, Operation>> };

let ctx: TestContext;
let doc: Doc;
let listener: TestUser;
let admin: TestUser;
const ids = { song: '', processing: '', premium: '' };
const MISSING = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  [listener, admin] = await Promise.all([createUser(db), createUser(db, 'admin')]);
  const artistId = await createArtist(db, { name: 'Doc Artist' });
  ids.song = await createSong(db, { artistId });
  ids.processing = await createSong(db, { artistId, status: 'processing', hlsPrefix: null });
  ids.premium = await createAlbum(db, { artistId, title: 'Premium', isPremium: true });
  await createSong(db, { artistId, albumId: ids.premium, trackNumber: 1, accessType: 'purchase-only' });
  doc = (await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<Doc>();
});
afterAll(() => ctx.close());

const tokenFor = (user: TestUser, songId: string) =>
  new StreamTokenService(ctx.config.secretKey).issue({ userId: user.id, sessionId: user.sessionId }, songId);

const documented = (method: string, path: string) =>
  Object.keys(doc.paths[path]?.[method.toLowerCase()]?.responses ?? {});

describe('the OpenAPI document lists every status a route answers', () => {
  const cases: Array<{
    method: 'GET' | 'POST';
    path: string;
    url: () => string;
    status: number;
    code: string;
    as?: () => TestUser;
    payload?: () => object;
  }> = [
    {
      method: 'GET',
      path: '/api/stream/song/{id}',
      url: () => '/api/stream/song/nope',
      status: 400,
      code: 'VALIDATION_ERROR',
      as: () => listener,
    },
    {
      method: 'GET',
      path: '/api/stream/song/{id}',
      url: () => `/api/stream/song/${ids.song}`,
      status: 403,
      code: 'ACCESS_DENIED',
      as: () => listener,
    },
    {
      method: 'GET',
      path: '/api/stream/album/{id}',
      url: () => '/api/stream/album/nope',
      status: 400,
      code: 'VALIDATION_ERROR',
      as: () => listener,
    },
    {
      method: 'GET',
      path: '/api/stream/album/{id}',
      url: () => `/api/stream/album/${ids.premium}`,
      status: 403,
      code: 'ACCESS_DENIED',
      as: () => listener,
    },
    {
      method: 'GET',
      path: '/api/stream/audio/{songId}',
      url: () => '/api/stream/audio/nope?token=x',
      status: 400,
      code: 'VALIDATION_ERROR',
    },
    {
      method: 'GET',
      path: '/api/stream/audio/{songId}',
      url: () => `/api/stream/audio/${ids.song}?token=forged`,
      status: 403,
      code: 'INVALID_STREAM_TOKEN',
    },
    {
      method: 'GET',
      path: '/api/stream/audio/{songId}',
      url: () => `/api/stream/audio/${ids.song}?token=${tokenFor(listener, ids.song)}`,
      status: 403,
      code: 'ACCESS_DENIED',
    },
    {
      method: 'GET',
      path: '/api/stream/audio/{songId}',
      url: () => `/api/stream/audio/${ids.processing}?token=${tokenFor(admin, ids.processing)}`,
      status: 409,
      code: 'SONG_PROCESSING',
    },
    {
      method: 'GET',
      path: '/api/stream/hls/{songId}/key',
      url: () => `/api/stream/hls/${ids.song}/key?token=${tokenFor(listener, ids.song)}`,
      status: 403,
      code: 'ACCESS_DENIED',
    },
    {
      method: 'GET',
      path: '/api/stream/hls/{songId}/key',
      url: () => `/api/stream/hls/${MISSING}/key?token=${tokenFor(admin, MISSING)}`,
      status: 404,
      code: 'SONG_NOT_FOUND',
    },
    {
      method: 'GET',
      path: '/api/stream/hls/{songId}/index.m3u8',
      url: () => `/api/stream/hls/${ids.song}/index.m3u8`,
      status: 403,
      code: 'INVALID_STREAM_TOKEN',
    },
    {
      method: 'GET',
      path: '/api/stream/hls/{songId}/{segment}',
      url: () => `/api/stream/hls/${ids.song}/seg_0000.ts`,
      status: 404,
      code: 'SEGMENT_NOT_FOUND',
    },
    {
      method: 'POST',
      path: '/api/stream/plays',
      url: () => '/api/stream/plays',
      status: 403,
      code: 'ACCESS_DENIED',
      as: () => listener,
      payload: () => ({ songId: ids.song, secondsListened: 3 }),
    },
    {
      method: 'POST',
      path: '/api/stream/plays',
      url: () => '/api/stream/plays',
      status: 409,
      code: 'SONG_PROCESSING',
      as: () => admin,
      payload: () => ({ songId: ids.processing, secondsListened: 3 }),
    },
    {
      method: 'GET',
      path: '/api/users/me/recently-played',
      url: () => '/api/users/me/recently-played?limit=0',
      status: 400,
      code: 'VALIDATION_ERROR',
      as: () => listener,
    },
    {
      method: 'GET',
      path: '/api/users/me/recently-played',
      url: () => '/api/users/me/recently-played?limit=5%00',
      status: 400,
      code: 'INVALID_TEXT',
      as: () => listener,
    },
    {
      method: 'GET',
      path: '/api/genres',
      url: () => '/api/genres?sort=%00',
      status: 400,
      code: 'INVALID_TEXT',
    },
    { method: 'GET', path: '/api/health', url: () => '/api/health?x=%00', status: 400, code: 'INVALID_TEXT' },
  ];

  it.each(cases)('$method $path answers $status $code, and the document lists $status', async (c) => {
    const res = await ctx.app.inject({
      method: c.method,
      url: c.url(),
      headers: c.as ? c.as().headers : {},
      ...(c.payload && { payload: c.payload() }),
    });
    expect(res.statusCode).toBe(c.status);
    expect(res.json()).toMatchObject({ message: expect.any(String), code: c.code });
    expect(documented(c.method, c.path)).toContain(String(c.status));
  });

  // 414, 415 and 503 are documented for every route they can reach (platform/shared-responses.ts).
  it('documents the media answers with their content types, ranges and refusals', () => {
    const expected: Array<[string, string, string[]]> = [
      ['get', '/api/stream/song/{id}', ['200', '400', '401', '403', '404', '409', '414', '503']],
      ['get', '/api/stream/album/{id}', ['200', '400', '401', '403', '404', '414', '503']],
      ['get', '/api/stream/hls/{songId}/index.m3u8', ['200', '400', '403', '404', '414', '503']],
      ['get', '/api/stream/hls/{songId}/key', ['200', '400', '403', '404', '409', '414', '503']],
      ['get', '/api/stream/hls/{songId}/{segment}', ['200', '206', '304', '400', '404', '414', '416', '503']],
      [
        'head',
        '/api/stream/hls/{songId}/{segment}',
        ['200', '206', '304', '400', '404', '414', '416', '503'],
      ],
      [
        'get',
        '/api/stream/audio/{songId}',
        ['200', '206', '304', '400', '403', '404', '409', '414', '416', '503'],
      ],
      [
        'head',
        '/api/stream/audio/{songId}',
        ['200', '206', '304', '400', '403', '404', '409', '414', '416', '503'],
      ],
      ['post', '/api/stream/plays', ['200', '201', '400', '401', '403', '404', '409', '415', '503']],
      ['get', '/api/users/me/recently-played', ['200', '400', '401', '503']],
    ];
    for (const [method, path, statuses] of expected) {
      expect(documented(method, path).sort(), `${method} ${path}`).toEqual(statuses);
    }
    const responses = (method: string, path: string) => doc.paths[path]![method]!.responses;
    expect(Object.keys(responses('get', '/api/stream/audio/{songId}')['200']!.content!)).toEqual([
      'audio/mp4',
    ]);
    expect(Object.keys(responses('get', '/api/stream/hls/{songId}/key')['200']!.content!)).toEqual([
      'application/octet-stream',
    ]);
    expect(responses('get', '/api/stream/audio/{songId}')['304']!.content).toBeUndefined();
  });

  it('lists the 400 of the text check (NUL, unpaired surrogates) on every documented operation', () => {
    const missing = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => !('400' in operation.responses))
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(missing).toEqual([]);
  });
});
