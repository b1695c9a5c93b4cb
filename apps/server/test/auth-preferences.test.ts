import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artists, genres, likes, songs, userPreferredGenres } from '../src/db/schema';
import { bearer, countRows, MemoryMailer, registerUser, type Registered } from './auth-helpers';
import { createTestApp, type TestContext } from './test-app';

let ctx: TestContext;
let account: Registered;
let songIds: string[];

beforeAll(async () => {
  ctx = await createTestApp({ services: { mailer: new MemoryMailer() } });
  const db = ctx.database.db;
  await db.insert(genres).values([
    { name: 'Hip-Hop', slug: 'hip-hop' },
    { name: 'Jazz', slug: 'jazz' },
    { name: 'Rock', slug: 'rock' },
  ]);
  const [artist] = await db.insert(artists).values({ name: 'Nina' }).returning();
  const inserted = await db
    .insert(songs)
    .values([
      { artistId: artist!.id, title: 'One', singer: 'Nina' },
      { artistId: artist!.id, title: 'Two', singer: 'Nina' },
    ])
    .returning({ id: songs.id });
  songIds = inserted.map((row) => row.id);
  account = await registerUser(ctx);
});
afterAll(() => ctx.close());

const updateGenres = (payload: unknown, token = account.token) =>
  ctx.app.inject({
    method: 'PUT',
    url: '/api/users/update-genres',
    headers: bearer(token),
    payload: payload as object,
  });
const toggleLike = (songId: string, token = account.token) =>
  ctx.app.inject({ method: 'PUT', url: `/api/users/likedsong/${songId}`, headers: bearer(token) });
const me = async (token = account.token) =>
  (await ctx.app.inject({ method: 'GET', url: '/api/users/me', headers: bearer(token) })).json();

describe('PUT /api/users/update-genres', () => {
  it('accepts names and slugs in any case and answers the genre names', async () => {
    const res = await updateGenres({ genres: ['HIP-HOP', 'jazz', 'Jazz'] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Preferred genres updated', preferredGenres: ['Hip-Hop', 'Jazz'] });
    expect((await me()).preferredGenres).toEqual(['Hip-Hop', 'Jazz']);
  });

  it('replaces the whole set', async () => {
    await updateGenres({ genres: ['jazz', 'rock'] });
    const res = await updateGenres({ genres: [' Rock '] });
    expect(res.json().preferredGenres).toEqual(['Rock']);
    expect((await me()).preferredGenres).toEqual(['Rock']);
  });

  it.each([
    [{ genres: ['Rock', 'Polka'] }, 'Unknown genre: Polka', 'UNKNOWN_GENRE'],
    [{ genres: [] }, 'genres: Choose at least one genre', 'VALIDATION_ERROR'],
    [{}, 'genres: genres must be a list', 'VALIDATION_ERROR'],
    [{ genres: 'Rock' }, 'genres: genres must be a list', 'VALIDATION_ERROR'],
    [{ genres: [''] }, undefined, 'VALIDATION_ERROR'],
    [
      { genres: Array.from({ length: 21 }, () => 'Rock') },
      'genres: Choose at most 20 genres',
      'VALIDATION_ERROR',
    ],
  ])('answers 400 for %j and keeps the previous choice', async (payload, message, code) => {
    await updateGenres({ genres: ['jazz'] });
    const before = await countRows(ctx, userPreferredGenres);
    const res = await updateGenres(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(code);
    if (message) expect(res.json().message).toBe(message);
    else expect(res.json().message).toMatch(/^genres\.0: /);
    expect(await countRows(ctx, userPreferredGenres)).toBe(before);
    expect((await me()).preferredGenres).toEqual(['Jazz']);
  });

  it('answers a guest with 401 and writes nothing', async () => {
    const before = await countRows(ctx, userPreferredGenres);
    const res = await ctx.app.inject({
      method: 'PUT',
      url: '/api/users/update-genres',
      payload: { genres: ['Rock'] },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Authentication token missing. Please login.');
    expect(await countRows(ctx, userPreferredGenres)).toBe(before);
  });
});

describe('PUT /api/users/likedsong/:songId', () => {
  it('toggles the like and answers the liked list', async () => {
    const [first, second] = songIds as [string, string];
    const liked = await toggleLike(first);
    expect(liked.statusCode).toBe(200);
    expect(liked.json()).toEqual({ message: 'Song added to liked songs', liked: true, likedsong: [first] });
    await toggleLike(second);
    expect((await me()).likedsong).toEqual([first, second]);

    const unliked = await toggleLike(first);
    expect(unliked.json()).toEqual({
      message: 'Song removed from liked songs',
      liked: false,
      likedsong: [second],
    });
    expect((await me()).likedsong).toEqual([second]);
  });

  it('keeps likes per user', async () => {
    const other = await registerUser(ctx);
    await toggleLike(songIds[0]!, other.token);
    expect((await me(other.token)).likedsong).toEqual([songIds[0]]);
    expect((await me()).likedsong).not.toContain(songIds[0]);
  });

  it('answers 404 "Song not found" for an unknown song and 400 for a malformed id; nothing written', async () => {
    const before = await countRows(ctx, likes);
    const missing = await toggleLike('00000000-0000-4000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Song not found', code: 'SONG_NOT_FOUND' });
    const malformed = await toggleLike('not-a-uuid');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ message: 'songId: Invalid song id', code: 'VALIDATION_ERROR' });
    expect(await countRows(ctx, likes)).toBe(before);
  });

  it('answers a guest with 401', async () => {
    const res = await ctx.app.inject({ method: 'PUT', url: `/api/users/likedsong/${songIds[0]}` });
    expect(res.statusCode).toBe(401);
  });

  it('drops the like when the song is deleted', async () => {
    const [artist] = await ctx.database.db.insert(artists).values({ name: 'Temp' }).returning();
    const [song] = await ctx.database.db
      .insert(songs)
      .values({ artistId: artist!.id, title: 'Gone', singer: 'Temp' })
      .returning();
    await toggleLike(song!.id);
    await ctx.database.db.delete(songs).where(eq(songs.id, song!.id));
    expect((await me()).likedsong).not.toContain(song!.id);
  });
});
