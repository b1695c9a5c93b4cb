import { describe, expect, it } from 'vitest';
import {
  addPurchasedAlbum,
  addPurchasedSong,
  authReducer,
  createInitialAuthState,
  sessionEnded,
} from './auth.slice';
import { makeUser } from '../../lib/entities.test-fixtures';
import {
  fetchProfile,
  login,
  logout,
  register,
  socialLoginSuccess,
  toggleLikedSong,
  updateGenres,
} from './auth.thunks';
import { mergeUser } from './auth.user';

const signedIn = (user = makeUser()) => createInitialAuthState(user);

describe('initial state', () => {
  it('is authenticated exactly when a stored user exists', () => {
    expect(createInitialAuthState(null)).toEqual({
      user: null,
      isAuthenticated: false,
      status: 'idle',
      error: null,
      message: null,
    });
    expect(createInitialAuthState(makeUser()).isAuthenticated).toBe(true);
  });
});

describe('merge rule', () => {
  it('keeps stored preferredGenres, playlist and purchaseHistory when the server sends empty lists', () => {
    const stored = makeUser({ preferredGenres: ['Jazz'], playlist: ['p1'], purchaseHistory: ['h1'] });
    const incoming = makeUser({ name: 'Ada L.', preferredGenres: [], playlist: [], purchaseHistory: [] });
    expect(mergeUser(stored, incoming)).toMatchObject({
      name: 'Ada L.',
      preferredGenres: ['Jazz'],
      playlist: ['p1'],
      purchaseHistory: ['h1'],
    });
  });

  it('lets non-empty server lists replace stored ones, and other lists follow the server', () => {
    const stored = makeUser({ preferredGenres: ['Jazz'], likedsong: ['s1'] });
    const incoming = makeUser({ preferredGenres: ['Rock'], likedsong: [] });
    expect(mergeUser(stored, incoming)).toMatchObject({ preferredGenres: ['Rock'], likedsong: [] });
  });

  it('keeps extra server fields and fills missing lists', () => {
    const incoming = { ...makeUser(), plan: 'free' } as ReturnType<typeof makeUser> & { plan: string };
    delete (incoming as Partial<typeof incoming>).likedsong;
    const merged = mergeUser(null, incoming) as typeof incoming;
    expect(merged.plan).toBe('free');
    expect(merged.likedsong).toEqual([]);
  });

  it('does not carry one account’s lists into another account', () => {
    const stored = makeUser({ _id: 'other', preferredGenres: ['Jazz'] });
    expect(mergeUser(stored, makeUser()).preferredGenres).toEqual([]);
  });

  it('applies on profile fetch', () => {
    const state = signedIn(makeUser({ preferredGenres: ['Jazz'] }));
    const next = authReducer(state, fetchProfile.fulfilled(makeUser({ preferredGenres: [] }), 'r'));
    expect(next.user?.preferredGenres).toEqual(['Jazz']);
    expect(next).toMatchObject({ status: 'succeeded', isAuthenticated: true });
  });
});

describe('pending and fulfilled', () => {
  it('pending sets loading and clears the error', () => {
    const state = { ...createInitialAuthState(null), status: 'failed' as const, error: 'Boom' };
    const next = authReducer(state, login.pending('r', { email: 'a@b.c', password: 'x' }));
    expect(next).toMatchObject({ status: 'loading', error: null });
  });

  it.each([
    [
      'register',
      register.fulfilled({ user: makeUser(), message: 'Registered successfully' }, 'r', {
        name: 'A',
        email: 'a@b.c',
        password: 'password1',
      }),
    ],
    [
      'login',
      login.fulfilled({ user: makeUser(), message: 'Logged in successfully' }, 'r', {
        email: 'a@b.c',
        password: 'x',
      }),
    ],
    [
      'social login',
      socialLoginSuccess.fulfilled(
        { user: makeUser(), isNewUser: true, message: 'Social login successful!' },
        'r',
        true,
      ),
    ],
  ])('%s success signs in with the message', (_name, action) => {
    const next = authReducer(createInitialAuthState(null), action);
    expect(next).toMatchObject({ status: 'succeeded', isAuthenticated: true, user: makeUser() });
    expect(next.message).toBe(action.payload.message);
  });

  it('logout success clears the user', () => {
    const next = authReducer(signedIn(), logout.fulfilled('Logged out successfully', 'r'));
    expect(next).toMatchObject({ user: null, isAuthenticated: false, message: 'Logged out successfully' });
  });

  it('genre update stores the new genres but never wipes them with an empty list', () => {
    const state = signedIn(makeUser({ preferredGenres: ['Jazz'] }));
    const updated = authReducer(
      state,
      updateGenres.fulfilled({ preferredGenres: ['Rock', 'Pop'], message: 'Preferred genres updated' }, 'r', [
        'Rock',
        'Pop',
      ]),
    );
    expect(updated.user?.preferredGenres).toEqual(['Rock', 'Pop']);
    const emptied = authReducer(
      updated,
      updateGenres.fulfilled({ preferredGenres: [], message: 'x' }, 'r', []),
    );
    expect(emptied.user?.preferredGenres).toEqual(['Rock', 'Pop']);
  });
});

describe('rejections', () => {
  it('set failed with the error text', () => {
    const next = authReducer(
      createInitialAuthState(null),
      login.rejected(null, 'r', { email: 'a@b.c', password: 'x' }, 'Invalid email or password'),
    );
    expect(next).toMatchObject({ status: 'failed', error: 'Invalid email or password' });
  });

  it('default to "Something went wrong" without any text', () => {
    const action = logout.rejected(null, 'r', undefined);
    const bare = { ...action, error: {} };
    expect(authReducer(signedIn(), bare)).toMatchObject({ status: 'failed', error: 'Something went wrong' });
  });

  it('use the thrown error message when there is no payload', () => {
    const next = authReducer(signedIn(), toggleLikedSong.rejected(new Error('Network down'), 'r', 's1'));
    expect(next.error).toBe('Network down');
  });

  it('profile-fetch failure clears the user', () => {
    const next = authReducer(
      signedIn(),
      fetchProfile.rejected(null, 'r', undefined, 'Authentication failed'),
    );
    expect(next).toMatchObject({ user: null, isAuthenticated: false, status: 'failed' });
  });

  it('social login failure clears the user', () => {
    const next = authReducer(
      signedIn(),
      socialLoginSuccess.rejected(null, 'r', false, 'Social login failed'),
    );
    expect(next).toMatchObject({ user: null, isAuthenticated: false, error: 'Social login failed' });
  });

  it('other failures keep the user signed in', () => {
    const next = authReducer(
      signedIn(),
      updateGenres.rejected(null, 'r', ['Rock'], 'Choose at least one genre'),
    );
    expect(next.user).not.toBeNull();
    expect(next.isAuthenticated).toBe(true);
  });
});

describe('likes', () => {
  it('toggles the song id in likedsong and keeps the server message', () => {
    const liked = authReducer(
      signedIn(),
      toggleLikedSong.fulfilled({ songId: 's1', liked: true, message: 'Song liked' }, 'r', 's1'),
    );
    expect(liked.user?.likedsong).toEqual(['s1']);
    expect(liked.message).toBe('Song liked');
    const unliked = authReducer(
      liked,
      toggleLikedSong.fulfilled({ songId: 's1', liked: false, message: 'Song unliked' }, 'r', 's1'),
    );
    expect(unliked.user?.likedsong).toEqual([]);
  });

  it('toggles locally when the server does not say which way', () => {
    const state = signedIn(makeUser({ likedsong: ['s1', 's2'] }));
    const next = authReducer(state, toggleLikedSong.fulfilled({ songId: 's1', message: 'ok' }, 'r', 's1'));
    expect(next.user?.likedsong).toEqual(['s2']);
  });

  it('never duplicates a liked id', () => {
    const state = signedIn(makeUser({ likedsong: ['s1'] }));
    const next = authReducer(
      state,
      toggleLikedSong.fulfilled({ songId: 's1', liked: true, message: 'ok' }, 'r', 's1'),
    );
    expect(next.user?.likedsong).toEqual(['s1']);
  });
});

describe('local purchase actions', () => {
  it('add a purchased song or album once', () => {
    let state = signedIn();
    state = authReducer(state, addPurchasedSong('s1'));
    state = authReducer(state, addPurchasedSong('s1'));
    state = authReducer(state, addPurchasedAlbum('a1'));
    state = authReducer(state, addPurchasedAlbum('a1'));
    expect(state.user?.purchasedSongs).toEqual(['s1']);
    expect(state.user?.purchasedAlbums).toEqual(['a1']);
  });

  it('are ignored without a user', () => {
    expect(authReducer(createInitialAuthState(null), addPurchasedSong('s1')).user).toBeNull();
  });
});

describe('sessionEnded', () => {
  it('returns to the signed-out initial state', () => {
    expect(authReducer(signedIn(), sessionEnded())).toEqual(createInitialAuthState(null));
  });
});
