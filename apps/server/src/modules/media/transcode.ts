import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { MediaError } from './errors';
import { FfmpegExitError, runFfmpeg, type FfmpegTools } from './ffmpeg';
import { AUDIO_DEMUXERS, decodeFailureReason, probeAudio } from './probe';

/** The key URI written into playlists; the streaming layer replaces it with the tokenised key endpoint. */
export const KEY_URI_PLACEHOLDER = 'key://enc.key';

export interface TranscodeOptions {
  input: string;
  outDir: string;
  keyUriPlaceholder?: string;
  /**
   * `quality` (default) uses ffmpeg's default AAC coder (twoloop), ~17x real time on one core here. `fast` uses
   * the fast coder without the optional stereo/noise/TNS tools, ~55x real time, for slightly worse quality at
   * the same bitrate: meant for generated demo songs, where encoding dominates start-up time.
   */
  encoder?: 'quality' | 'fast';
  timeoutMs?: number;
  /** Where to record ffmpeg's pid while it runs (see RunOptions.pidFile). */
  pidFile?: string;
  /**
   * Longest audio to accept, in seconds: ffmpeg reads at most one second past it, and a longer input fails with
   * AUDIO_TOO_LONG. The upload was checked already; this bounds the work for a file whose header understates it.
   */
  maxDurationSec?: number;
}

/**
 * What a gapless player needs to cut a song exactly: the encoder's warm-up samples before the first real one, and
 * the number of real samples (the last AAC frame is padded past it).
 */
export interface GaplessInfo {
  primingSamples: number;
  totalSamples: number;
  sampleRate: number;
}

export interface TranscodeResult {
  /** Exact: the samples the encoder was fed, over the sample rate. */
  durationSec: number;
  gapless: GaplessInfo;
  playlistFile: 'index.m3u8';
  keyFile: 'enc.key';
  segmentCount: number;
  aacFile: 'audio.m4a';
}

const PLAYLIST_FILE = 'index.m3u8';
const KEY_FILE = 'enc.key';
const AAC_FILE = 'audio.m4a';
const KEY_INFO_FILE = 'enc.keyinfo';
const SEGMENT_PATTERN = 'seg_%04d.ts';
const SAMPLE_RATE = 44100;
/** ffmpeg's native AAC encoder delays its output by exactly one frame (its `initial_padding`). */
export const AAC_PRIMING_SAMPLES = 1024;
/** The playlist tag that carries GaplessInfo; other HLS clients ignore tags they do not know. */
export const GAPLESS_TAG = '#EXT-X-BACKBEAT-GAPLESS';

function encoderArgs(encoder: 'quality' | 'fast'): string[] {
  const common = [
    '-c:a',
    'aac',
    '-profile:a',
    'aac_low',
    '-b:a',
    '128k',
    '-ar',
    `${SAMPLE_RATE}`,
    '-ac',
    '2',
  ];
  // The fast coder is ~3x quicker than the default twoloop coder; skipping the mid/side, intensity-stereo,
  // noise-substitution and TNS searches saves roughly another 10%. Fine for generated demo songs.
  const fast = ['-aac_coder', 'fast', '-aac_ms', '0', '-aac_is', '0', '-aac_pns', '0', '-aac_tns', '0'];
  return encoder === 'fast' ? [...common, ...fast] : common;
}

/**
 * One decode and ONE encode feeding two muxers through `tee`: encrypted HLS for the player and a plain M4A for the
 * fallback player. Two separate outputs would run the AAC encoder twice, and the encoder is most of the cost.
 * Paths are relative because ffmpeg runs inside outDir: tee's option syntax gives ':', '|', '[' and '\' meanings,
 * and relative names keep the output directory's path out of that syntax entirely.
 * A second branch of the same decoded audio goes to stdout as one byte per sample, so the caller counts exactly the
 * samples the encoder was fed (ffmpeg's own stream duration is off by a few samples for the padded last frame).
 */
function ffmpegArgs(inputPath: string, encoder: 'quality' | 'fast', maxDurationSec?: number): string[] {
  const hls = [
    'f=hls',
    'hls_time=6',
    'hls_playlist_type=vod',
    'hls_segment_type=mpegts', // ffmpeg can only encrypt mpegts segments, not fMP4
    `hls_key_info_file=${KEY_INFO_FILE}`,
    `hls_segment_filename=${SEGMENT_PATTERN}`,
  ].join(':');
  return [
    ...['-hide_banner', '-nostdin', '-v', 'error', '-y'],
    ...(maxDurationSec ? ['-t', String(Math.ceil(maxDurationSec) + 1)] : []),
    ...['-format_whitelist', AUDIO_DEMUXERS, '-i', `file:${inputPath}`],
    // Only the first audio stream: MP3s often carry cover art as a video stream, which must not reach the outputs.
    '-filter_complex',
    `[0:a:0]aformat=sample_rates=${SAMPLE_RATE}:channel_layouts=stereo,asplit=2[encode][count];` +
      '[count]aformat=sample_fmts=u8:channel_layouts=mono[counted]',
    ...['-map', '[encode]', '-map_metadata', '-1'],
    ...encoderArgs(encoder),
    ...['-f', 'tee', `[${hls}]${PLAYLIST_FILE}|[f=mp4:movflags=+faststart]${AAC_FILE}`],
    ...['-map', '[counted]', '-c:a', 'pcm_u8', '-f', 'u8', 'pipe:1'],
  ];
}

async function listOrNull(dir: string): Promise<Set<string> | null> {
  try {
    return new Set(await readdir(dir));
  } catch {
    return null;
  }
}

/** Removes what this run created: the whole folder if it made it, else only the new files. */
async function removeCreated(outDir: string, before: Set<string> | null): Promise<void> {
  if (before === null) {
    await rm(outDir, { recursive: true, force: true });
    return;
  }
  const now = (await listOrNull(outDir)) ?? new Set<string>();
  await Promise.all(
    [...now].filter((name) => !before.has(name)).map((name) => rm(path.join(outDir, name), { force: true })),
  );
}

/** `#EXT-X-BACKBEAT-GAPLESS:PRIMING-SAMPLES=1024,TOTAL-SAMPLES=…,SAMPLE-RATE=44100`, right after `#EXTM3U`. */
export function withGaplessTag(playlist: string, info: GaplessInfo): string {
  const tag =
    `${GAPLESS_TAG}:PRIMING-SAMPLES=${info.primingSamples},TOTAL-SAMPLES=${info.totalSamples},` +
    `SAMPLE-RATE=${info.sampleRate}`;
  const lines = playlist.split('\n').filter((line) => !line.startsWith(`${GAPLESS_TAG}:`));
  if (lines[0]?.trim() !== '#EXTM3U') throw new MediaError('FFMPEG_FAILED', 'ffmpeg wrote no HLS playlist');
  return [lines[0], tag, ...lines.slice(1)].join('\n');
}

async function verifyPlaylist(outDir: string, keyUri: string): Promise<number> {
  const playlist = await readFile(path.join(outDir, PLAYLIST_FILE), 'utf8').catch(() => '');
  const segments = playlist
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  if (segments.length === 0) {
    throw new MediaError(
      'UNDECODABLE_AUDIO',
      'The file could not be decoded as audio: no audio frames were found',
    );
  }
  if (!playlist.includes('#EXT-X-KEY:METHOD=AES-128') || !playlist.includes(`URI="${keyUri}"`)) {
    throw new MediaError('FFMPEG_FAILED', 'ffmpeg wrote an HLS playlist without AES-128 encryption');
  }
  for (const segment of segments) {
    if (!(await stat(path.join(outDir, segment)).catch(() => null))?.size) {
      throw new MediaError('FFMPEG_FAILED', `HLS segment ${segment} is missing or empty`);
    }
  }
  return segments.length;
}

function describeFailure(error: unknown, inputPath: string): unknown {
  if (!(error instanceof FfmpegExitError)) return error;
  // A full disk is the server's trouble, not the file's: it must not read as "could not be decoded".
  if (/No space left on device|Disk quota exceeded/i.test(error.stderr)) {
    return new MediaError(
      'STORAGE_FULL',
      "The server's storage is full, so the audio could not be processed",
      {
        cause: error,
      },
    );
  }
  if (/Slave muxer #\d+ failed/.test(error.stderr))
    return new MediaError('FFMPEG_FAILED', error.message, { cause: error });
  if (/matches no streams/.test(error.stderr)) {
    return new MediaError('NO_AUDIO_STREAM', 'The file contains no audio track', { cause: error });
  }
  return new MediaError(
    'UNDECODABLE_AUDIO',
    `The file could not be decoded as audio: ${decodeFailureReason(error.stderr, inputPath)}`,
    { cause: error },
  );
}

/**
 * Transcodes any supported audio file into AES-128 encrypted HLS (AAC-LC 128 kb/s, 44.1 kHz stereo, 6 s mpegts
 * segments) plus `audio.m4a`. The playlist's key URI is the placeholder; `enc.key` holds the 16-byte key.
 * Rejects with a MediaError whose message can be shown to the uploader, after removing what it created.
 */
export async function transcodeToEncryptedHls(
  tools: Pick<FfmpegTools, 'ffmpeg' | 'ffprobe'>,
  options: TranscodeOptions,
): Promise<TranscodeResult> {
  const inputPath = path.resolve(options.input);
  const outDir = path.resolve(options.outDir);
  const keyUri = options.keyUriPlaceholder ?? KEY_URI_PLACEHOLDER;
  if (/["\r\n]/.test(keyUri) || keyUri.length === 0) {
    throw new MediaError(
      'INVALID_ARGUMENT',
      'The key URI placeholder must be non-empty, without quotes or newlines',
    );
  }
  if (!(await stat(inputPath).catch(() => null))?.isFile()) {
    throw new MediaError('INPUT_NOT_FOUND', 'The file to transcode does not exist');
  }

  const existingBefore = await listOrNull(outDir);
  await mkdir(outDir, { recursive: true });
  const keyInfoPath = path.join(outDir, KEY_INFO_FILE);
  try {
    const keyPath = path.join(outDir, KEY_FILE);
    await writeFile(keyPath, randomBytes(16), { mode: 0o600 });
    // Key-info format: URI for the playlist, key file to read, IV (hex). An explicit random IV instead of
    // ffmpeg's default (the segment sequence number) so IVs are never predictable across songs.
    await writeFile(keyInfoPath, `${keyUri}\n${keyPath}\n${randomBytes(16).toString('hex')}\n`, {
      mode: 0o600,
    });
    let totalSamples = 0;
    try {
      const args = ffmpegArgs(inputPath, options.encoder ?? 'quality', options.maxDurationSec);
      const { stderr } = await runFfmpeg(tools.ffmpeg, args, {
        cwd: outDir,
        timeoutMs: options.timeoutMs,
        onStdout: (chunk) => (totalSamples += chunk.length),
        pidFile: options.pidFile,
      });
      // tee carries on (and exits 0) when one of its outputs fails, e.g. on a full disk: that output is broken.
      const outputFailed = /Slave muxer #\d+ failed: ([^\n]*)/.exec(stderr);
      if (outputFailed)
        throw new FfmpegExitError(`ffmpeg could not write an output: ${outputFailed[1]}`, stderr);
    } finally {
      await rm(keyInfoPath, { force: true });
    }

    const segmentCount = await verifyPlaylist(outDir, keyUri);
    const { durationSec: probedSec } = await probeAudio(tools, path.join(outDir, AAC_FILE));
    if (!(probedSec > 0) || totalSamples === 0) {
      throw new MediaError('UNDECODABLE_AUDIO', 'The file could not be decoded as audio: it has no duration');
    }
    if (options.maxDurationSec && totalSamples / SAMPLE_RATE > options.maxDurationSec) {
      throw new MediaError(
        'AUDIO_TOO_LONG',
        `The audio is longer than the ${Math.round(options.maxDurationSec / 60)} minutes a song may last`,
      );
    }
    const gapless = { primingSamples: AAC_PRIMING_SAMPLES, totalSamples, sampleRate: SAMPLE_RATE };
    const playlistPath = path.join(outDir, PLAYLIST_FILE);
    await writeFile(playlistPath, withGaplessTag(await readFile(playlistPath, 'utf8'), gapless));
    return {
      durationSec: totalSamples / SAMPLE_RATE,
      gapless,
      playlistFile: PLAYLIST_FILE,
      keyFile: KEY_FILE,
      segmentCount,
      aacFile: AAC_FILE,
    };
  } catch (error) {
    await removeCreated(outDir, existingBefore);
    throw describeFailure(error, inputPath);
  }
}
