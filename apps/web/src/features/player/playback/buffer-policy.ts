/**
 * What the gapless player loads next and what it lets go (SPEC section 9): 30 s of audio ahead of the playhead,
 * the next song's first segment as soon as it is within 600 s, at most 60 MB of segments, holes up to 0.5 s jumped,
 * 30 s kept behind the playhead.
 */
import { segmentIndexAt, segmentRange, type TimeRange } from './gapless-timing';
import type { TimelineEntry } from './timeline-entry';

export const BUFFER_AHEAD_S = 30;
export const MAX_AHEAD_S = 600;
export const MAX_BUFFER_BYTES = 60 * 1000 * 1000;
export const MAX_HOLE_S = 0.5;
export const BACK_BUFFER_S = 30;
/** Loads of one segment in a row that did not show up in the buffer before the player stops asking. */
const MAX_ATTEMPTS = 3;

/** A song's playlist to wait for (index null), or one of its segments to load. */
export interface Job {
  entry: TimelineEntry;
  index: number | null;
}

/** Whether the buffer holds `range` (its middle: the edges of a trimmed segment are shared with its neighbours). */
export function isBuffered(buffered: readonly TimeRange[], range: TimeRange): boolean {
  const middle = (range.start + range.end) / 2;
  return buffered.some((held) => held.start <= middle && middle < held.end);
}

/** Encrypted bytes of the appended segments still in the buffer. */
export function bufferedBytes(chain: readonly TimelineEntry[], buffered: readonly TimeRange[]): number {
  let bytes = 0;
  for (const { playlist, timing, start, appended } of chain) {
    if (!playlist || !timing || start === null) continue;
    for (const [index, size] of appended) {
      if (isBuffered(buffered, segmentRange(start, timing, playlist, index))) bytes += size;
    }
  }
  return bytes;
}

/** Gives each song whose predecessor knows its length its place: right where that one ends. */
export function placeFollowing(chain: readonly TimelineEntry[]): void {
  for (let i = 1; i < chain.length; i += 1) {
    const previous = chain[i - 1]!;
    const entry = chain[i]!;
    if (entry.start === null && previous.start !== null && previous.timing) {
      entry.start = previous.start + previous.timing.duration;
    }
  }
}

/** The next thing to load for songs `chain` (in play order) with the playhead at `time`; null: nothing now. */
export function nextJob(
  chain: readonly TimelineEntry[],
  time: number,
  buffered: readonly TimeRange[],
): Job | null {
  if (bufferedBytes(chain, buffered) >= MAX_BUFFER_BYTES) return null;
  for (const entry of chain) {
    if (entry.failed || entry.start === null) return null;
    if (!entry.playlist || !entry.timing) return { entry, index: null };
    const { playlist, timing, start } = entry;
    for (
      let index = segmentIndexAt(playlist, timing, time - start);
      index < playlist.segments.length;
      index += 1
    ) {
      const range = segmentRange(start, timing, playlist, index);
      if (range.end <= range.start || range.end <= time || isBuffered(buffered, range)) continue;
      const ahead = range.start - time;
      // Beyond the 30 s buffer target only a following song's first segment is fetched (within 600 s).
      const prefetch = index === 0 && entry !== chain[0] && ahead <= MAX_AHEAD_S;
      if (ahead > BUFFER_AHEAD_S && !prefetch) break;
      if ((entry.attempts.get(index) ?? 0) >= MAX_ATTEMPTS) return null;
      return { entry, index };
    }
  }
  return null;
}

/** Where kept audio starts: 30 s behind the playhead, never before the first song in play. */
export function keepFrom(chain: readonly TimelineEntry[], time: number): number | null {
  const first = chain[0];
  if (!first || first.start === null) return null;
  return Math.max(first.start, time - BACK_BUFFER_S);
}

/** The start of buffered audio at most 0.5 s ahead of a playhead that stalled, if any. */
export function holeEnd(buffered: readonly TimeRange[], time: number): number | null {
  const next = buffered.find((range) => range.start > time && range.start - time <= MAX_HOLE_S);
  return next ? next.start : null;
}
