import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locateFfmpeg, runFfmpeg, type FfmpegTools } from '../src/modules/media';
import { catalogFixtures } from './catalog-fixtures';
import { createTestApp, type TestContext } from './test-app';

/**
 * Uploads are limited by length as well as size (UPLOAD_MAX_AUDIO_MINUTES, here 1): a few kilobytes of FLAC can
 * hold hours of audio, and transcoding costs by the second. The refusal comes before anything is stored or queued.
 */
let ctx: TestContext;
let f: ReturnType<typeof catalogFixtures>;
let tools: FfmpegTools;
let work: string;
let artist: Awaited<ReturnType<typeof f.user>>;
const audio: Record<string, Buffer> = {};

/** Silence at 8 kHz mono, as FLAC: tiny files of any length. `piped`: written to a pipe, so no length in it. */
async function silentFlac(seconds: number, piped: boolean): Promise<Buffer> {
  const file = path.join(work, `${seconds}-${piped ? 'piped' : 'file'}.flac`);
  const input = ['-f', 'lavfi', '-i', `anullsrc=r=8000:cl=mono`, '-t', String(seconds)];
  const base = ['-hide_banner', '-nostdin', '-v', 'error', '-y', ...input];
  if (!piped) {
    await runFfmpeg(tools.ffmpeg, [...base, file]);
    return readFile(file);
  }
  // `-f flac pipe:1` cannot seek back to write the total sample count into STREAMINFO.
  const chunks: Buffer[] = [];
  await runFfmpeg(tools.ffmpeg, [...base, '-f', 'flac', 'pipe:1'], {
    onStdout: (chunk) => chunks.push(chunk),
  });
  return Buffer.concat(chunks);
}

type Fields = Record<string, string | { file: Buffer; name: string }>;
function form(fields: Fields): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string') data.append(name, value);
    else data.append(name, new Blob([new Uint8Array(value.file)]), value.name);
  }
  return data;
}
const upload = (file: Buffer) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/songs',
    headers: artist.headers,
    payload: form({ title: 'Long One', audio: { file, name: 'long.flac' } }),
  });

beforeAll(async () => {
  ctx = await createTestApp({ env: { UPLOAD_MAX_AUDIO_MINUTES: '1' } });
  f = catalogFixtures(ctx.database);
  tools = await locateFfmpeg(ctx.config.ffmpegPath);
  work = await mkdtemp(path.join(tmpdir(), 'backbeat-duration-test-'));
  artist = await f.user('artist');
  await f.artist({ name: 'Marathon', ownerUserId: artist.id });
  audio.long = await silentFlac(75, false);
  audio.longPiped = await silentFlac(75, true);
  audio.short = await silentFlac(50, true);
});
afterAll(async () => {
  await ctx.close();
  await rm(work, { recursive: true, force: true });
});

describe('the audio length limit', () => {
  it('refuses audio over the limit with 413 AUDIO_TOO_LONG, writing nothing and queuing no transcode', async () => {
    const before = await f.counts();
    const res = await upload(audio.long!);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      message: 'audio: the audio is 1:15 long; songs may be at most 1:00',
      code: 'AUDIO_TOO_LONG',
    });
    expect(await f.counts()).toEqual(before);
    expect(await ctx.app.services.mediaStore.list('uploads')).toEqual([]);
  });

  it('measures a file that states no length (a FLAC written to a pipe) by decoding it, up to the limit', async () => {
    expect(audio.longPiped!.length).toBeLessThan(64 * 1024);
    const before = await f.counts();
    const res = await upload(audio.longPiped!);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      message: 'audio: the audio is longer than 1:00; songs may be at most 1:00',
      code: 'AUDIO_TOO_LONG',
    });
    expect(await f.counts()).toEqual(before);
  });

  it('accepts audio within the limit, its length unstated or not', async () => {
    const res = await upload(audio.short!);
    expect(res.statusCode).toBe(201);
    expect(res.json().song).toMatchObject({ title: 'Long One' });
  });
});
