/**
 * Keeps the PlaybackController in step with the player state, from a store subscription rather than React effects:
 * a click or a "next" reaches the audio inside its own dispatch, before the page re-renders (tens of milliseconds
 * on a busy machine), so a prefetched next song is a seek away and a cold start's requests leave at once.
 */
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import type { Song } from '../../catalog';
import { selectActivePreview, type PlayerRootState } from '../player.selectors';
import { claimAlbumPrefetch } from '../stream-prefetch';
import { fetchAlbumStream, fetchSongStream } from '../stream.slice';
import type { PlaybackController, SongRequest } from './playback-controller';

/** Longest wait for the current song's audio before deferred work runs anyway (a paused or refused song). */
const DEFERRED_WORK_MAX_WAIT_MS = 1500;

/** Runs `work` once, when the element next starts playing or after DEFERRED_WORK_MAX_WAIT_MS, whichever is first. */
export function afterFirstAudio(audio: HTMLAudioElement, work: () => void): () => void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    audio.removeEventListener('playing', run);
    work();
  };
  const timer = setTimeout(run, DEFERRED_WORK_MAX_WAIT_MS);
  audio.addEventListener('playing', run);
  return () => {
    done = true;
    clearTimeout(timer);
    audio.removeEventListener('playing', run);
  };
}

export function selectionKeyOf(state: PlayerRootState): string | null {
  const { selectedSong, lastSelectedAt } = state.player;
  return selectedSong ? `${selectedSong._id}:${lastSelectedAt ?? 'restored'}` : null;
}

/** The song's addresses are held, and of the kind wanted now: its preview's in preview mode, else its own. */
export function holdsAddress(state: PlayerRootState, songId: string): boolean {
  const previewing = selectActivePreview(state)?.songId === songId;
  return state.stream.fetchedIds.includes(songId) && state.stream.previewIds.includes(songId) === previewing;
}

/**
 * What the controller plays for `song`, or null without a held address of the kind wanted now. A preview is its
 * own 30-second stream: a song's address never stands in for its preview, nor a preview's for the song.
 */
export function songRequest(state: PlayerRootState, song: Song): SongRequest | null {
  const url = state.stream.urls[song._id];
  if (!url || !holdsAddress(state, song._id)) return null;
  const preview = selectActivePreview(state);
  return {
    songId: song._id,
    url,
    fallbackUrl: state.stream.audioUrls[song._id] ?? null,
    firstSegmentUrl: state.stream.firstSegmentUrls[song._id] ?? null,
    durationHint: preview?.songId === song._id ? preview.window?.durationSec : song.duration,
  };
}

type PlayerStore = {
  getState(): PlayerRootState;
  subscribe(listener: () => void): () => void;
  dispatch: ThunkDispatch<PlayerRootState, unknown, UnknownAction>;
};

/**
 * Shared with the hook's auto-advance: `pending` while it dispatches (the selection it makes is seen here, inside
 * that dispatch), `key` the selection it made, `awaitingSource` while that selection has no address yet (the
 * ending song still plays, and must not advance again).
 */
export interface Handover {
  pending: boolean;
  key: string | null;
  awaitingSource: boolean;
}

export interface PlaybackSyncOptions {
  store: PlayerStore;
  controller: PlaybackController;
  audio: HTMLAudioElement;
  /** Automatic advances, which continue the timeline instead of cutting the ending song. */
  handover: Handover;
  /** Starts the element (the hook's autoplay handling). */
  requestPlay(): void;
  /** A new selection: 'none' without an address, 'loading' a new source, 'continuing' a hand-over in progress. */
  onSelection(source: 'none' | 'loading' | 'continuing', hasSource: boolean): void;
}

export interface PlaybackSync {
  /** The controller attached a source later than the selection: play it if the state says so. */
  sourceAttached(): void;
  stop(): void;
}

export function startPlaybackSync(options: PlaybackSyncOptions): PlaybackSync {
  const { store, controller, audio, handover } = options;
  let addressFor: string | null = null;
  let sourceFor: string | null = null;
  let hasSource = false;
  let wasPlaying: boolean | null = null;
  const cancels: Array<() => void> = [];

  /** A stream address is fetched when the selected song has none; in an album the rest comes in one call. */
  const fetchAddress = (state: PlayerRootState) => {
    const song = state.player.selectedSong;
    const fetched = song ? holdsAddress(state, song._id) : false;
    const previewing = selectActivePreview(state) !== null;
    const signature = `${selectionKeyOf(state)}:${fetched}:${previewing}:${state.player.isPlaying}`;
    if (signature === addressFor) return;
    addressFor = signature;
    if (!song || fetched) return;
    // A song the catalogue already marks locked is asked for only when someone presses play: an auto-selected,
    // paused one would otherwise greet every listener with a refusal. Pressing play gets the server's message.
    if (song.canPlay === false && !state.player.isPlaying) return;
    // Signed out (a sign-out that just ended, the library still on screen): an auto-selected, paused song is not
    // asked for on a session that is gone; the answer would only be a 401.
    if (state.auth && !state.auth.user && !state.player.isPlaying) return;
    // After this dispatch: a thunk dispatched from inside a store listener would run that listener again mid-way.
    queueMicrotask(() => {
      void store.dispatch(fetchSongStream({ songId: song._id, song })).then((result) => {
        const { playbackContext } = store.getState().player;
        const albumId = playbackContext.type === 'album' ? playbackContext.id : null;
        if (!fetchSongStream.fulfilled.match(result) || !albumId || !claimAlbumPrefetch(albumId)) return;
        // Once this song sounds, so the album call never competes with the requests of the song awaited.
        cancels.push(afterFirstAudio(audio, () => void store.dispatch(fetchAlbumStream(albumId))));
      });
    });
  };

  /** A new song (or a new selection of the same one) replaces the playback, or continues it after a hand-over. */
  const attach = (state: PlayerRootState) => {
    const key = selectionKeyOf(state);
    const { selectedSong, currentTime, forceRefreshToken } = state.player;
    const request = selectedSong ? songRequest(state, selectedSong) : null;
    const signature = `${key}:${request?.url ?? ''}:${forceRefreshToken}`;
    if (signature === sourceFor) return;
    sourceFor = signature;
    const continuous = key !== null && (handover.pending || handover.key === key);
    if (continuous) handover.key = key;
    handover.awaitingSource = continuous && !request;
    if (!request) {
      // A hand-over whose address is still on its way lets the ending song play out meanwhile.
      if (!continuous) controller.clear();
      hasSource = false;
      options.onSelection(continuous ? 'continuing' : 'none', false);
      return;
    }
    controller.select(request, { startPosition: continuous ? 0 : currentTime, continuous });
    audio.dataset.songOffset = String(controller.songOffset);
    hasSource = true;
    wasPlaying = null; // the new source plays (or not) as the state says
    options.onSelection(continuous && !audio.paused ? 'continuing' : 'loading', true);
  };

  /** Play and pause follow the store. */
  const playOrPause = (state: PlayerRootState) => {
    const { isPlaying } = state.player;
    // hls.js attaches asynchronously: its 'canplay' starts it then (the hook's readiness handler).
    if (!hasSource || !controller.hasSource || isPlaying === wasPlaying) return;
    wasPlaying = isPlaying;
    if (isPlaying) options.requestPlay();
    else if (!audio.paused) audio.pause();
  };

  const sync = () => {
    const state = store.getState();
    fetchAddress(state);
    attach(state);
    playOrPause(state);
  };
  sync();
  const unsubscribe = store.subscribe(sync);
  return {
    sourceAttached() {
      wasPlaying = null;
      playOrPause(store.getState());
    },
    stop() {
      unsubscribe();
      for (const cancel of cancels) cancel();
    },
  };
}
