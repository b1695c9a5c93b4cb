import type { Store, ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { useDispatch, useSelector, useStore } from 'react-redux';
import type { PlayerRootState } from '../player.selectors';

/** Typed hooks over the slices the player reads (the app's store satisfies PlayerRootState). */
export type PlayerDispatch = ThunkDispatch<PlayerRootState, unknown, UnknownAction>;
export const usePlayerDispatch = useDispatch.withTypes<PlayerDispatch>();
export const usePlayerSelector = useSelector.withTypes<PlayerRootState>();
export const usePlayerStore = useStore.withTypes<Store<PlayerRootState>>();
