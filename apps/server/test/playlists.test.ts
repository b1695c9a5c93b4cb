import { eq, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playlistEntries, playlists, songs } from '../src/db/schema';
import { catalogFixtures } from './catalog-fixtures';
import { createTestApp, type TestContext } from './test-app';

let ctx: TestContext;
let f: ReturnType<typeof catalogFixtures>;
type TestUser = Awaited<ReturnType<typeof f.user>>;
let listener: TestUser;
let other: TestUser;
let admin: TestUser;
const ids: Record<string, string> = {};
const MISSING = '00000000-0000-4000-8000-000000000000';

interface SongView {
  _id: string;
  title: string;
  canPlay: boolean;
  status: string;
}
interface Summary {
  _id: string;
  name: string;
  description: string;
  songCount: number;
  cover: string | null;
  covers: string[];
  createdAt: string;
  updatedAt: string;
}
type Detail = Summary & { songs: SongView[] };

const call = (
  method: InjectOptions['method'],
  url: string,
  user: TestUser | null,
  payload?: InjectOptions['payload'],
) => ctx.app.inject({ method, url, headers: user ? user.headers : {}, payload });

async function createPlaylist(user: TestUser, name: string, description?: string): Promise<string> {
  const res = await call('POST', '/api/playlists', user, { name, description });
  expect(res.statusCode).toBe(201);
  return res.json<{ playlist: Summary }>().playlist._id;
}

async function detail(user: TestUser, id: string): Promise<Detail> {
  const res = await call('GET', `/api/playlists/${id}`, user);
  expect(res.statusCode).toBe(200);
  return res.json<{ playlist: Detail }>().playlist;
}

const titles = (playlist: Detail) => playlist.songs.map((song) => song.title);

/** Everything a refused request could have touched: playlists, entries, and every entry's position. */
async function snapshot() {
  const rows = await ctx.database.query<{ state: string }>(
    sql`select coalesce(string_agg(p.id || ':' || p.name || ':' || p.description || ':' || p.updated_at::text, ','
                 order by p.id), '') ||
               '|' || coalesce((select string_agg(pe.playlist_id || ':' || pe.song_id || ':' || pe.position, ','
                 order by pe.playlist_id, pe.song_id) from playlist_entries pe), '') as state
        from playlists p`,
  );
  return rows[0]!.state;
}

beforeAll(async () => {
  ctx = await createTestApp();
  f = catalogFixtures(ctx.database);
  listener = await f.user('user');
  other = await f.user('user');
  admin = await f.user('admin');
  const jazz = await f.genre('Jazz');
  const nova = await f.artist({ name: 'Nova Reyes', genreId: jazz.id });
  const premium = await f.album({ artistId: nova.id, title: 'Night Shift', isPremium: true, price: 999 });
  ids.nova = nova.id;
  ids.premium = premium.id;
  for (const [key, accessType] of [
    ['One', 'subscription'],
    ['Two', 'purchase-only'],
    ['Three', 'subscription'],
    ['Four', 'purchase-only'],
  ] as const) {
    const song = await f.song({ artistId: nova.id, artistName: 'Nova Reyes', title: key, accessType });
    ids[key] = song.id;
  }
  const onAlbum = await f.song({
    artistId: nova.id,
    artistName: 'Nova Reyes',
    title: 'Album Track',
    albumId: premium.id,
    trackNumber: 1,
  });
  ids['Album Track'] = onAlbum.id;
  ids.processing = (await f.song({ artistId: nova.id, title: 'Still Processing', status: 'processing' })).id;
  ids.failed = (await f.song({ artistId: nova.id, title: 'Broken Upload', status: 'failed' })).id;
  // The listener may play "Two" (bought); nothing else.
  await f.purchase(listener.id, { songId: ids.Two });
  await ctx.database.db.update(songs).set({ coverImage: 'covers/two.webp' }).where(eq(songs.id, ids.Two!));
  await ctx.database.db.update(songs).set({ coverImage: 'covers/four.webp' }).where(eq(songs.id, ids.Four!));
});
afterAll(() => ctx.close());

describe('guests', () => {
  it.each([
    ['GET', '/api/playlists'],
    ['POST', '/api/playlists'],
    ['GET', `/api/playlists/${MISSING}`],
    ['PUT', `/api/playlists/${MISSING}`],
    ['DELETE', `/api/playlists/${MISSING}`],
    ['POST', `/api/playlists/${MISSING}/songs`],
    ['DELETE', `/api/playlists/${MISSING}/songs/${MISSING}`],
    ['PUT', `/api/playlists/${MISSING}/order`],
  ] as const)('%s %s answers 401 and writes nothing', async (method, url) => {
    const before = await snapshot();
    const payload =
      method === 'GET' || method === 'DELETE' ? undefined : { name: 'x', songId: MISSING, songIds: [] };
    const res = await call(method, url, null, payload);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      message: 'Authentication token missing. Please login.',
      code: 'UNAUTHENTICATED',
    });
    expect(await snapshot()).toBe(before);
  });
});

describe('POST /api/playlists', () => {
  it('creates a playlist with a trimmed name and answers 201 with it', async () => {
    const res = await call('POST', '/api/playlists', listener, {
      name: '  Late Night  ',
      description: ' calm ',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json<{ message: string; playlist: Summary }>();
    expect(body.message).toBe('Playlist created');
    expect(Object.keys(body.playlist).sort()).toEqual(
      ['_id', 'cover', 'covers', 'createdAt', 'description', 'name', 'songCount', 'updatedAt'].sort(),
    );
    expect(body.playlist).toMatchObject({
      name: 'Late Night',
      description: 'calm',
      songCount: 0,
      cover: null,
      covers: [],
    });
  });

  it('defaults the description to empty', async () => {
    const res = await call('POST', '/api/playlists', listener, { name: 'No description' });
    expect(res.json<{ playlist: Summary }>().playlist.description).toBe('');
  });

  it.each([
    [{}, 'name: is required'],
    [{ name: '' }, 'name: is required'],
    [{ name: '    ' }, 'name: is required'],
    [{ name: 42 }, 'name: is required'],
    [{ name: 'x'.repeat(101) }, 'name: must be at most 100 characters'],
    [{ name: 'ok', description: 'x'.repeat(501) }, 'description: must be at most 500 characters'],
    [{ name: 'ok', description: 7 }, 'description: must be text'],
  ])('refuses %j with 400 and writes nothing', async (payload, message) => {
    const before = await snapshot();
    const res = await call('POST', '/api/playlists', listener, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message, code: 'VALIDATION_ERROR' });
    expect(await snapshot()).toBe(before);
  });

  it('accepts a name of exactly 100 characters and a description of 500', async () => {
    const res = await call('POST', '/api/playlists', other, {
      name: 'n'.repeat(100),
      description: 'd'.repeat(500),
    });
    expect(res.statusCode).toBe(201);
    await call('DELETE', `/api/playlists/${res.json<{ playlist: Summary }>().playlist._id}`, other);
  });

  it('refuses the 201st playlist of a user with 409 and writes nothing', async () => {
    const heavy = await f.user('user');
    await ctx.database.db
      .insert(playlists)
      .values(Array.from({ length: 200 }, (_, i) => ({ userId: heavy.id, name: `P${i}` })));
    const before = await snapshot();
    const res = await call('POST', '/api/playlists', heavy, { name: 'One too many' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      message: 'You can have at most 200 playlists',
      code: 'PLAYLIST_LIMIT_REACHED',
    });
    expect(await snapshot()).toBe(before);
  });

  it('holds the limit when creations race', async () => {
    const racer = await f.user('user');
    await ctx.database.db
      .insert(playlists)
      .values(Array.from({ length: 198 }, (_, i) => ({ userId: racer.id, name: `P${i}` })));
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => call('POST', '/api/playlists', racer, { name: `Race ${i}` })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 201, 409, 409, 409]);
    const [row] = await ctx.database.query<{ n: number }>(
      sql`select count(*)::int as n from playlists where user_id = ${racer.id}`,
    );
    expect(Number(row!.n)).toBe(200);
  });
});

describe('songs in a playlist', () => {
  let id: string;
  beforeAll(async () => {
    id = await createPlaylist(listener, 'Building');
  });

  it('appends songs in order and answers 201 with the playlist and its songs', async () => {
    for (const key of ['One', 'Two', 'Three']) {
      const res = await call('POST', `/api/playlists/${id}/songs`, listener, { songId: ids[key] });
      expect(res.statusCode).toBe(201);
      const body = res.json<{ message: string; playlist: Detail }>();
      expect(body.message).toBe('Song added to playlist');
      expect(body.playlist.songs.at(-1)!._id).toBe(ids[key]);
    }
    const playlist = await detail(listener, id);
    expect(titles(playlist)).toEqual(['One', 'Two', 'Three']);
    expect(playlist.songCount).toBe(3);
  });

  it('shows each song exactly as the catalogue does, with canPlay for the viewer', async () => {
    await call('POST', `/api/playlists/${id}/songs`, listener, { songId: ids['Album Track'] });
    const playlist = await detail(listener, id);
    const album = await call('GET', `/api/songs/album/${ids.premium}`, listener);
    const fromCatalogue = album.json<SongView[]>()[0]!;
    const inPlaylist = playlist.songs.find((song) => song._id === ids['Album Track'])!;
    expect(inPlaylist).toEqual(fromCatalogue);
    expect(Object.keys(inPlaylist).sort()).toEqual(
      [
        '_id',
        'title',
        'singer',
        'coverImage',
        'audioUrl',
        'duration',
        'accessType',
        'freeToStream',
        'price',
        'currency',
        'genre',
        'artist',
        'album',
        'status',
        'canPlay',
        'previewStartSec',
        'canDownload',
        'createdAt',
      ].sort(),
    );
    expect(playlist.songs.map((song) => [song.title, song.canPlay])).toEqual([
      ['One', false],
      ['Two', true],
      ['Three', false],
      ['Album Track', false],
    ]);
    await call('DELETE', `/api/playlists/${id}/songs/${ids['Album Track']}`, listener);
  });

  it('refuses a song already in the playlist with 409 and writes nothing', async () => {
    const before = await snapshot();
    const res = await call('POST', `/api/playlists/${id}/songs`, listener, { songId: ids.One });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      message: 'This song is already in the playlist',
      code: 'ALREADY_IN_PLAYLIST',
    });
    expect(await snapshot()).toBe(before);
  });

  it.each([
    [() => ({ songId: MISSING }), 404, { message: 'Song not found', code: 'SONG_NOT_FOUND' }],
    [
      () => ({ songId: ids.processing }),
      409,
      { message: 'This song is still processing; add it once it is ready', code: 'SONG_NOT_READY' },
    ],
    [
      () => ({ songId: ids.failed }),
      409,
      { message: 'This song failed to process and cannot be added', code: 'SONG_NOT_READY' },
    ],
    [() => ({ songId: 'abc' }), 400, { message: 'songId: Invalid UUID', code: 'VALIDATION_ERROR' }],
    [
      () => ({}),
      400,
      { message: 'songId: Invalid input: expected string, received undefined', code: 'VALIDATION_ERROR' },
    ],
  ])(
    'refuses a bad song (%#) with the right status and message, writing nothing',
    async (body, status, error) => {
      const before = await snapshot();
      const res = await call('POST', `/api/playlists/${id}/songs`, listener, body());
      expect(res.statusCode).toBe(status);
      expect(res.json()).toEqual(error);
      expect(await snapshot()).toBe(before);
    },
  );

  it('reorders the songs to the given permutation', async () => {
    const res = await call('PUT', `/api/playlists/${id}/order`, listener, {
      songIds: [ids.Three, ids.One, ids.Two],
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ message: string; playlist: Detail }>();
    expect(body.message).toBe('Playlist order saved');
    expect(titles(body.playlist)).toEqual(['Three', 'One', 'Two']);
    expect(titles(await detail(listener, id))).toEqual(['Three', 'One', 'Two']);
    // A song added after a reorder goes to the end.
    await call('POST', `/api/playlists/${id}/songs`, listener, { songId: ids.Four });
    expect(titles(await detail(listener, id))).toEqual(['Three', 'One', 'Two', 'Four']);
    await call('DELETE', `/api/playlists/${id}/songs/${ids.Four}`, listener);
  });

  it.each([
    ['a song missing', () => [ids.Three, ids.One]],
    ['an extra song', () => [ids.Three, ids.One, ids.Two, ids.Four]],
    ['a duplicate', () => [ids.Three, ids.One, ids.One]],
    ['a song not in it', () => [ids.Three, ids.One, ids.Four]],
    ['nothing', () => []],
  ])('refuses an order with %s with 400 and keeps the order', async (_label, songIds) => {
    const before = await snapshot();
    const res = await call('PUT', `/api/playlists/${id}/order`, listener, { songIds: songIds() });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: 'songIds must list every song of the playlist exactly once',
      code: 'PLAYLIST_ORDER_MISMATCH',
    });
    expect(await snapshot()).toBe(before);
    expect(titles(await detail(listener, id))).toEqual(['Three', 'One', 'Two']);
  });

  it.each([
    [{ songIds: 'nope' }, 'songIds: Invalid input: expected array, received string'],
    [{ songIds: ['nope'] }, 'songIds.0: Invalid UUID'],
    [{}, 'songIds: Invalid input: expected array, received undefined'],
  ])('refuses a malformed order %j with 400', async (payload, message) => {
    const before = await snapshot();
    const res = await call('PUT', `/api/playlists/${id}/order`, listener, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message, code: 'VALIDATION_ERROR' });
    expect(await snapshot()).toBe(before);
  });

  it('removes a song and keeps the order of the rest', async () => {
    const res = await call('DELETE', `/api/playlists/${id}/songs/${ids.One}`, listener);
    expect(res.statusCode).toBe(200);
    const body = res.json<{ message: string; playlist: Detail }>();
    expect(body.message).toBe('Song removed from playlist');
    expect(titles(body.playlist)).toEqual(['Three', 'Two']);
    expect(body.playlist.songCount).toBe(2);
  });

  it('answers 404 when removing a song that is not in the playlist', async () => {
    const before = await snapshot();
    const res = await call('DELETE', `/api/playlists/${id}/songs/${ids.One}`, listener);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'This song is not in the playlist', code: 'NOT_IN_PLAYLIST' });
    expect(await snapshot()).toBe(before);
  });

  it('keeps a song that went back to processing, with its status, and drops a deleted song', async () => {
    const temp = await f.song({ artistId: ids.nova!, title: 'Temporary' });
    await call('POST', `/api/playlists/${id}/songs`, listener, { songId: temp.id });
    await ctx.database.db.update(songs).set({ status: 'processing' }).where(eq(songs.id, temp.id));
    const reprocessing = await detail(listener, id);
    expect(reprocessing.songs.map((s) => [s.title, s.status])).toEqual([
      ['Three', 'ready'],
      ['Two', 'ready'],
      ['Temporary', 'processing'],
    ]);
    await ctx.database.db.delete(songs).where(eq(songs.id, temp.id));
    const after = await detail(listener, id);
    expect(titles(after)).toEqual(['Three', 'Two']);
    expect(after.songCount).toBe(2);
  });

  it('keeps positions distinct when additions race', async () => {
    const raced = await createPlaylist(listener, 'Raced');
    const keys = ['One', 'Two', 'Three', 'Four'];
    const results = await Promise.all(
      [...keys, 'One'].map((key) =>
        call('POST', `/api/playlists/${raced}/songs`, listener, { songId: ids[key] }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 201, 201, 201, 409]);
    const rows = await ctx.database.db
      .select({ position: playlistEntries.position })
      .from(playlistEntries)
      .where(eq(playlistEntries.playlistId, raced));
    expect(new Set(rows.map((row) => row.position)).size).toBe(4);
    await call('DELETE', `/api/playlists/${raced}`, listener);
  });

  it('refuses the 501st song with 409 and writes nothing', async () => {
    const full = await createPlaylist(other, 'Full');
    const many = await ctx.database.db
      .insert(songs)
      .values(
        Array.from({ length: 501 }, (_, i) => ({
          artistId: ids.nova!,
          title: `Bulk ${i}`,
          singer: 'Nova Reyes',
          status: 'ready' as const,
        })),
      )
      .returning({ id: songs.id });
    await ctx.database.db
      .insert(playlistEntries)
      .values(many.slice(0, 500).map((song, position) => ({ playlistId: full, songId: song.id, position })));
    const before = await snapshot();
    const res = await call('POST', `/api/playlists/${full}/songs`, other, { songId: many[500]!.id });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'A playlist can hold at most 500 songs', code: 'PLAYLIST_FULL' });
    expect(await snapshot()).toBe(before);
    // A full reversal of 500 songs goes through; 501 ids are refused by the schema.
    const reversed = many
      .slice(0, 500)
      .map((song) => song.id)
      .reverse();
    const reorder = await call('PUT', `/api/playlists/${full}/order`, other, { songIds: reversed });
    expect(reorder.statusCode).toBe(200);
    expect(reorder.json<{ playlist: Detail }>().playlist.songs[0]!.title).toBe('Bulk 499');
    const tooMany = await call('PUT', `/api/playlists/${full}/order`, other, {
      songIds: many.map((s) => s.id),
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toEqual({
      message: 'songIds: must list at most 500 songs',
      code: 'VALIDATION_ERROR',
    });
    await call('DELETE', `/api/playlists/${full}`, other);
    await ctx.database.db.delete(songs).where(sql`${songs.title} like 'Bulk %'`);
  });
});

describe('GET /api/playlists', () => {
  it("lists only the user's playlists with songCount, cover and updatedAt, most recently changed first", async () => {
    const fresh = await f.user('user');
    const first = await createPlaylist(fresh, 'First');
    const second = await createPlaylist(fresh, 'Second');
    await createPlaylist(other, 'Not yours');
    await call('POST', `/api/playlists/${first}/songs`, fresh, { songId: ids.One });
    await call('POST', `/api/playlists/${first}/songs`, fresh, { songId: ids.Two });
    await call('POST', `/api/playlists/${first}/songs`, fresh, { songId: ids.Four });
    const res = await call('GET', '/api/playlists', fresh);
    expect(res.statusCode).toBe(200);
    const body = res.json<{ playlists: Summary[] }>();
    expect(Object.keys(body)).toEqual(['playlists']);
    expect(body.playlists.map((p) => [p.name, p.songCount])).toEqual([
      ['First', 3],
      ['Second', 0],
    ]);
    // "One" has no cover: the card shows the first cover in playlist order.
    expect(body.playlists[0]).toMatchObject({
      _id: first,
      cover: '/api/media/covers/two.webp',
      covers: ['/api/media/covers/two.webp', '/api/media/covers/four.webp'],
    });
    expect(Date.parse(body.playlists[0]!.updatedAt)).toBeGreaterThanOrEqual(
      Date.parse(body.playlists[1]!.updatedAt),
    );
    expect(body.playlists[1]!._id).toBe(second);
  });

  it('fills the playlist field of GET /api/users/me with the ids, oldest first', async () => {
    const fresh = await f.user('user');
    const a = await createPlaylist(fresh, 'A');
    const b = await createPlaylist(fresh, 'B');
    const me = await call('GET', '/api/users/me', fresh);
    expect(me.statusCode).toBe(200);
    expect(me.json<{ playlist: string[] }>().playlist).toEqual([a, b]);
  });
});

describe('PUT /api/playlists/:id', () => {
  let id: string;
  beforeAll(async () => {
    id = await createPlaylist(listener, 'Before', 'old text');
  });

  it('renames and keeps the description', async () => {
    const res = await call('PUT', `/api/playlists/${id}`, listener, { name: '  After ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Playlist updated',
      playlist: { name: 'After', description: 'old text' },
    });
  });

  it('changes or clears the description alone', async () => {
    const res = await call('PUT', `/api/playlists/${id}`, listener, { description: '' });
    expect(res.json()).toMatchObject({ playlist: { name: 'After', description: '' } });
  });

  it.each([
    [{}, 'body: Give a name or a description to change'],
    [{ name: ' ' }, 'name: is required'],
    [{ name: 'x'.repeat(101) }, 'name: must be at most 100 characters'],
    [{ description: 'x'.repeat(501) }, 'description: must be at most 500 characters'],
  ])('refuses %j with 400 and writes nothing', async (payload, message) => {
    const before = await snapshot();
    const res = await call('PUT', `/api/playlists/${id}`, listener, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message, code: 'VALIDATION_ERROR' });
    expect(await snapshot()).toBe(before);
  });
});

describe('owner only', () => {
  let id: string;
  beforeAll(async () => {
    id = await createPlaylist(listener, 'Private');
    await call('POST', `/api/playlists/${id}/songs`, listener, { songId: ids.One });
    await call('POST', `/api/playlists/${id}/songs`, listener, { songId: ids.Two });
  });

  const attempts = (playlistId: () => string) =>
    [
      ['GET', () => `/api/playlists/${playlistId()}`, () => undefined],
      ['PUT', () => `/api/playlists/${playlistId()}`, () => ({ name: 'Taken' })],
      ['DELETE', () => `/api/playlists/${playlistId()}`, () => undefined],
      ['POST', () => `/api/playlists/${playlistId()}/songs`, () => ({ songId: ids.Three })],
      ['DELETE', () => `/api/playlists/${playlistId()}/songs/${ids.One}`, () => undefined],
      ['PUT', () => `/api/playlists/${playlistId()}/order`, () => ({ songIds: [ids.Two, ids.One] })],
    ] as const;

  it.each(attempts(() => id))(
    "another user's %s answers 404 exactly like a missing playlist and writes nothing",
    async (method, url, payload) => {
      for (const intruder of [other, admin]) {
        const before = await snapshot();
        const res = await call(method, url(), intruder, payload());
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ message: 'Playlist not found', code: 'PLAYLIST_NOT_FOUND' });
        expect(await snapshot()).toBe(before);
      }
    },
  );

  it.each(attempts(() => MISSING))('%s on a missing playlist answers 404', async (method, url, payload) => {
    const res = await call(method, url(), listener, payload());
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Playlist not found', code: 'PLAYLIST_NOT_FOUND' });
  });

  it.each(attempts(() => 'not-a-uuid'))(
    '%s with a malformed id answers 400',
    async (method, url, payload) => {
      const before = await snapshot();
      const res = await call(method, url(), listener, payload());
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'id: Invalid UUID', code: 'VALIDATION_ERROR' });
      expect(await snapshot()).toBe(before);
    },
  );

  it('refuses a malformed song id in the path with 400', async () => {
    const res = await call('DELETE', `/api/playlists/${id}/songs/xyz`, listener);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'songId: Invalid UUID', code: 'VALIDATION_ERROR' });
  });

  it('leaves the owner playlist untouched', async () => {
    const playlist = await detail(listener, id);
    expect(playlist.name).toBe('Private');
    expect(titles(playlist)).toEqual(['One', 'Two']);
  });
});

describe('DELETE /api/playlists/:id', () => {
  it('deletes the playlist and its entries, then answers 404', async () => {
    const id = await createPlaylist(listener, 'Short-lived');
    await call('POST', `/api/playlists/${id}/songs`, listener, { songId: ids.One });
    const res = await call('DELETE', `/api/playlists/${id}`, listener);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Playlist deleted' });
    const [row] = await ctx.database.query<{ n: number }>(
      sql`select count(*)::int as n from playlist_entries where playlist_id = ${id}`,
    );
    expect(Number(row!.n)).toBe(0);
    expect((await call('GET', `/api/playlists/${id}`, listener)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/playlists/${id}`, listener)).statusCode).toBe(404);
  });
});
