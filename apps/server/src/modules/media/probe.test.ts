import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { locateFfmpeg, type FfmpegTools } from './ffmpeg';
import { probeAudio, sniffAudioMagic, sniffImageMagic } from './probe';
import { ffmpegQuiet, useTempDir } from './test-support';

let tools: FfmpegTools;
const tempDir = useTempDir('probe');
let dir: string;
const head = async (file: string) => (await readFile(file)).subarray(0, 32);

beforeAll(async () => {
  tools = await locateFfmpeg();
  dir = tempDir();
});

describe('sniffAudioMagic', () => {
  it.each([
    ['mp3', ['-c:a', 'libmp3lame']],
    ['mp3', ['-c:a', 'libmp3lame', '-write_xing', '0', '-id3v2_version', '0']], // bare frames, no ID3 tag
    ['wav', []],
    ['flac', []],
    ['ogg', ['-c:a', 'libvorbis']],
    ['m4a', ['-c:a', 'aac']],
    ['aac', ['-c:a', 'aac', '-f', 'adts']],
    ['webm', ['-c:a', 'libopus']],
    ['aiff', []],
  ])('recognises a real .%s file', async (extension, codecArgs) => {
    const file = path.join(dir, `tone-${codecArgs.length}.${extension}`);
    await ffmpegQuiet(tools.ffmpeg, ['-f', 'lavfi', '-i', 'sine=duration=0.3', ...codecArgs, file]);
    expect(sniffAudioMagic(await head(file))).toBe(true);
  });

  it('refuses a text file renamed .mp3', async () => {
    const file = path.join(dir, 'notes.mp3');
    await writeFile(file, 'These are my lyrics, not an MP3.\n');
    expect(sniffAudioMagic(await head(file))).toBe(false);
  });

  it('refuses images, including AVIF which shares the MP4 container', async () => {
    const avif = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } })
      .avif()
      .toBuffer();
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } })
      .png()
      .toBuffer();
    expect(sniffAudioMagic(avif)).toBe(false);
    expect(sniffAudioMagic(png)).toBe(false);
    expect(sniffAudioMagic(Buffer.alloc(0))).toBe(false);
  });
});

describe('sniffImageMagic', () => {
  it.each(['jpeg', 'png', 'webp', 'gif', 'avif'] as const)('recognises %s', async (format) => {
    const image = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#08f' } })
      .toFormat(format)
      .toBuffer();
    expect(sniffImageMagic(image)).toBe(format);
  });

  it('refuses SVG, text and audio', () => {
    expect(sniffImageMagic(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(sniffImageMagic(Buffer.from('hello'))).toBeNull();
    expect(sniffImageMagic(Buffer.from('RIFF\0\0\0\0WAVEfmt '))).toBeNull();
  });
});

describe('probeAudio', () => {
  let mp3: string;
  beforeAll(async () => {
    mp3 = path.join(dir, 'two-seconds.mp3');
    await ffmpegQuiet(tools.ffmpeg, ['-f', 'lavfi', '-i', 'sine=duration=2', '-c:a', 'libmp3lame', mp3]);
  });

  it('reads duration and codec with ffprobe', async () => {
    const probe = await probeAudio(tools, mp3);
    expect(probe).toMatchObject({ codec: 'mp3', hasAudio: true });
    expect(probe.durationSec).toBeCloseTo(2, 1);
  });

  it('reads the same from `ffmpeg -i` when there is no ffprobe', async () => {
    const probe = await probeAudio({ ffmpeg: tools.ffmpeg, ffprobe: null }, mp3);
    expect(probe).toMatchObject({ codec: 'mp3', hasAudio: true });
    expect(probe.durationSec).toBeCloseTo(2, 1);
  });

  it('rejects a file that is not media, with and without ffprobe', async () => {
    const text = path.join(dir, 'text.wav');
    await writeFile(text, 'not audio at all');
    for (const probeTools of [tools, { ffmpeg: tools.ffmpeg, ffprobe: null }]) {
      await expect(probeAudio(probeTools, text)).rejects.toMatchObject({
        code: 'UNDECODABLE_AUDIO',
        message: expect.stringMatching(/^The file could not be decoded as audio: /),
      });
    }
  });

  it('refuses playlists, which would make ffmpeg read other files', async () => {
    const playlist = path.join(dir, 'evil.mp3');
    await writeFile(playlist, `#EXTM3U\n#EXTINF:1,\n${mp3}\n`);
    await expect(probeAudio(tools, playlist)).rejects.toMatchObject({ code: 'UNDECODABLE_AUDIO' });
  });
});
