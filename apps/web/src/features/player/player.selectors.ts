import { createSelector } from '@reduxjs/toolkit';
import type { Song } from '../catalog';
import { playbackQueue, upNext } from './player.rules';
import type { PlayerState } from './player.types';
import type { StreamState } from './stream.slice';

/**
 * The slices the player reads. `songs` (the catalogue's library, context 'all') is optional so the player works
 * before that slice is registered.
 */
export interface PlayerRootState {
  player: PlayerState;
  stream: StreamState;
  songs?: { allSongs?: Song[] | null };
}

const NO_SONGS: Song[] = [];

export const selectPlayer = (state: PlayerRootState) => state.player;
export const selectStream = (state: PlayerRootState) => state.stream;
export const selectLibrarySongs = (state: PlayerRootState): Song[] => state.songs?.allSongs ?? NO_SONGS;
export const selectSelectedSong = (state: PlayerRootState) => state.player.selectedSong;
export const selectIsPlaying = (state: PlayerRootState) => state.player.isPlaying;
export const selectPlaybackContext = (state: PlayerRootState) => state.player.playbackContext;

export const selectQueue = createSelector([selectPlaybackContext, selectLibrarySongs], (context, library) =>
  playbackQueue(context, library),
);

export const selectUpNext = createSelector([selectQueue, selectSelectedSong], (queue, song) =>
  upNext(queue, song),
);

/** The current song's stream state: its addresses, whether they are loading, and its error message. */
export const selectCurrentStream = createSelector([selectSelectedSong, selectStream], (song, stream) => {
  const id = song?._id ?? null;
  return {
    url: id ? (stream.urls[id] ?? null) : null,
    audioUrl: id ? (stream.audioUrls[id] ?? null) : null,
    fetched: id ? stream.fetchedIds.includes(id) : false,
    loading: id !== null && stream.fetchingSongId === id,
    error: id && stream.error?.songId === id ? stream.error.message : null,
  };
});
