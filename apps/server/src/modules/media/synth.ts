import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { MediaError } from './errors';
import { runFfmpeg, type FfmpegTools } from './ffmpeg';
import { loopSeconds, songLoopExpressions, TONAL_SAMPLE_RATE } from './synth-expression';
import { songRecipe } from './synth-recipe';

export interface SynthesizeOptions {
  seed: number;
  durationSec: number;
  /** Written as 16-bit PCM WAV, 44.1 kHz stereo. */
  outFile: string;
}

const SAMPLE_RATE = 44_100;
// amerge cannot negotiate formats on its own; pinning both inputs to the same layout lets it. Float rather
// than aevalsrc's double halves the memory traffic of the filters that run over the whole song.
const MONO_FLOAT = `aformat=sample_fmts=flt:sample_rates=${SAMPLE_RATE}:channel_layouts=mono`;
// One extra block of samples so each aloop always has a whole period to copy.
const SPARE_SAMPLES = 1024;
const seconds = (samples: number) => (samples / SAMPLE_RATE).toFixed(5);

/**
 * Writes a distinct, musical demo song for `seed` (tempo, key, progression, arpeggio and drums vary) using only
 * ffmpeg's own generators, so demo data needs no audio files in the repository.
 */
export async function synthesizeSong(
  tools: Pick<FfmpegTools, 'ffmpeg'>,
  options: SynthesizeOptions,
): Promise<void> {
  const { seed, durationSec } = options;
  if (!Number.isFinite(durationSec) || durationSec <= 0 || durationSec > 3600) {
    throw new MediaError('INVALID_ARGUMENT', 'durationSec must be between 0 and 3600 seconds');
  }
  const recipe = songRecipe(seed);
  const loopSamples = Math.round(loopSeconds(recipe) * SAMPLE_RATE);
  const totalSamples = Math.round(durationSec * SAMPLE_RATE);
  const fadeOutSec = Math.min(2, durationSec / 4);
  const { tonal, hats, hatPeriodSec } = songLoopExpressions(recipe);
  const hatSamples = Math.round(hatPeriodSec * SAMPLE_RATE);
  const graph = [
    [
      `aevalsrc=exprs='${tonal}':s=${TONAL_SAMPLE_RATE}:d=${seconds(loopSamples + SPARE_SAMPLES)}`,
      `aresample=${SAMPLE_RATE}`,
      `${MONO_FLOAT}[tonal]`,
    ].join(','),
    [
      `aevalsrc=exprs='${hats}':s=${SAMPLE_RATE}:d=${seconds(hatSamples + SPARE_SAMPLES)}`,
      `aloop=loop=-1:size=${hatSamples}`,
      `atrim=end_sample=${loopSamples + SPARE_SAMPLES}`,
      `${MONO_FLOAT}[hats]`,
    ].join(','),
    [
      // amerge + pan rather than amix: amix rescales its inputs (and `normalize=0` needs ffmpeg >= 4.4).
      '[tonal][hats]amerge=inputs=2',
      // Only one loop was evaluated sample by sample (the expensive part); aloop repeats it from memory.
      `aloop=loop=-1:size=${loopSamples}`,
      `atrim=end_sample=${totalSamples}`,
      `afade=t=in:d=${Math.min(0.5, durationSec / 4).toFixed(3)}`,
      `afade=t=out:st=${(durationSec - fadeOutSec).toFixed(3)}:d=${fadeOutSec.toFixed(3)}`,
      // Hats slightly right of centre for a little width; peaks stay below 0.92 on both sides.
      'pan=stereo|c0=c0+0.7*c1|c1=c0+1.3*c1[song]',
    ].join(','),
  ].join(';');

  const outFile = path.resolve(options.outFile);
  // Written beside the target and renamed, so a crash never leaves a truncated WAV under the final name.
  const partFile = `${outFile}.part`;
  try {
    await runFfmpeg(tools.ffmpeg, [
      ...['-hide_banner', '-nostdin', '-v', 'error', '-y'],
      ...['-filter_complex', graph, '-map', '[song]'],
      ...['-c:a', 'pcm_s16le', '-ar', String(SAMPLE_RATE), '-f', 'wav', `file:${partFile}`],
    ]);
    await rename(partFile, outFile);
  } catch (error) {
    await rm(partFile, { force: true });
    throw error;
  }
}
