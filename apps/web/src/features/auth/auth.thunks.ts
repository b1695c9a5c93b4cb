import { createAsyncThunk, isFulfilled } from '@reduxjs/toolkit';
import type { LoginBody, RegisterBody, User } from '@backbeat/contract';
import { ApiError } from '../../lib/api';
import { authRequests } from './auth.requests';
import type { AuthState } from './auth.types';
import { writeStoredUser } from './auth.user';

type ThunkConfig = { rejectValue: string; state: { auth: AuthState } };

export const AUTH_MESSAGES = {
  registered: 'Registered successfully',
  loggedIn: 'Logged in successfully',
  socialRegistered: 'Social registration successful! Please select your genres.',
  socialLoggedIn: 'Social login successful!',
  loggedOut: 'Logged out successfully',
  genresUpdated: 'Preferred genres updated',
  socialFailed: 'Social login failed',
  socialAccountExists:
    'An account with this e-mail already exists. Sign in with its password, or reset the password by e-mail.',
  genresFailed: 'Failed to update genres',
  registerNoSession: 'Authentication failed after registration',
  registerNotVerified: 'Token verification failed after registration',
  credentialsFallback: 'Login failed',
  fallback: 'Something went wrong',
} as const;

function bodyText(body: unknown, key: 'msg' | 'error' | 'message'): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[key];
  return typeof value === 'string' && value.trim() ? value : undefined;
}

/** Register and login failures: response msg, then error, then the exception message, then 'Login failed'. */
export function credentialsErrorText(error: unknown): string {
  const body = error instanceof ApiError ? error.body : undefined;
  return (
    bodyText(body, 'msg') ??
    bodyText(body, 'error') ??
    bodyText(body, 'message') ??
    (error instanceof Error && error.message ? error.message : undefined) ??
    AUTH_MESSAGES.credentialsFallback
  );
}

/** Profile, logout, genre and like failures: the response message or the exception message. */
export function requestErrorText(error: unknown): string {
  return error instanceof Error && error.message ? error.message : AUTH_MESSAGES.fallback;
}

export interface AuthSuccess {
  user: User;
  message: string;
}

/**
 * Registration counts as failed unless the follow-up profile check succeeds. Hardening of SPEC section 4: the
 * session cookie is HttpOnly, so instead of reading it after 100 ms the client asks the server (GET /users/me).
 */
export const register = createAsyncThunk<AuthSuccess, RegisterBody, ThunkConfig>(
  'auth/register',
  async (form, { rejectWithValue }) => {
    let answer;
    try {
      answer = await authRequests.register(form);
    } catch (error) {
      return rejectWithValue(credentialsErrorText(error));
    }
    if (!answer || typeof answer.token !== 'string' || !answer.token) {
      return rejectWithValue(AUTH_MESSAGES.registerNoSession);
    }
    try {
      const user = await authRequests.me();
      return { user, message: AUTH_MESSAGES.registered };
    } catch {
      return rejectWithValue(AUTH_MESSAGES.registerNotVerified);
    }
  },
);

export const login = createAsyncThunk<AuthSuccess, LoginBody, ThunkConfig>(
  'auth/login',
  async (credentials, { rejectWithValue }) => {
    try {
      const answer = await authRequests.login(credentials);
      const user = answer.user ?? (await authRequests.me());
      return { user, message: AUTH_MESSAGES.loggedIn };
    } catch (error) {
      return rejectWithValue(credentialsErrorText(error));
    }
  },
);

/** After the provider redirects back to /auth/callback; the server has already set the session cookie. */
export const socialLoginSuccess = createAsyncThunk<
  AuthSuccess & { isNewUser: boolean },
  boolean,
  ThunkConfig
>('auth/socialLoginSuccess', async (isNewUser, { rejectWithValue }) => {
  try {
    const user = await authRequests.me();
    return {
      user,
      isNewUser,
      message: isNewUser ? AUTH_MESSAGES.socialRegistered : AUTH_MESSAGES.socialLoggedIn,
    };
  } catch {
    return rejectWithValue(AUTH_MESSAGES.socialFailed);
  }
});

/** The current user; `{ startup: true }` for the one start-up check, where a 401 just means "a guest". */
export const fetchProfile = createAsyncThunk<User, { startup?: boolean } | void, ThunkConfig>(
  'auth/fetchProfile',
  async (options, { rejectWithValue }) => {
    try {
      return await authRequests.me(options ?? {});
    } catch (error) {
      // SPEC section 8: a 401 on the profile fetch clears the stored user data.
      if (error instanceof ApiError && error.status === 401) writeStoredUser(null);
      return rejectWithValue(requestErrorText(error));
    }
  },
);

export const logout = createAsyncThunk<string, void, ThunkConfig>(
  'auth/logout',
  async (_, { rejectWithValue }) => {
    try {
      await authRequests.logout();
      return AUTH_MESSAGES.loggedOut;
    } catch (error) {
      return rejectWithValue(requestErrorText(error));
    }
  },
);

export const updateGenres = createAsyncThunk<
  { preferredGenres: string[]; message: string },
  string[],
  ThunkConfig
>('auth/updateGenres', async (genres, { rejectWithValue }) => {
  try {
    const answer = await authRequests.updateGenres(genres);
    return {
      preferredGenres: Array.isArray(answer.preferredGenres) ? answer.preferredGenres : genres,
      message: AUTH_MESSAGES.genresUpdated,
    };
  } catch (error) {
    return rejectWithValue(requestErrorText(error));
  }
});

export interface LikeToggled {
  songId: string;
  /** The server's verdict; undefined means "toggle what we have". */
  liked?: boolean;
  message: string;
}

export const toggleLikedSong = createAsyncThunk<LikeToggled, string, ThunkConfig>(
  'auth/toggleLikedSong',
  async (songId, { rejectWithValue }) => {
    try {
      const answer = await authRequests.toggleLikedSong(songId);
      return { songId, liked: answer.liked, message: answer.message };
    } catch (error) {
      return rejectWithValue(requestErrorText(error));
    }
  },
);

/** Every auth call: the slice shows their progress and failures alike. */
export const authThunks = [
  register,
  login,
  socialLoginSuccess,
  fetchProfile,
  logout,
  updateGenres,
  toggleLikedSong,
] as const;

/** A sign-up, login or social login that succeeded: its answer carries the user and the message. */
export const signedIn = isFulfilled(register, login, socialLoginSuccess);
