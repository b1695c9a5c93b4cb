import { isRejected, type TypedStartListening } from '@reduxjs/toolkit';
import { toast } from '../../lib/toast';
import { backbeatApi } from '../../lib/api-query';
import {
  AUTH_MESSAGES,
  login,
  logout,
  register,
  signedIn,
  socialLoginSuccess,
  toggleLikedSong,
  updateGenres,
} from './auth.thunks';
import type { AuthState } from './auth.types';
import { writeStoredUser } from './auth.user';

type AuthStartListening = TypedStartListening<{ auth: AuthState }>;

// Matchers are assigned to variables so TypeScript infers the action type for `effect`.
const requestFailed = isRejected(register, login, logout, toggleLikedSong);

/**
 * The account journey's toasts share one id, so each replaces the one before instead of stacking (a sign-up's
 * "Registered successfully" gives way to "Preferred genres updated"); likes share another.
 */
const ACCOUNT_TOAST = { id: 'account' } as const;
const LIKE_TOAST = { id: 'like' } as const;

/** One place that turns auth results into toasts (SPEC section 4 texts) and keeps the stored user in sync. */
export function startAuthListeners(startListening: AuthStartListening): void {
  startListening({
    matcher: signedIn,
    effect: (action) => {
      toast.success(action.payload.message, ACCOUNT_TOAST);
    },
  });
  startListening({
    actionCreator: logout.fulfilled,
    effect: (action, api) => {
      toast.success(action.payload, ACCOUNT_TOAST);
      // Cached lists belong to the account that just left.
      api.dispatch(backbeatApi.util.resetApiState());
    },
  });
  startListening({
    actionCreator: updateGenres.fulfilled,
    effect: (action) => {
      toast.success(action.payload.message, ACCOUNT_TOAST);
    },
  });
  startListening({
    actionCreator: toggleLikedSong.fulfilled,
    effect: (action, api) => {
      toast.success(action.payload.message, LIKE_TOAST);
      api.dispatch(backbeatApi.util.invalidateTags(['LikedSongs']));
    },
  });
  startListening({
    matcher: requestFailed,
    effect: (action) => {
      toast.error(action.payload ?? AUTH_MESSAGES.fallback, ACCOUNT_TOAST);
    },
  });
  startListening({
    actionCreator: socialLoginSuccess.rejected,
    effect: () => {
      toast.error(AUTH_MESSAGES.socialFailed, ACCOUNT_TOAST);
    },
  });
  startListening({
    actionCreator: updateGenres.rejected,
    effect: (action) => {
      const detail =
        action.payload && action.payload !== AUTH_MESSAGES.genresFailed ? action.payload : undefined;
      toast.error(AUTH_MESSAGES.genresFailed, {
        ...ACCOUNT_TOAST,
        ...(detail ? { description: detail } : {}),
      });
    },
  });
  startListening({
    predicate: (_action, current, previous) => current.auth.user !== previous.auth.user,
    effect: (_action, api) => {
      writeStoredUser(api.getState().auth.user);
    },
  });
}
