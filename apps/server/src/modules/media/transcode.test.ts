import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { locateFfmpeg, type FfmpegTools } from './ffmpeg';
import { probeAudio } from './probe';
import { synthesizeSong } from './synth';
import { ffmpegQuiet, useTempDir } from './test-support';
import { KEY_URI_PLACEHOLDER, transcodeToEncryptedHls, type TranscodeResult } from './transcode';

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

  it('writes a plain AAC rendition for the fallback player', async () => {
    const probe = await probeAudio(tools, path.join(outDir, 'audio.m4a'));
    expect(probe).toMatchObject({ codec: 'aac', hasAudio: true });
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
