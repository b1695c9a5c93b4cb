import { createSlice, isPending, isRejected, type PayloadAction } from '@reduxjs/toolkit';
import type { User } from '@backbeat/contract';
import {
  AUTH_MESSAGES,
  authThunks,
  fetchProfile,
  logout,
  signedIn,
  socialLoginSuccess,
  toggleLikedSong,
  updateGenres,
} from './auth.thunks';
import type { AuthState } from './auth.types';
import { mergeUser, readStoredUser } from './auth.user';

/** Initial state: authenticated exactly when a stored user exists (SPEC section 4). */
export function createInitialAuthState(storedUser: User | null): AuthState {
  return {
    user: storedUser,
    isAuthenticated: storedUser !== null,
    status: 'idle',
    error: null,
    message: null,
  };
}

function addOnce(list: string[], id: string): string[] {
  return list.includes(id) ? list : [...list, id];
}

const authSlice = createSlice({
  name: 'auth',
  initialState: () => createInitialAuthState(typeof window === 'undefined' ? null : readStoredUser()),
  reducers: {
    addPurchasedSong(state, action: PayloadAction<string>) {
      if (state.user) state.user.purchasedSongs = addOnce(state.user.purchasedSongs, action.payload);
    },
    addPurchasedAlbum(state, action: PayloadAction<string>) {
      if (state.user) state.user.purchasedAlbums = addOnce(state.user.purchasedAlbums, action.payload);
    },
    /** The account as a settings call answered it (name, picture): merged like a profile fetch. */
    userUpdated(state, action: PayloadAction<User>) {
      if (state.user) state.user = mergeUser(state.user, action.payload);
    },
    /** Local logout: the session is already gone on the server (expired, or the account was deleted). */
    sessionEnded() {
      return createInitialAuthState(null);
    },
    clearAuthFeedback(state) {
      state.error = null;
      state.message = null;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(logout.fulfilled, (state, action) => {
        state.user = null;
        state.isAuthenticated = false;
        state.status = 'succeeded';
        state.message = action.payload;
      })
      .addCase(updateGenres.fulfilled, (state, action) => {
        state.status = 'succeeded';
        state.message = action.payload.message;
        // Merge rule: an empty list never wipes the stored genres.
        if (state.user && action.payload.preferredGenres.length > 0) {
          state.user.preferredGenres = action.payload.preferredGenres;
        }
      })
      .addCase(toggleLikedSong.fulfilled, (state, action) => {
        state.status = 'succeeded';
        state.message = action.payload.message;
        if (!state.user) return;
        const { songId } = action.payload;
        const has = state.user.likedsong.includes(songId);
        const liked = action.payload.liked ?? !has;
        if (liked && !has) state.user.likedsong.push(songId);
        if (!liked && has) state.user.likedsong = state.user.likedsong.filter((id) => id !== songId);
      })
      .addMatcher(signedIn, (state, action) => {
        state.user = mergeUser(state.user, action.payload.user);
        state.isAuthenticated = true;
        state.status = 'succeeded';
        state.message = action.payload.message;
      })
      .addMatcher(fetchProfile.fulfilled.match, (state, action) => {
        state.user = mergeUser(state.user, action.payload);
        state.isAuthenticated = true;
        state.status = 'succeeded';
      })
      .addMatcher(isPending(...authThunks), (state) => {
        state.status = 'loading';
        state.error = null;
      })
      .addMatcher(isRejected(...authThunks), (state, action) => {
        state.status = 'failed';
        state.error = action.payload ?? action.error.message ?? AUTH_MESSAGES.fallback;
      })
      .addMatcher(isRejected(fetchProfile, socialLoginSuccess), (state) => {
        state.user = null;
        state.isAuthenticated = false;
      });
  },
});

export const { addPurchasedSong, addPurchasedAlbum, sessionEnded, clearAuthFeedback, userUpdated } =
  authSlice.actions;
export const authReducer = authSlice.reducer;
