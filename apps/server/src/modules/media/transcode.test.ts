import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { locateFfmpeg, runFfmpeg, type FfmpegTools } from './ffmpeg';
import { probeAudio } from './probe';
import { synthesizeSong } from './synth';
import { ffmpegQuiet, useTempDir } from './test-support';
import {
  AAC_PRIMING_SAMPLES,
  GAPLESS_TAG,
  KEY_URI_PLACEHOLDER,
  transcodeToEncryptedHls,
  withGaplessTag,
  type TranscodeResult,
} from './transcode';

/** Decodes `input` (any ffmpeg input arguments) to mono float samples at 44.1 kHz. */
async function decodeMono(inputArgs: string[], work: string): Promise<Float32Array> {
  const raw = path.join(work, `decoded-${Math.random().toString(36).slice(2)}.f32`);
  await ffmpegQuiet(tools.ffmpeg, [...inputArgs, '-ac', '1', '-ar', '44100', '-f', 'f32le', raw]);
  const bytes = await readFile(raw);
  return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
}

/** Mean squared difference between `decoded[offset + i]` and `source[i]` over a second of the song. */
function mismatch(decoded: Float32Array, source: Float32Array, offset: number): number {
  let sum = 0;
  const from = 44100;
  const to = from + 44100;
  for (let i = from; i < to; i += 1) sum += (decoded[offset + i]! - source[i]!) ** 2;
  return sum / (to - from);
}

let tools: FfmpegTools;
const tempDir = useTempDir('transcode');
let dir: string;

beforeAll(async () => {
  tools = await locateFfmpeg();
  dir = tempDir();
});

describe('transcodeToEncryptedHls', () => {
  let source: string;
  let outDir: string;
  let result: TranscodeResult;

  beforeAll(async () => {
    source = path.join(dir, 'song.wav');
    outDir = path.join(dir, 'hls');
    await synthesizeSong(tools, { seed: 3, durationSec: 5, outFile: source });
    result = await transcodeToEncryptedHls(tools, { input: source, outDir, encoder: 'fast' });
  });

  it('reports the files it wrote and the probed duration', async () => {
    expect(result).toMatchObject({ playlistFile: 'index.m3u8', keyFile: 'enc.key', aacFile: 'audio.m4a' });
    expect(Math.abs(result.durationSec - 5)).toBeLessThanOrEqual(0.2);
    const files = (await readdir(outDir)).sort();
    const segments = files.filter((name) => /^seg_\d{4}\.ts$/.test(name));
    expect(segments.length).toBe(result.segmentCount);
    expect(segments.length).toBeGreaterThanOrEqual(1);
    expect(files).toEqual(['audio.m4a', 'enc.key', 'index.m3u8', ...segments].sort()); // key-info file removed
  });

  it('writes an AES-128 playlist with the key URI placeholder and a 16-byte key', async () => {
    const playlist = await readFile(path.join(outDir, 'index.m3u8'), 'utf8');
    expect(playlist).toContain('#EXT-X-KEY:METHOD=AES-128');
    expect(playlist).toMatch(new RegExp(`URI="${KEY_URI_PLACEHOLDER}",IV=0x[0-9a-f]{32}`));
    expect(playlist).toContain('#EXT-X-ENDLIST');
    expect((await stat(path.join(outDir, 'enc.key'))).size).toBe(16);
  });

  it('produces segments that are useless without the key but decode with it', async () => {
    await expect(probeAudio(tools, path.join(outDir, 'seg_0000.ts'))).rejects.toThrow();

    const playlist = await readFile(path.join(outDir, 'index.m3u8'), 'utf8');
    const withKey = path.join(outDir, 'with-key.m3u8');
    await writeFile(withKey, playlist.replace(KEY_URI_PLACEHOLDER, path.join(outDir, 'enc.key')));
    const decoded = path.join(dir, 'decoded.wav');
    // The HLS demuxer refuses a key URI without a known extension unless told otherwise.
    await ffmpegQuiet(tools.ffmpeg, ['-allowed_extensions', 'ALL', '-i', withKey, decoded]);
    const probe = await probeAudio(tools, decoded);
    const sourceProbe = await probeAudio(tools, source);
    expect(Math.abs(probe.durationSec - sourceProbe.durationSec)).toBeLessThanOrEqual(0.2);
  });

  it('records the exact priming and sample count, so a player can cut the song to its real samples', async () => {
    const playlist = await readFile(path.join(outDir, 'index.m3u8'), 'utf8');
    const source = await decodeMono(['-i', path.join(dir, 'song.wav')], dir);
    expect(result.gapless).toEqual({
      primingSamples: AAC_PRIMING_SAMPLES,
      totalSamples: source.length,
      sampleRate: 44100,
    });
    expect(result.durationSec).toBe(source.length / 44100);
    expect(playlist.split('\n').slice(0, 2)).toEqual([
      '#EXTM3U',
      `${GAPLESS_TAG}:PRIMING-SAMPLES=1024,TOTAL-SAMPLES=${source.length},SAMPLE-RATE=44100`,
    ]);

    // Decoded as the player gets it (every AAC frame of the segments, nothing trimmed), the song's first sample
    // sits exactly `primingSamples` in, and what follows its last sample is only the last frame's padding.
    const withKey = path.join(outDir, 'gapless-check.m3u8');
    await writeFile(withKey, playlist.replace(KEY_URI_PLACEHOLDER, path.join(outDir, 'enc.key')));
    const decoded = await decodeMono(['-allowed_extensions', 'ALL', '-i', withKey], dir);
    let best = 0;
    for (let offset = 0; offset <= 2048; offset += 1) {
      if (mismatch(decoded, source, offset) < mismatch(decoded, source, best)) best = offset;
    }
    expect(best).toBe(AAC_PRIMING_SAMPLES);
    // A lossy copy, but a close one: the difference is a small part of the signal's power.
    const silence = new Float32Array(decoded.length);
    expect(mismatch(decoded, source, best)).toBeLessThan(0.05 * mismatch(silence, source, 0));
    const padding = decoded.length - AAC_PRIMING_SAMPLES - source.length;
    expect(padding).toBeGreaterThanOrEqual(0);
    expect(padding).toBeLessThan(2 * 1024);
  });

  it('counts samples after resampling, for inputs at other rates', async () => {
    const input = path.join(dir, 'tone-48k.wav');
    await ffmpegQuiet(tools.ffmpeg, [
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=300:sample_rate=48000:duration=2.5',
      input,
    ]);
    const transcoded = await transcodeToEncryptedHls(tools, {
      input,
      outDir: path.join(dir, 'tone-48k'),
      encoder: 'fast',
    });
    const resampled = await decodeMono(['-i', input], dir);
    expect(transcoded.gapless.totalSamples).toBe(resampled.length);
  });

  it('stops reading past maxDurationSec and fails AUDIO_TOO_LONG, leaving nothing, whatever the header says', async () => {
    // A FLAC written to a pipe states no length: only decoding finds out it is 12 s.
    const input = path.join(dir, 'unstated.flac');
    const chunks: Buffer[] = [];
    await runFfmpeg(
      tools.ffmpeg,
      ['-v', 'error', '-f', 'lavfi', '-i', 'anullsrc=r=8000:cl=mono', '-t', '12', '-f', 'flac', 'pipe:1'],
      { onStdout: (chunk) => chunks.push(chunk) },
    );
    await writeFile(input, Buffer.concat(chunks));
    expect((await probeAudio(tools, input)).durationSec).toBe(0);
    const out = path.join(dir, 'too-long');
    await expect(
      transcodeToEncryptedHls(tools, { input, outDir: out, encoder: 'fast', maxDurationSec: 5 }),
    ).rejects.toMatchObject({ code: 'AUDIO_TOO_LONG' });
    expect(await stat(out).catch(() => null)).toBeNull();
    const within = await transcodeToEncryptedHls(tools, {
      input,
      outDir: path.join(dir, 'within'),
      encoder: 'fast',
      maxDurationSec: 20,
    });
    expect(Math.abs(within.durationSec - 12)).toBeLessThan(0.1);
  });

  it('writes a plain AAC rendition for the fallback player', async () => {
    const probe = await probeAudio(tools, path.join(outDir, 'audio.m4a'));
    expect(probe).toMatchObject({ codec: 'aac', hasAudio: true });
  });
});

describe('withGaplessTag', () => {
  const info = { primingSamples: 1024, totalSamples: 441000, sampleRate: 44100 };
  const tag = `${GAPLESS_TAG}:PRIMING-SAMPLES=1024,TOTAL-SAMPLES=441000,SAMPLE-RATE=44100`;

  it('puts the tag right after #EXTM3U, replacing an earlier one', () => {
    const playlist = '#EXTM3U\n#EXT-X-VERSION:3\n#EXTINF:6.0,\nseg_0000.ts\n#EXT-X-ENDLIST\n';
    const tagged = withGaplessTag(playlist, info);
    expect(tagged).toBe(`#EXTM3U\n${tag}\n#EXT-X-VERSION:3\n#EXTINF:6.0,\nseg_0000.ts\n#EXT-X-ENDLIST\n`);
    expect(withGaplessTag(tagged, { ...info, totalSamples: 441000 })).toBe(tagged);
  });

  it('refuses something that is not a playlist', () => {
    expect(() => withGaplessTag('garbage', info)).toThrow('ffmpeg wrote no HLS playlist');
  });
});

describe('transcodeToEncryptedHls with bad input', () => {
  it('rejects a truncated MP3 with a readable message and removes the folder it created', async () => {
    const mp3 = path.join(dir, 'full.mp3');
    await ffmpegQuiet(tools.ffmpeg, ['-f', 'lavfi', '-i', 'sine=duration=3', '-c:a', 'libmp3lame', mp3]);
    const truncated = path.join(dir, 'truncated.mp3');
    await writeFile(truncated, (await readFile(mp3)).subarray(0, 200));
    const outDir = path.join(dir, 'truncated-out');

    const failure = transcodeToEncryptedHls(tools, { input: truncated, outDir });
    await expect(failure).rejects.toMatchObject({
      code: 'UNDECODABLE_AUDIO',
      message: expect.stringMatching(/^The file could not be decoded as audio: \S/),
    });
    const message = await failure.catch((error: Error) => error.message);
    expect(message).not.toContain(dir); // no server paths in a message meant for users
    await expect(stat(outDir)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('rejects a video without sound, leaving files that were already in the folder', async () => {
    const video = path.join(dir, 'silent-film.mp4');
    await ffmpegQuiet(tools.ffmpeg, [
      '-f',
      'lavfi',
      '-i',
      'color=duration=1:size=32x32',
      '-c:v',
      'mpeg4',
      video,
    ]);
    const outDir = path.join(dir, 'existing');
    await mkdir(outDir);
    await writeFile(path.join(outDir, 'keep.txt'), 'mine');

    await expect(transcodeToEncryptedHls(tools, { input: video, outDir })).rejects.toMatchObject({
      code: 'NO_AUDIO_STREAM',
      message: 'The file contains no audio track',
    });
    expect(await readdir(outDir)).toEqual(['keep.txt']);
  });

  it('rejects a missing input file', async () => {
    await expect(
      transcodeToEncryptedHls(tools, { input: path.join(dir, 'nope.wav'), outDir: path.join(dir, 'nope') }),
    ).rejects.toMatchObject({ code: 'INPUT_NOT_FOUND' });
  });
});
