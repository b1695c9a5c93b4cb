import type { StreamSongResponse } from '@backbeat/contract';
import { api, ApiError } from '../../lib/api';

/**
 * Stream addresses asked for on intent (the pointer resting on a play button, or keyboard focus on it), so the
 * click finds its address already on the way. A prefetched answer is handed to the next `fetchSongStream` for that
 * song exactly once and is kept only briefly: it was signed for whoever was signed in when it was asked for.
 */
export const PREFETCH_TTL_MS = 10_000;
/** Hover shorter than this is a pointer passing over the list, not an intent to play. */
export const PREFETCH_INTENT_DELAY_MS = 60;
const MAX_ENTRIES = 8;

interface Entry {
  response: Promise<StreamSongResponse>;
  at: number;
}

const entries = new Map<string, Entry>();
/** Set while the account signs out (and until someone signs in): nothing may be asked for on its session. */
let held = false;

/**
 * Holds (or lets go of) every prefetch. Signing out, a pointer resting on a play button of the page being left
 * must not ask for an address on a session that is ending: the answer would be a 401 for nobody.
 */
export function holdPrefetch(hold: boolean): void {
  held = hold;
  if (!hold) return;
  clearPrefetchedAddresses();
  endStreamSession();
}

/** An album's addresses are asked for at most this often (they are signed for hours; songs come and go). */
export const ALBUM_PREFETCH_TTL_MS = 10 * 60_000;
const albums = new Map<string, number>();

/**
 * True when the caller should ask for the album's stream addresses: not done, nor under way, within the last
 * ALBUM_PREFETCH_TTL_MS. A failed call hands the album back with releaseAlbumPrefetch.
 */
export function claimAlbumPrefetch(albumId: string, now = Date.now()): boolean {
  if (held) return false;
  const at = albums.get(albumId);
  if (at !== undefined && now - at < ALBUM_PREFETCH_TTL_MS) return false;
  albums.set(albumId, now);
  return true;
}

export function releaseAlbumPrefetch(albumId: string): void {
  albums.delete(albumId);
}

/**
 * Every stream-address request belongs to the signed-in session it was asked on: when a sign-out starts, those
 * still under way are cancelled (`endStreamSession`), so none comes back as a 401 for a session that is gone.
 */
let session = new AbortController();

/** Cancels the stream requests under way for the session that is ending. */
export function endStreamSession(): void {
  session.abort();
  session = new AbortController();
}

/** Whether an error is the cancellation of `endStreamSession` (or of the caller's own signal). */
export function isCancelled(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'ABORTED';
}

/** The caller's signal (if any) joined with the session's: either one cancels the request. */
export function sessionSignal(signal?: AbortSignal): AbortSignal {
  const current = session.signal;
  if (!signal) return current;
  const joined = new AbortController();
  const abort = () => joined.abort();
  if (signal.aborted || current.aborted) abort();
  signal.addEventListener('abort', abort, { once: true });
  current.addEventListener('abort', abort, { once: true });
  return joined.signal;
}

/** GET /stream/song/:id: the song's signed stream addresses, after the server's access policy. */
export function requestSongAddress(songId: string, signal?: AbortSignal): Promise<StreamSongResponse> {
  return api.get<StreamSongResponse>(`/stream/song/${encodeURIComponent(songId)}`, {
    signal: sessionSignal(signal),
  });
}

function dropStale(now: number): void {
  for (const [songId, entry] of entries) if (now - entry.at > PREFETCH_TTL_MS) entries.delete(songId);
}

/** Starts fetching a song's stream address unless one is already on the way. */
export function prefetchSongAddress(songId: string, now = Date.now()): void {
  if (held) return;
  dropStale(now);
  if (entries.has(songId)) return;
  if (entries.size >= MAX_ENTRIES) {
    const oldest = entries.keys().next().value;
    if (oldest !== undefined) entries.delete(oldest);
  }
  const response = requestSongAddress(songId);
  // An unused refusal must not surface as an unhandled rejection; the taker still sees it.
  response.catch(() => undefined);
  entries.set(songId, { response, at: now });
}

/** The prefetched answer for a song, once; undefined when there is none or it is too old. */
export function takePrefetchedAddress(
  songId: string,
  now = Date.now(),
): Promise<StreamSongResponse> | undefined {
  const entry = entries.get(songId);
  entries.delete(songId);
  if (!entry || now - entry.at > PREFETCH_TTL_MS) return undefined;
  return entry.response;
}

/** Forgets every prefetched address (sign-out, session end). */
export function clearPrefetchedAddresses(): void {
  entries.clear();
  albums.clear();
}
