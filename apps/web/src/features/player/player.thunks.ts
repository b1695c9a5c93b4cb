import type { ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import { selectLibrarySongs, type PlayerRootState } from './player.selectors';
import { next, previous, reconcileWithLibrary } from './player.slice';

type PlayerThunk = ThunkAction<void, PlayerRootState, unknown, UnknownAction>;

/** Next in the playback context, or in the library for 'all' (read from the songs slice). */
export const playNext = (): PlayerThunk => (dispatch, getState) => {
  dispatch(next({ library: selectLibrarySongs(getState()) }));
};

export const playPrevious = (): PlayerThunk => (dispatch, getState) => {
  dispatch(previous({ library: selectLibrarySongs(getState()) }));
};

export const reconcilePlayer = (): PlayerThunk => (dispatch, getState) => {
  dispatch(reconcileWithLibrary({ library: selectLibrarySongs(getState()) }));
};
