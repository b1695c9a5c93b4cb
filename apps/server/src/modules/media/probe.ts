import path from 'node:path';
import { z } from 'zod';
import { MediaError } from './errors';
import { FfmpegExitError, runFfmpeg, type FfmpegTools } from './ffmpeg';
import { lastStderrLines, runProcess } from './process';

export { sniffAudioMagic, sniffImageMagic, type ImageKind } from './sniff';

export interface AudioProbe {
  /** 0 when the container does not state a duration. */
  durationSec: number;
  /** Codec of the first audio stream, e.g. `mp3`, `aac`, `pcm_s16le`. */
  codec: string | null;
  hasAudio: boolean;
}

/**
 * Demuxers allowed to read inputs. Without this list an "audio" upload that is really an HLS or concat playlist
 * makes ffmpeg open other local files or URLs (a classic ffmpeg file-disclosure / SSRF hole).
 */
export const AUDIO_DEMUXERS = 'mp3,aac,wav,w64,flac,ogg,mov,matroska,aiff,caf,wv,ape,asf';

const PROBE_TIMEOUT_MS = 30_000;

const ffprobeOutput = z.object({
  streams: z
    .array(z.object({ codec_type: z.string().optional(), codec_name: z.string().optional() }))
    .default([]),
  format: z.object({ duration: z.string().optional() }).optional(),
});

/** A human-readable reason from ffmpeg's stderr, without the file's path. */
export function decodeFailureReason(stderr: string, filePath: string): string {
  const lines = lastStderrLines(stderr, 2).map((line) =>
    line
      .replaceAll(`file:${filePath}: `, '')
      .replaceAll(`${filePath}: `, '')
      .replaceAll(filePath, 'the file'),
  );
  return lines.join(' ') || 'unknown format';
}

function undecodable(stderr: string, filePath: string, cause?: unknown): MediaError {
  return new MediaError(
    'UNDECODABLE_AUDIO',
    `The file could not be decoded as audio: ${decodeFailureReason(stderr, filePath)}`,
    { cause },
  );
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text || '{}');
  } catch {
    return null;
  }
}

async function probeWithFfprobe(ffprobe: string, filePath: string): Promise<AudioProbe> {
  const args = [
    ...['-v', 'error', '-format_whitelist', AUDIO_DEMUXERS, '-of', 'json'],
    ...['-show_entries', 'format=duration:stream=codec_type,codec_name', `file:${filePath}`],
  ];
  let stdout: string;
  try {
    ({ stdout } = await runFfmpeg(ffprobe, args, { timeoutMs: PROBE_TIMEOUT_MS }));
  } catch (error) {
    if (error instanceof FfmpegExitError) throw undecodable(error.stderr, filePath, error);
    throw error;
  }
  const parsed = ffprobeOutput.safeParse(parseJson(stdout));
  if (!parsed.success) {
    throw new MediaError(
      'UNDECODABLE_AUDIO',
      'The file could not be decoded as audio: unreadable probe output',
    );
  }
  const audio = parsed.data.streams.filter((s) => s.codec_type === 'audio');
  const duration = Number(parsed.data.format?.duration);
  return {
    durationSec: Number.isFinite(duration) && duration > 0 ? duration : 0,
    codec: audio[0]?.codec_name ?? null,
    hasAudio: audio.length > 0,
  };
}

/** Without ffprobe: `ffmpeg -i file` prints the input's description and exits 1 because no output was given. */
async function probeWithFfmpeg(ffmpeg: string, filePath: string): Promise<AudioProbe> {
  const { stderr } = await runProcess(
    ffmpeg,
    ['-hide_banner', '-nostdin', '-format_whitelist', AUDIO_DEMUXERS, '-i', `file:${filePath}`],
    { timeoutMs: PROBE_TIMEOUT_MS },
  );
  if (!/^Input #0/m.test(stderr)) throw undecodable(stderr, filePath);
  const duration = /Duration:\s*(\d+):(\d{2}):(\d{2}(?:\.\d+)?)/.exec(stderr);
  const audioCodec = /Stream #\d+:\d+.*?: Audio: ([\w-]+)/.exec(stderr);
  return {
    durationSec: duration ? Number(duration[1]) * 3600 + Number(duration[2]) * 60 + Number(duration[3]) : 0,
    codec: audioCodec?.[1] ?? null,
    hasAudio: audioCodec !== null,
  };
}

export async function probeAudio(
  tools: Pick<FfmpegTools, 'ffmpeg' | 'ffprobe'>,
  filePath: string,
): Promise<AudioProbe> {
  // An absolute path behind `file:` so a name containing ':' is never read as a protocol (http:, pipe:, ...).
  const absolute = path.resolve(filePath);
  return tools.ffprobe ? probeWithFfprobe(tools.ffprobe, absolute) : probeWithFfmpeg(tools.ffmpeg, absolute);
}

/** Samples per second of the cheap decode `measureAudioSeconds` counts (one byte each, mono): 1 ms steps. */
const MEASURE_RATE = 1000;
const MEASURE_TIMEOUT_MS = 120_000;

/**
 * How long the audio really is, by decoding it, but never more than `capSec` plus one second of it: for files whose
 * container states no duration (a FLAC written to a pipe, a raw stream), where the probe answers 0. The decode is
 * resampled to 1 kHz mono bytes and counted, so it costs a fraction of a transcode and stops at the cap.
 */
export async function measureAudioSeconds(
  tools: Pick<FfmpegTools, 'ffmpeg'>,
  filePath: string,
  capSec: number,
): Promise<number> {
  const absolute = path.resolve(filePath);
  let samples = 0;
  const args = [
    ...['-hide_banner', '-nostdin', '-v', 'error', '-format_whitelist', AUDIO_DEMUXERS],
    ...['-t', String(Math.ceil(capSec) + 1), '-i', `file:${absolute}`],
    // The crudest resampler (filter_size=1): only the count of samples matters, not how they sound.
    ...['-map', '0:a:0', '-af', `aresample=${MEASURE_RATE}:filter_size=1`, '-ac', '1'],
    ...['-c:a', 'pcm_u8', '-f', 'u8', 'pipe:1'],
  ];
  try {
    await runFfmpeg(tools.ffmpeg, args, {
      timeoutMs: MEASURE_TIMEOUT_MS,
      onStdout: (chunk) => (samples += chunk.length),
    });
  } catch (error) {
    if (error instanceof FfmpegExitError) throw undecodable(error.stderr, absolute, error);
    throw error;
  }
  return samples / MEASURE_RATE;
}
