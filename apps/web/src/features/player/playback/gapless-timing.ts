/**
 * Sample-exact placement of a song's AAC frames on the one media timeline the gapless player plays.
 *
 * An AAC encoder emits `primingSamples` of warm-up before the first real sample and pads the last frame, so a song
 * of N samples decodes to more than N. Each segment is appended with a timestamp offset that puts the song's first
 * real sample exactly at the song's start, inside an append window [start, start + N / rate): the browser drops
 * the priming (keeping that frame as decoder pre-roll) and cuts the padding inside the last frame. The next song's
 * window starts exactly where this one ends, so the two join without a gap or an overlap.
 */
import { AAC_FRAME_SAMPLES } from './adts';
import type { MediaPlaylist } from './media-playlist';

/** ffmpeg's native AAC encoder (the only one our transcoder has used) delays its output by one frame. */
export const DEFAULT_PRIMING_SAMPLES = 1024;
/** The transcoder's output rate (`-ar 44100`). */
export const DEFAULT_SAMPLE_RATE = 44100;

export interface SongTiming {
  primingSamples: number;
  /** Real samples per channel. */
  totalSamples: number;
  sampleRate: number;
  /** Seconds of real audio: totalSamples / sampleRate. */
  duration: number;
}

export interface Placement {
  /** SourceBuffer.timestampOffset for the segment's frames. */
  timestampOffset: number;
  appendWindowStart: number;
  appendWindowEnd: number;
}

export interface TimeRange {
  start: number;
  end: number;
}

/**
 * The song's exact sample counts from the playlist's gapless tag. Media transcoded before the tag existed gets the
 * encoder's known priming and the catalogue's duration (rounded to 10 ms, so such joins are only near-gapless).
 */
export function songTiming(playlist: MediaPlaylist, fallbackDurationSec?: number): SongTiming {
  if (playlist.gapless) {
    const { primingSamples, totalSamples, sampleRate } = playlist.gapless;
    return { primingSamples, totalSamples, sampleRate, duration: totalSamples / sampleRate };
  }
  const sampleRate = DEFAULT_SAMPLE_RATE;
  const last = playlist.segments[playlist.segments.length - 1]!;
  const decoded = Math.round((last.start + last.duration) * sampleRate) - DEFAULT_PRIMING_SAMPLES;
  const declared =
    fallbackDurationSec && fallbackDurationSec > 0 ? Math.round(fallbackDurationSec * sampleRate) : decoded;
  const totalSamples = Math.max(1, Math.min(declared, decoded));
  return {
    primingSamples: DEFAULT_PRIMING_SAMPLES,
    totalSamples,
    sampleRate,
    duration: totalSamples / sampleRate,
  };
}

/**
 * The index of segment `index`'s first AAC frame, counted from the song's first (priming) frame. The playlist's
 * segment starts are sums of microsecond-rounded durations of whole frames, so rounding recovers the exact count.
 */
export function segmentFirstFrame(playlist: MediaPlaylist, index: number, sampleRate: number): number {
  const segment = playlist.segments[index];
  if (!segment) throw new RangeError(`no segment ${index}`);
  return Math.round((segment.start * sampleRate) / AAC_FRAME_SAMPLES);
}

/** Where segment `index` of a song whose first real sample plays at `songStart` goes. */
export function segmentPlacement(
  songStart: number,
  timing: SongTiming,
  playlist: MediaPlaylist,
  index: number,
): Placement {
  const firstFrame = segmentFirstFrame(playlist, index, timing.sampleRate);
  return {
    timestampOffset: songStart + (firstFrame * AAC_FRAME_SAMPLES - timing.primingSamples) / timing.sampleRate,
    appendWindowStart: songStart,
    appendWindowEnd: songStart + timing.duration,
  };
}

/** The part of the timeline segment `index` fills once trimmed. */
export function segmentRange(
  songStart: number,
  timing: SongTiming,
  playlist: MediaPlaylist,
  index: number,
): TimeRange {
  const { timestampOffset, appendWindowStart, appendWindowEnd } = segmentPlacement(
    songStart,
    timing,
    playlist,
    index,
  );
  const frames =
    index + 1 < playlist.segments.length
      ? segmentFirstFrame(playlist, index + 1, timing.sampleRate) -
        segmentFirstFrame(playlist, index, timing.sampleRate)
      : Number.POSITIVE_INFINITY;
  const end = timestampOffset + (frames * AAC_FRAME_SAMPLES) / timing.sampleRate;
  return { start: Math.max(appendWindowStart, timestampOffset), end: Math.min(appendWindowEnd, end) };
}

/** The segment that holds song time `seconds` (of real audio, after the priming). */
export function segmentIndexAt(playlist: MediaPlaylist, timing: SongTiming, seconds: number): number {
  const encoded = Math.max(0, seconds) + timing.primingSamples / timing.sampleRate;
  const { segments } = playlist;
  let index = 0;
  // Microsecond slack: a time exactly on a boundary belongs to the later segment.
  while (index + 1 < segments.length && segments[index + 1]!.start <= encoded + 1e-6) index += 1;
  return index;
}
