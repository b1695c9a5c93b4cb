import { createDecipheriv } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { songs } from '../src/db/schema';
import { locateFfmpeg, runFfmpeg, type FfmpegTools } from '../src/modules/media';
import { catalogFixtures } from './catalog-fixtures';
import { createTestApp, diskPath, type TestContext } from './test-app';

let ctx: TestContext;
let f: ReturnType<typeof catalogFixtures>;
type User = Awaited<ReturnType<typeof f.user>>;
let tools: FfmpegTools;
let work: string;
let admin: User;
let listener: User;
let artistUser: User;
let artistId: string;
let otherArtistId: string;
const files: Record<string, Buffer> = {};
const SOURCE_SECONDS = 7.3;

type Fields = Record<string, string | { file: Buffer; name: string }>;
function form(fields: Fields): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string') data.append(name, value);
    else data.append(name, new Blob([new Uint8Array(value.file)]), value.name);
  }
  return data;
}
const send = (method: 'POST' | 'PUT' | 'DELETE', url: string, user: User | null, fields?: Fields) =>
  ctx.app.inject({ method, url, headers: user?.headers ?? {}, ...(fields && { payload: form(fields) }) });
const ffmpeg = (args: string[]) =>
  runFfmpeg(tools.ffmpeg, ['-hide_banner', '-nostdin', '-v', 'error', '-y', ...args]);
const songRow = async (id: string) =>
  (await ctx.database.db.select().from(songs).where(eq(songs.id, id)))[0]!;

/** Decrypts the AES-128 HLS segments with the key from the media store and decodes them: the real audio. */
async function decodedHlsSeconds(hlsPrefix: string): Promise<{ playlist: string; seconds: number }> {
  const dir = diskPath(ctx.app.services.mediaStore, hlsPrefix);
  const playlist = await readFile(path.join(dir, 'index.m3u8'), 'utf8');
  const key = await readFile(path.join(dir, 'enc.key'));
  const iv = Buffer.from(/IV=0x([0-9a-f]{32})/i.exec(playlist)![1]!, 'hex');
  const segments = playlist.split('\n').filter((line) => line.trim() && !line.startsWith('#'));
  const clear = await Promise.all(
    segments.map(async (name) => {
      const decipher = createDecipheriv('aes-128-cbc', key, iv);
      return Buffer.concat([decipher.update(await readFile(path.join(dir, name.trim()))), decipher.final()]);
    }),
  );
  const joined = path.join(work, `${path.basename(hlsPrefix)}.ts`);
  await writeFile(joined, Buffer.concat(clear));
  const wav = `${joined}.wav`;
  await ffmpeg(['-i', joined, wav]);
  const { stdout } = await runFfmpeg(tools.ffprobe!, [
    '-v',
    'error',
    '-show_entries',
    'format=duration',
    '-of',
    'csv=p=0',
    wav,
  ]);
  return { playlist, seconds: Number(stdout.trim()) };
}

beforeAll(async () => {
  ctx = await createTestApp();
  f = catalogFixtures(ctx.database);
  tools = await locateFfmpeg(ctx.config.ffmpegPath);
  work = await mkdtemp(path.join(tmpdir(), 'backbeat-upload-test-'));
  [admin, listener, artistUser] = await Promise.all([f.user('admin'), f.user('user'), f.user('artist')]);
  artistId = (await f.artist({ name: 'Wave Maker', ownerUserId: artistUser.id })).id;
  otherArtistId = (await f.artist({ name: 'Somebody Else' })).id;

  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:duration=${SOURCE_SECONDS}`,
    '-ac',
    '2',
    path.join(work, 'tone.wav'),
  ]);
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=660:duration=20',
    '-c:a',
    'libmp3lame',
    '-b:a',
    '128k',
    path.join(work, 'long.mp3'),
  ]);
  files.wav = await readFile(path.join(work, 'tone.wav'));
  const mp3 = await readFile(path.join(work, 'long.mp3'));
  files.mp3 = mp3;
  files.truncatedMp3 = mp3.subarray(0, Math.floor(mp3.length * 0.3));
  files.png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#ff8800' } })
    .png()
    .toBuffer();
});
afterAll(async () => {
  await ctx.close();
  await rm(work, { recursive: true, force: true });
});

describe('POST /api/songs with real audio', () => {
  let songId: string;

  it('stores the upload as processing, then the job makes AES-128 HLS of the same length', async () => {
    const res = await send('POST', '/api/songs', artistUser, {
      title: 'Sine of the Times',
      genre: 'Electronic',
      accessType: 'purchase-only',
      price: '1.99',
      audio: { file: files.wav!, name: 'tone.wav' },
      coverImage: { file: files.png!, name: 'cover.png' },
    });
    expect(res.statusCode).toBe(201);
    const { message, song } = res.json();
    expect(message).toBe('Song created successfully');
    expect(song).toMatchObject({
      title: 'Sine of the Times',
      singer: 'Wave Maker',
      accessType: 'purchase-only',
      price: 199,
      genre: 'Electronic',
      status: 'processing',
      canPlay: true,
      audioUrl: null,
      artist: { _id: artistId, name: 'Wave Maker' },
    });
    expect(song.coverImage).toMatch(/^\/api\/media\/images\/song\/.+\.webp$/);
    songId = song._id;
    const status = await ctx.app.inject({
      method: 'GET',
      url: `/api/songs/${songId}/status`,
      headers: artistUser.headers,
    });
    expect(status.json()).toEqual({ status: 'processing', failureReason: null });
    expect((await ctx.app.inject({ method: 'GET', url: '/api/songs' })).json().total).toBe(0);
    const { sourceKey } = await songRow(songId);
    expect(existsSync(diskPath(ctx.app.services.mediaStore, sourceKey!))).toBe(true);

    await ctx.app.services.jobs.drain();

    const row = await songRow(songId);
    expect(row.status).toBe('ready');
    expect(row.sourceKey).toBeNull();
    // One version per transcode attempt: `<job id, hex>v<attempt>`.
    expect(row.hlsPrefix).toMatch(new RegExp(`^songs/${songId}/[0-9a-f]{32}v1$`));
    expect(Math.abs(row.durationSec - SOURCE_SECONDS)).toBeLessThan(0.2);
    const { playlist, seconds } = await decodedHlsSeconds(row.hlsPrefix!);
    expect(playlist).toContain('#EXT-X-KEY:METHOD=AES-128');
    expect(Math.abs(seconds - SOURCE_SECONDS)).toBeLessThan(0.2);
    expect(existsSync(diskPath(ctx.app.services.mediaStore, sourceKey!))).toBe(false);

    const list = (await ctx.app.inject({ method: 'GET', url: '/api/songs' })).json();
    expect(list.total).toBe(1);
    expect(list.songs[0]).toMatchObject({ _id: songId, status: 'ready', canPlay: false, audioUrl: null });
    expect(list.songs[0].duration).toBeCloseTo(SOURCE_SECONDS, 0);
  });

  it('edits fields, and re-transcodes a new audio file into a new version', async () => {
    const before = await songRow(songId);
    const edit = await send('PUT', `/api/songs/${songId}`, artistUser, { title: 'Sine Again', price: '0.5' });
    expect(edit.statusCode).toBe(200);
    expect(edit.json()).toMatchObject({
      message: 'Song updated successfully',
      song: { title: 'Sine Again', price: 50, status: 'ready' },
    });

    const replaced = await send('PUT', `/api/songs/${songId}`, artistUser, {
      audio: { file: files.mp3!, name: 'new.mp3' },
    });
    expect(replaced.json().song.status).toBe('processing');
    await ctx.app.services.jobs.drain();
    const after = await songRow(songId);
    expect(after.status).toBe('ready');
    expect(after.hlsPrefix).not.toBe(before.hlsPrefix);
    expect(Math.abs(after.durationSec - 20)).toBeLessThan(0.2);
    expect(existsSync(diskPath(ctx.app.services.mediaStore, before.hlsPrefix!))).toBe(false);
  });

  it('refuses a text file named .mp3 with 415 and writes nothing', async () => {
    const before = await f.counts();
    const res = await send('POST', '/api/songs', artistUser, {
      title: 'Fake',
      audio: { file: Buffer.from('This is not audio. '.repeat(20)), name: 'song.mp3' },
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({
      message: expect.stringMatching(/^audio: the file is not audio/),
      code: 'UNSUPPORTED_MEDIA_TYPE',
    });
    expect(await f.counts()).toEqual(before);
  });

  it('reads forms only where a route takes one: elsewhere a form is 415 { message, code } and writes nothing', async () => {
    // The form parser lives in the upload routes' scopes only (modules/catalog/upload-form.ts `acceptForms`).
    const before = await f.counts();
    for (const [method, url] of [
      ['POST', '/api/playlists'],
      ['POST', '/api/users/login'],
      ['DELETE', '/api/songs/00000000-0000-4000-8000-000000000000'],
    ] as const) {
      const res = await send(method, url, artistUser, { name: 'A form', title: 'A form' });
      expect(res.statusCode, `${method} ${url}`).toBe(415);
      expect(res.json()).toEqual({ message: 'Unsupported Media Type', code: 'UNSUPPORTED_MEDIA_TYPE' });
    }
    expect(await f.counts()).toEqual(before);
  });

  it('refuses audio-looking bytes that ffprobe cannot decode with 422', async () => {
    const before = await f.counts();
    const garbage = Buffer.concat([Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt '), Buffer.alloc(400, 7)]);
    const res = await send('POST', '/api/songs', artistUser, {
      title: 'Garbage',
      audio: { file: garbage, name: 'x.wav' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/^audio: /);
    expect(await f.counts()).toEqual(before);
  });

  it('marks a truncated MP3 as failed with a readable reason', async () => {
    const res = await send('POST', '/api/songs', artistUser, {
      title: 'Cut Short',
      audio: { file: files.truncatedMp3!, name: 'cut.mp3' },
    });
    expect(res.statusCode).toBe(201);
    const id = res.json().song._id;
    await ctx.app.services.jobs.drain();
    const status = (
      await ctx.app.inject({ method: 'GET', url: `/api/songs/${id}/status`, headers: admin.headers })
    ).json();
    expect(status.status).toBe('failed');
    expect(status.failureReason).toMatch(
      /^The file is incomplete: only \d+\.\d s of its 20\.0 s could be decoded$/,
    );
    const list = (await ctx.app.inject({ method: 'GET', url: '/api/songs?limit=100' })).json();
    expect(list.songs.map((s: { _id: string }) => s._id)).not.toContain(id);
  });

  it('checks roles, ownership and fields before writing anything', async () => {
    const before = await f.counts();
    const audio = { file: files.wav!, name: 'tone.wav' };
    const cases: Array<[User | null, Fields, number, RegExp]> = [
      [null, { title: 'x', audio }, 401, /^Authentication token missing/],
      [listener, { title: 'x', audio }, 403, /permission/],
      [artistUser, { title: 'x', artist: otherArtistId, audio }, 403, /own artist profile/],
      [admin, { title: 'x', audio }, 400, /^artist: is required/],
      [artistUser, { title: 'x' }, 400, /^audio: an audio file is required/],
      [artistUser, { audio }, 400, /^title: /],
      [artistUser, { title: 'x', price: '1.999', audio }, 400, /^price: /],
      [artistUser, { title: 'x', price: '-2', audio }, 400, /^price: /],
      [artistUser, { title: 'x', accessType: 'free', audio }, 400, /^accessType: /],
      [artistUser, { title: 'x', album: 'not-an-id', audio }, 400, /^album: /],
      [
        artistUser,
        { title: 'x', coverImage: { file: files.wav!, name: 'c.png' }, audio },
        415,
        /^coverImage: /,
      ],
    ];
    const foreignAlbum = await f.album({ artistId: otherArtistId, title: 'Not Yours' });
    cases.push([
      artistUser,
      { title: 'x', album: foreignAlbum.id, audio },
      400,
      /^album: the album belongs to another artist/,
    ]);
    for (const [user, fields, status, message] of cases) {
      const res = await send('POST', '/api/songs', user, fields);
      expect([res.statusCode, res.json().message]).toEqual([status, expect.stringMatching(message)]);
    }
    expect(await f.counts()).toEqual({ ...before, albums: before.albums + 1 });
  });

  it('lets an admin upload for any artist onto that artist’s album', async () => {
    const album = await f.album({ artistId: otherArtistId, title: 'Their Album', isPremium: true });
    const res = await send('POST', '/api/songs', admin, {
      title: 'Guest Track',
      artist: otherArtistId,
      album: album.id,
      audio: { file: files.wav!, name: 'tone.wav' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().song).toMatchObject({
      singer: 'Somebody Else',
      album: { _id: album.id, isPremium: true },
      canPlay: true,
    });
    expect((await songRow(res.json().song._id)).trackNumber).toBe(1);
  });

  it('deletes a song and its media; only its owner or an admin may', async () => {
    const row = await songRow(songId);
    const cover = (await ctx.app.inject({ method: 'GET', url: `/api/songs/artist/${artistId}` }))
      .json()
      .songs.find((s: { _id: string }) => s._id === songId).coverImage as string;
    expect((await send('DELETE', `/api/songs/${songId}`, listener)).statusCode).toBe(403);
    expect((await send('DELETE', `/api/songs/${songId}`, null)).statusCode).toBe(401);
    const res = await send('DELETE', `/api/songs/${songId}`, artistUser);
    expect(res.json()).toEqual({ message: 'Song deleted successfully', buyers: 0 });
    const store = ctx.app.services.mediaStore;
    expect(existsSync(diskPath(store, row.hlsPrefix!))).toBe(false);
    expect(existsSync(diskPath(store, cover.replace('/api/media/', '')))).toBe(false);
    expect((await send('DELETE', `/api/songs/${songId}`, artistUser)).statusCode).toBe(404);
  });
});
