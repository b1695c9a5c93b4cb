/** Pure rules of SPEC section 4 (Player) that do not belong to one reducer. */
import type { Song } from '../catalog';
import {
  AUTO_ADVANCE_MIN_DURATION_S,
  AUTO_ADVANCE_WINDOW_S,
  PREVIOUS_RESTART_THRESHOLD_S,
  UP_NEXT_COUNT,
} from './player.constants';
import type { PlaybackContext } from './player.types';

export const DEFAULT_CONTEXT: PlaybackContext = { type: 'all', id: null, songs: [] };

/** True when the current song is missing from a non-'all' context: that context is stale and gets cleared. */
export function isContextStale(context: PlaybackContext, selected: Song | null): boolean {
  if (context.type === 'all' || !selected) return false;
  return !context.songs.some((song) => song._id === selected._id);
}

/** The list next and previous walk: the context's songs, or the whole library for 'all'. */
export function playbackQueue(context: PlaybackContext, library: readonly Song[]): readonly Song[] {
  if (context.type !== 'all') return context.songs;
  return library.length > 0 ? library : context.songs;
}

function indexOf(queue: readonly Song[], song: Song | null): number {
  return song ? queue.findIndex((item) => item._id === song._id) : -1;
}

/** Next wraps from the last song to the first; a song outside the queue continues with the first. */
export function nextInQueue(queue: readonly Song[], current: Song | null): Song | null {
  if (queue.length === 0) return null;
  const index = indexOf(queue, current);
  return queue[(index + 1) % queue.length] ?? null;
}

/** The song before the current one, wrapping from the first to the last. */
export function previousInQueue(queue: readonly Song[], current: Song | null): Song | null {
  if (queue.length === 0) return null;
  const index = indexOf(queue, current);
  return queue[index <= 0 ? queue.length - 1 : index - 1] ?? null;
}

/** Previous restarts the song once more than 3 s have played. */
export function shouldRestartOnPrevious(currentTime: number): boolean {
  return currentTime > PREVIOUS_RESTART_THRESHOLD_S;
}

/** Advance when within 0.5 s of the end of a song longer than 1 s. */
export function isNearEnd(currentTime: number, duration: number): boolean {
  return duration > AUTO_ADVANCE_MIN_DURATION_S && currentTime >= duration - AUTO_ADVANCE_WINDOW_S;
}

/** Up to four songs after the current one, wrapping, never repeating the current song. */
export function upNext(queue: readonly Song[], current: Song | null, count = UP_NEXT_COUNT): Song[] {
  if (queue.length === 0) return [];
  const index = indexOf(queue, current);
  const result: Song[] = [];
  for (let step = 1; step <= queue.length && result.length < count; step += 1) {
    const song = queue[(index + step + queue.length) % queue.length];
    if (song && song._id !== current?._id) result.push(song);
  }
  return result;
}

export function clampVolume(volume: number): number {
  if (!Number.isFinite(volume)) return 0;
  return Math.min(1, Math.max(0, volume));
}

/** '{url}?nocache={timestamp}', joined with '&' when the address already has a query. */
export function withNoCache(url: string, timestamp: number): string {
  return `${url}${url.includes('?') ? '&' : '?'}nocache=${timestamp}`;
}
