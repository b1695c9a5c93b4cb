import type { ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import { isNearEnd } from './player.rules';
import { selectActivePreview, selectLibrarySongs, type PlayerRootState } from './player.selectors';
import { next, pause, playFromList, previous, reconcileWithLibrary, seek, selectSong } from './player.slice';
import type { PlayFromListPayload } from './player.types';
import { previewDismissed, previewEnded, previewStarted } from './preview.slice';

type PlayerThunk = ThunkAction<void, PlayerRootState, unknown, UnknownAction>;

/**
 * Next in the playback context, or in the library for 'all' (the library RTK Query holds). A preview that reaches
 * its end stops there instead: the player then offers to buy or subscribe.
 */
export const playNext = (): PlayerThunk => (dispatch, getState) => {
  const state = getState();
  const preview = selectActivePreview(state);
  if (preview?.songId && (preview.ended || isNearEnd(state.player.currentTime, state.player.duration))) {
    dispatch(previewEnded(preview.songId));
    dispatch(pause());
    return;
  }
  dispatch(next({ library: selectLibrarySongs(state) }));
};

/**
 * Plays `songs[index]`'s 30-second preview (a locked song): selected as from its list, then in preview mode, so
 * the stream fetched for it is the preview's. Previewing the current song starts it again as a preview.
 */
export const previewSong =
  (payload: PlayFromListPayload): PlayerThunk =>
  (dispatch, getState) => {
    const song = payload.songs[payload.index];
    if (!song) return;
    if (getState().player.selectedSong?._id === song._id) dispatch(selectSong(song));
    else dispatch(playFromList(payload));
    dispatch(previewStarted({ songId: song._id, selectedAt: getState().player.lastSelectedAt }));
  };

export const playPrevious = (): PlayerThunk => (dispatch, getState) => {
  dispatch(previous({ library: selectLibrarySongs(getState()) }));
};

export const reconcilePlayer = (): PlayerThunk => (dispatch, getState) => {
  dispatch(reconcileWithLibrary({ library: selectLibrarySongs(getState()) }));
};

/**
 * Leaves preview mode (the prompt closed, or the song was just bought): paused at the song's start, so play next
 * asks for the song itself (its refusal, or now the whole song).
 */
export const leavePreview = (): PlayerThunk => (dispatch, getState) => {
  if (!selectActivePreview(getState())) return;
  dispatch(previewDismissed());
  dispatch(pause());
  dispatch(seek(0));
};
