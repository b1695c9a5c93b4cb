import type { AuthState } from './auth.types';
import { isAdmin } from './auth.user';

type WithAuth = { auth: AuthState };

export const selectUser = (state: WithAuth) => state.auth.user;
export const selectIsSignedIn = (state: WithAuth) => state.auth.user !== null;
export const selectIsAdmin = (state: WithAuth) => isAdmin(state.auth.user);
export const selectLikedSongIds = (state: WithAuth) => state.auth.user?.likedsong ?? EMPTY;

const EMPTY: string[] = [];
