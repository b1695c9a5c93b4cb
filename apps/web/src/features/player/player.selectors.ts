import { createSelector } from '@reduxjs/toolkit';
import type { Song } from '../catalog';
import type { backbeatApi } from '../../lib/api-query';
import { selectLibraryResult } from './library.api';
import { playbackQueue, upNext } from './player.rules';
import type { PlayerState } from './player.types';
import { selectActivePreview, type PreviewState } from './preview.slice';
import type { StreamState } from './stream.slice';

/**
 * The slices the player reads. `api` (RTK Query's cache, which holds the library of context 'all') is optional so
 * the player works before that reducer is registered.
 */
export interface PlayerRootState {
  player: PlayerState;
  stream: StreamState;
  /** Preview mode (optional, like `api`, so the player works before that slice is registered). */
  preview?: PreviewState;
  api?: ReturnType<typeof backbeatApi.reducer>;
  /** Who is signed in (optional, like `api`): nothing is asked of the stream API for nobody. */
  auth?: { user: unknown };
}

const NO_SONGS: Song[] = [];

export const selectPlayer = (state: PlayerRootState) => state.player;
export const selectStream = (state: PlayerRootState) => state.stream;
/** The library (`GET /songs`, first page) as the home screen last fetched it; none before that. */
export const selectLibrarySongs = (state: PlayerRootState): Song[] =>
  (state.api ? selectLibraryResult(state as Parameters<typeof selectLibraryResult>[0]).data : undefined) ??
  NO_SONGS;
export const selectSelectedSong = (state: PlayerRootState) => state.player.selectedSong;
export const selectIsPlaying = (state: PlayerRootState) => state.player.isPlaying;
export const selectPlaybackContext = (state: PlayerRootState) => state.player.playbackContext;

export const selectQueue = createSelector([selectPlaybackContext, selectLibrarySongs], (context, library) =>
  playbackQueue(context, library),
);

export const selectUpNext = createSelector([selectQueue, selectSelectedSong], (queue, song) =>
  upNext(queue, song),
);

export { selectActivePreview };
const selectPreviewing = (state: PlayerRootState) => selectActivePreview(state) !== null;

/**
 * The current song's stream state: its addresses, whether they are loading, and its error message. Addresses of
 * the other kind (a preview's while the song itself is wanted, or the reverse) count as not fetched yet.
 */
export const selectCurrentStream = createSelector(
  [selectSelectedSong, selectStream, selectPreviewing],
  (song, stream, previewing) => {
    const id = song?._id ?? null;
    const fetched =
      id !== null && stream.fetchedIds.includes(id) && stream.previewIds.includes(id) === previewing;
    return {
      url: fetched ? (stream.urls[id] ?? null) : null,
      audioUrl: fetched ? (stream.audioUrls[id] ?? null) : null,
      fetched,
      loading: id !== null && stream.fetchingSongId === id,
      error: id && stream.error?.songId === id ? stream.error.message : null,
    };
  },
);
