import path from 'node:path';
import { MediaError } from './errors';
import { FfmpegExitError, runFfmpeg, type FfmpegTools } from './ffmpeg';
import { AUDIO_DEMUXERS, decodeFailureReason } from './probe';

/*
 * Files made from a song besides its stream: the lossless master kept for downloads, the MP3 download, and the
 * short clip a preview is transcoded from. Each is written to a local file (ffmpeg needs a seekable output to
 * finish its headers: FLAC's STREAMINFO, MP3's LAME/Xing frame with the encoder delay for gapless playback).
 */

/** Codecs whose decoded audio is exactly what was recorded; a-law and mu-law are lossy companding. */
const LOSSLESS_CODECS = new Set(['flac', 'alac', 'wavpack', 'ape', 'tta', 'mlp', 'truehd']);

/** Whether an upload's audio (by ffprobe codec name) is lossless, so its original is kept as FLAC. */
export function isLosslessCodec(codec: string | null): boolean {
  if (!codec) return false;
  if (codec.startsWith('pcm_')) return codec !== 'pcm_alaw' && codec !== 'pcm_mulaw';
  return LOSSLESS_CODECS.has(codec);
}

export interface RenditionOptions {
  input: string;
  outFile: string;
  timeoutMs?: number;
  /** Where ffmpeg's pid is written (a scratch folder's CHILD_PID_FILE), so a leftover run can be stopped. */
  pidFile?: string;
}

const COMMON_ARGS = ['-hide_banner', '-nostdin', '-v', 'error', '-y'];

/** The input, limited to audio demuxers (see AUDIO_DEMUXERS), and only its first audio stream, untagged. */
const inputArgs = (input: string, seek: string[] = []) => [
  ...['-format_whitelist', AUDIO_DEMUXERS],
  ...seek,
  ...['-i', `file:${path.resolve(input)}`],
  ...['-map', '0:a:0', '-map_metadata', '-1'],
];

async function run(
  tools: Pick<FfmpegTools, 'ffmpeg'>,
  args: string[],
  input: string,
  options: Pick<RenditionOptions, 'timeoutMs' | 'pidFile'>,
) {
  try {
    await runFfmpeg(tools.ffmpeg, args, { timeoutMs: options.timeoutMs, pidFile: options.pidFile });
  } catch (error) {
    if (!(error instanceof FfmpegExitError)) throw error;
    throw new MediaError(
      'FFMPEG_FAILED',
      `The audio could not be converted: ${decodeFailureReason(error.stderr, path.resolve(input))}`,
      { cause: error },
    );
  }
}

/**
 * The lossless original, as FLAC: bit for bit the uploaded samples (a WAV, AIFF or ALAC upload becomes FLAC; a
 * FLAC upload is re-encoded without loss, dropping its tags and pictures so only ours are ever served).
 */
export function encodeFlacMaster(tools: Pick<FfmpegTools, 'ffmpeg'>, options: RenditionOptions) {
  const out = path.resolve(options.outFile);
  return run(
    tools,
    [...COMMON_ARGS, ...inputArgs(options.input), '-c:a', 'flac', '-f', 'flac', `file:${out}`],
    options.input,
    options,
  );
}

/**
 * MP3 at a constant 320 kbit/s, 44.1 kHz stereo, without tags (downloads add them, current at download time). The
 * LAME header stays: it carries the encoder delay and padding, so players trim them and albums stay gapless.
 */
export function encodeMp3(tools: Pick<FfmpegTools, 'ffmpeg'>, options: RenditionOptions) {
  const out = path.resolve(options.outFile);
  return run(
    tools,
    [
      ...COMMON_ARGS,
      ...inputArgs(options.input),
      ...['-c:a', 'libmp3lame', '-b:a', '320k', '-ar', '44100', '-ac', '2'],
      ...['-write_id3v2', '0', '-f', 'mp3', `file:${out}`],
    ],
    options.input,
    options,
  );
}

export interface PreviewClipOptions extends RenditionOptions {
  startSec: number;
  durationSec: number;
}

/** Seconds of fade at the clip's edges: a preview that starts mid-song should not start or stop with a click. */
const FADE_IN_SEC = 0.5;
const FADE_OUT_SEC = 2;

/**
 * The window a preview covers, cut from the song (as lossless FLAC, so the preview's one AAC encode is the only
 * lossy step), faded in when it starts inside the song and faded out at its end.
 */
export function cutPreviewClip(tools: Pick<FfmpegTools, 'ffmpeg'>, options: PreviewClipOptions) {
  const { startSec, durationSec } = options;
  if (!(startSec >= 0) || !(durationSec > 0)) {
    throw new MediaError('INVALID_ARGUMENT', 'A preview needs a start at or after 0 and a positive length');
  }
  const fadeOut = Math.min(FADE_OUT_SEC, durationSec / 4);
  const filters = [
    ...(startSec > 0 ? [`afade=t=in:st=0:d=${Math.min(FADE_IN_SEC, durationSec / 4)}`] : []),
    `afade=t=out:st=${(durationSec - fadeOut).toFixed(3)}:d=${fadeOut.toFixed(3)}`,
  ];
  const out = path.resolve(options.outFile);
  return run(
    tools,
    [
      ...COMMON_ARGS,
      // Seeking on the input is exact for audio (ffmpeg decodes from the packet before and drops the rest).
      ...inputArgs(options.input, ['-ss', startSec.toFixed(3), '-t', durationSec.toFixed(3)]),
      ...['-af', filters.join(','), '-c:a', 'flac', '-f', 'flac', `file:${out}`],
    ],
    options.input,
    options,
  );
}
