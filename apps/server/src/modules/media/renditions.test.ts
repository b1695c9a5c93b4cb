import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createReadStream, createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { locateFfmpeg, runFfmpeg, type FfmpegTools } from './ffmpeg';
import { probeAudio } from './probe';
import { cutPreviewClip, encodeFlacMaster, encodeMp3, isLosslessCodec } from './renditions';
import { coverJpeg, id3v2Tag, taggedFlac, taggedMp3, type AudioTags } from './tagged-audio';
import { ffmpegQuiet, useTempDir } from './test-support';

let tools: FfmpegTools;
const tempDir = useTempDir('renditions');
let dir: string;
let wav: string;
let cover: Buffer;

const tags: AudioTags = {
  title: 'Ünïcode "Title" / Part 2',
  artist: 'Nova Reyes',
  album: 'Neon Tides',
  albumArtist: 'Nova Reyes',
  trackNumber: 3,
  trackTotal: 9,
  year: 2025,
  genre: 'Electronic',
};

/** Format tags and the streams ffprobe reads from a file (tag names lower-cased). */
async function ffprobe(file: string) {
  const { stdout } = await runFfmpeg(tools.ffprobe!, [
    ...['-v', 'error', '-of', 'json', '-show_entries'],
    'format=duration:format_tags:stream=codec_name,codec_type:stream_disposition=attached_pic',
    file,
  ]);
  const parsed = JSON.parse(stdout) as {
    format: { duration?: string; tags?: Record<string, string> };
    streams: Array<{ codec_name: string; codec_type: string; disposition?: { attached_pic?: number } }>;
  };
  const lower = Object.fromEntries(
    Object.entries(parsed.format.tags ?? {}).map(([key, value]) => [key.toLowerCase(), value]),
  );
  return { duration: Number(parsed.format.duration), tags: lower, streams: parsed.streams };
}

/** MD5 of the decoded samples: equal for two files exactly when their audio is identical. */
async function audioMd5(file: string): Promise<string> {
  const { stdout } = await runFfmpeg(tools.ffmpeg, [
    '-v',
    'error',
    '-i',
    file,
    '-map',
    '0:a',
    '-f',
    'md5',
    '-',
  ]);
  return stdout.trim();
}

beforeAll(async () => {
  tools = await locateFfmpeg();
  dir = tempDir();
  wav = path.join(dir, 'song.wav');
  await ffmpegQuiet(tools.ffmpeg, ['-f', 'lavfi', '-i', 'sine=frequency=330:duration=12', '-ac', '2', wav]);
  const png = path.join(dir, 'cover.png');
  await ffmpegQuiet(tools.ffmpeg, ['-f', 'lavfi', '-i', 'color=c=orange:s=900x900', '-frames:v', '1', png]);
  cover = await coverJpeg(png);
});

describe('isLosslessCodec', () => {
  it('knows lossless codecs from lossy ones', () => {
    for (const codec of ['flac', 'alac', 'pcm_s16le', 'pcm_s24le', 'pcm_f32le', 'wavpack'])
      expect(isLosslessCodec(codec)).toBe(true);
    for (const codec of ['mp3', 'aac', 'vorbis', 'opus', 'pcm_alaw', 'pcm_mulaw', null])
      expect(isLosslessCodec(codec)).toBe(false);
  });
});

describe('download renditions', () => {
  let flac: string;
  let mp3: string;

  beforeAll(async () => {
    flac = path.join(dir, 'master.flac');
    mp3 = path.join(dir, 'song.mp3');
    await encodeFlacMaster(tools, { input: wav, outFile: flac });
    await encodeMp3(tools, { input: flac, outFile: mp3 });
  });

  it('keeps the original samples exactly in the FLAC master', async () => {
    expect((await probeAudio(tools, flac)).codec).toBe('flac');
    expect(await audioMd5(flac)).toBe(await audioMd5(wav));
  });

  it('encodes a 320 kbit/s MP3 without tags', async () => {
    const probe = await ffprobe(mp3);
    expect(probe.streams).toEqual([expect.objectContaining({ codec_name: 'mp3', codec_type: 'audio' })]);
    expect(probe.tags.title).toBeUndefined();
    expect(Math.abs(probe.duration - 12)).toBeLessThan(0.1);
    const { stdout } = await runFfmpeg(tools.ffprobe!, [
      ...['-v', 'error', '-select_streams', 'a:0', '-show_entries', 'stream=bit_rate', '-of', 'csv=p=0', mp3],
    ]);
    expect(Number(stdout.trim())).toBe(320_000);
  });

  it('streams a tagged MP3 (ID3v2 with the cover) whose audio is the stored file', async () => {
    const out = path.join(dir, 'tagged.mp3');
    await pipeline(taggedMp3(createReadStream(mp3), id3v2Tag(tags, cover)), createWriteStream(out));
    const probe = await ffprobe(out);
    expect(probe.tags).toMatchObject({
      title: tags.title,
      artist: 'Nova Reyes',
      album: 'Neon Tides',
      track: '3/9',
      genre: 'Electronic',
    });
    expect(probe.streams.some((s) => s.codec_type === 'video' && s.disposition?.attached_pic === 1)).toBe(
      true,
    );
    expect(await audioMd5(out)).toBe(await audioMd5(mp3));
  });

  it('streams a tagged FLAC (Vorbis comments and a picture) with the master samples, through a pipe', async () => {
    const out = path.join(dir, 'tagged.flac');
    await pipeline(taggedFlac(tools, createReadStream(flac), tags, cover), createWriteStream(out));
    const probe = await ffprobe(out);
    expect(probe.tags).toMatchObject({
      title: tags.title,
      artist: 'Nova Reyes',
      album: 'Neon Tides',
      track: '3',
    });
    expect(probe.streams.some((s) => s.codec_type === 'video' && s.disposition?.attached_pic === 1)).toBe(
      true,
    );
    expect(await audioMd5(out)).toBe(await audioMd5(wav));
  });

  it('fails the FLAC stream with ffmpeg’s reason when the master is not FLAC', async () => {
    const broken = path.join(dir, 'broken.flac');
    await writeFile(broken, 'not audio at all');
    await expect(
      pipeline(
        taggedFlac(tools, createReadStream(broken), tags, null),
        createWriteStream(path.join(dir, 'x.flac')),
      ),
    ).rejects.toThrow(/could not tag the FLAC file/);
  });
});

describe('cutPreviewClip', () => {
  it('cuts the window it is asked for', async () => {
    const clip = path.join(dir, 'clip.flac');
    await cutPreviewClip(tools, { input: wav, outFile: clip, startSec: 4, durationSec: 5 });
    const probe = await probeAudio(tools, clip);
    expect(Math.abs(probe.durationSec - 5)).toBeLessThan(0.05);
  });

  it('refuses a negative start or an empty window', () => {
    expect(() => cutPreviewClip(tools, { input: wav, outFile: 'x', startSec: -1, durationSec: 5 })).toThrow();
    expect(() => cutPreviewClip(tools, { input: wav, outFile: 'x', startSec: 0, durationSec: 0 })).toThrow();
  });
});
