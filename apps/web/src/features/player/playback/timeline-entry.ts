import type { SongTiming } from './gapless-timing';
import type { MediaPlaylist } from './media-playlist';
import type { SongLoader } from './song-loader';

/** One song laid out on the gapless player's timeline. */
export interface TimelineEntry {
  source: { songId: string; url: string; firstSegmentUrl?: string | null; durationHint?: number };
  /** Media time of the song's first real sample; null until the song before it knows its length. */
  start: number | null;
  loader: SongLoader;
  abort: AbortController;
  playlist: MediaPlaylist | null;
  timing: SongTiming | null;
  /** Encrypted bytes of each appended segment, for the 60 MB buffer cap. */
  appended: Map<number, number>;
  /** Loads of a segment in a row that did not show up in the buffer. */
  attempts: Map<number, number>;
  /** A key re-check is on its way. */
  rechecking: boolean;
  failed: boolean;
  dropped: boolean;
}

export function createEntry(
  source: TimelineEntry['source'],
  start: number | null,
  makeLoader: (signal: AbortSignal) => SongLoader,
): TimelineEntry {
  const abort = new AbortController();
  return {
    source,
    start,
    loader: makeLoader(abort.signal),
    abort,
    playlist: null,
    timing: null,
    appended: new Map(),
    attempts: new Map(),
    rechecking: false,
    failed: false,
    dropped: false,
  };
}

/** Where the song's last sample ends; unknown (infinite) until its playlist is in. */
export function entryEnd(entry: TimelineEntry): number {
  if (entry.start === null || !entry.timing) return Number.POSITIVE_INFINITY;
  return entry.start + entry.timing.duration;
}

/** Stops the entry's requests; nothing it still receives is appended. */
export function dropEntry(entry: TimelineEntry): void {
  entry.dropped = true;
  entry.abort.abort(new DOMException('The song left the timeline', 'AbortError'));
}
