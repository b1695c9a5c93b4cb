import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { useDispatch, useSelector, useStore } from 'react-redux';
import type { Store } from '@reduxjs/toolkit';
import type { AuthState } from '../auth';
import type { PlayerRootState } from '../player';

/** The slices commerce reads; the app's store satisfies it. */
export interface CommerceRootState extends PlayerRootState {
  auth: AuthState;
}

export type CommerceDispatch = ThunkDispatch<CommerceRootState, unknown, UnknownAction>;
export const useCommerceDispatch = useDispatch.withTypes<CommerceDispatch>();
export const useCommerceSelector = useSelector.withTypes<CommerceRootState>();
export const useCommerceStore = useStore.withTypes<Store<CommerceRootState>>();
