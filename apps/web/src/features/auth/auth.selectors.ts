import type { AuthState } from './auth.types';
import { hasPreferredGenres, isAdmin } from './auth.user';

type WithAuth = { auth: AuthState };

export const selectAuth = (state: WithAuth) => state.auth;
export const selectUser = (state: WithAuth) => state.auth.user;
export const selectIsSignedIn = (state: WithAuth) => state.auth.user !== null;
export const selectHasGenres = (state: WithAuth) => hasPreferredGenres(state.auth.user);
export const selectIsAdmin = (state: WithAuth) => isAdmin(state.auth.user);
export const selectAuthStatus = (state: WithAuth) => state.auth.status;
export const selectLikedSongIds = (state: WithAuth) => state.auth.user?.likedsong ?? EMPTY;

const EMPTY: string[] = [];
