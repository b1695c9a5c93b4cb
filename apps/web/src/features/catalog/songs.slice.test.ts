import { configureStore } from '@reduxjs/toolkit';
import type { Song } from '@backbeat/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionEnded } from '../auth/auth.slice';
import { login, logout, toggleLikedSong } from '../auth/auth.thunks';
import { makeUser } from '../auth/auth.test-fixtures';
import { backbeatApi } from '../../lib/api-query';
import {
  clearSongCaches,
  createInitialSongsState,
  mergeSongs,
  songsPersistTransform,
  songsReducer,
} from './songs.slice';
import {
  createSong,
  deleteSong,
  fetchLikedSongs,
  fetchMatchingGenreSongs,
  fetchSongs,
  fetchSongsByArtist,
  fetchSongsByGenre,
  SONG_CACHE_TTL_MS,
  updateSong,
} from './songs.thunks';

function makeSong(id: string, overrides: Partial<Song> = {}): Song {
  return {
    _id: id,
    title: `Song ${id}`,
    singer: 'Nova Reyes',
    coverImage: null,
    audioUrl: null,
    duration: 180,
    accessType: 'subscription',
    freeToStream: false,
    price: 0,
    currency: 'USD',
    genre: 'Electronic',
    artist: { _id: 'artist-1', name: 'Nova Reyes' },
    album: null,
    status: 'ready',
    canPlay: true,
    previewStartSec: null,
    canDownload: false,
    createdAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

const songs = (...ids: string[]) => ids.map((id) => makeSong(id));
const ids = (list: Song[]) => list.map((song) => song._id);

function jsonResponse(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

const makeStore = () => configureStore({ reducer: { songs: songsReducer } });
type TestStore = ReturnType<typeof makeStore>;

const form = { email: 'ada@example.com', password: 'password1' };
const START = new Date('2025-06-01T12:00:00.000Z');

describe('songs slice', () => {
  const fetchMock = vi.fn<typeof fetch>();
  const urls = () => fetchMock.mock.calls.map(([url]) => String(url));

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(START);
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('starts with the SPEC defaults', () => {
    const state = makeStore().getState().songs;
    expect(state).toMatchObject({
      allSongs: [],
      status: 'idle',
      error: null,
      pagination: { page: 1, total: 0, totalPages: 1 },
      likedSongs: { songs: [], total: 0, page: 1, pages: 1 },
      matchingGenreSongs: { songs: [], matchingGenres: [] },
      songsByArtist: {},
      cachedPages: [],
      cachedData: {},
      genreSongs: { songs: [], total: 0, pages: 1 },
      lastFetchTime: null,
      matchingGenreLastFetchTime: null,
    });
  });

  describe('library pages (GET /songs, limit 10)', () => {
    it('caches each page and serves a fresh page without a request', async () => {
      fetchMock
        .mockResolvedValueOnce(
          jsonResponse(200, { songs: songs('a', 'b'), total: 12, totalPages: 2, page: 1 }),
        )
        .mockResolvedValueOnce(jsonResponse(200, { songs: songs('c'), total: 12, totalPages: 2, page: 2 }));
      const store = makeStore();
      await store.dispatch(fetchSongs(1));
      await store.dispatch(fetchSongs(2));
      expect(urls()).toEqual(['/api/songs?page=1&limit=10', '/api/songs?page=2&limit=10']);
      let state = store.getState().songs;
      expect(state.cachedPages).toEqual([1, 2]);
      expect(ids(state.cachedData[1]!.songs)).toEqual(['a', 'b']);
      expect(ids(state.cachedData[2]!.songs)).toEqual(['c']);
      expect(ids(state.allSongs)).toEqual(['a', 'b', 'c']);
      expect(state.pagination).toEqual({ page: 2, limit: 10, total: 12, totalPages: 2 });
      expect(state.lastFetchTime).toBe(START.getTime());

      vi.setSystemTime(START.getTime() + SONG_CACHE_TTL_MS - 1);
      await store.dispatch(fetchSongs(1));
      expect(fetchMock).toHaveBeenCalledTimes(2);
      state = store.getState().songs;
      // The cached first page replaces the shown list again.
      expect(ids(state.allSongs)).toEqual(['a', 'b']);
      expect(state.status).toBe('succeeded');
    });

    it('refetches a page once it is older than 5 minutes', async () => {
      fetchMock
        .mockResolvedValueOnce(jsonResponse(200, { songs: songs('a'), total: 1, totalPages: 1, page: 1 }))
        .mockResolvedValueOnce(
          jsonResponse(200, { songs: songs('a', 'new'), total: 2, totalPages: 1, page: 1 }),
        );
      const store = makeStore();
      await store.dispatch(fetchSongs(1));
      vi.setSystemTime(START.getTime() + SONG_CACHE_TTL_MS);
      await store.dispatch(fetchSongs(1));
      expect(fetchMock).toHaveBeenCalledTimes(2);
      expect(ids(store.getState().songs.allSongs)).toEqual(['a', 'new']);
      expect(store.getState().songs.lastFetchTime).toBe(START.getTime() + SONG_CACHE_TTL_MS);
    });

    it('treats a missing or invalid page as the first page', async () => {
      fetchMock.mockResolvedValue(jsonResponse(200, { songs: [], total: 0, totalPages: 0, page: 1 }));
      const store = makeStore();
      await store.dispatch(fetchSongs(undefined));
      await store.dispatch(fetchSongs(-3));
      expect(urls()[0]).toBe('/api/songs?page=1&limit=10');
      expect(store.getState().songs.pagination).toEqual({ page: 1, limit: 10, total: 0, totalPages: 1 });
    });
  });

  describe('merging pages', () => {
    it('merges later liked pages without duplicate ids and a first page replaces the list', async () => {
      fetchMock
        .mockResolvedValueOnce(jsonResponse(200, { songs: songs('a', 'b'), total: 3, page: 1, pages: 2 }))
        .mockResolvedValueOnce(jsonResponse(200, { songs: songs('b', 'c'), total: 3, page: 2, pages: 2 }))
        .mockResolvedValueOnce(jsonResponse(200, { songs: songs('z'), total: 1, page: 1, pages: 1 }));
      const store = makeStore();
      await store.dispatch(fetchLikedSongs(1));
      await store.dispatch(fetchLikedSongs(2));
      expect(urls()[1]).toBe('/api/songs/liked?page=2&limit=20');
      expect(store.getState().songs.likedSongs).toMatchObject({ total: 3, page: 2, pages: 2 });
      expect(ids(store.getState().songs.likedSongs.songs)).toEqual(['a', 'b', 'c']);
      await store.dispatch(fetchLikedSongs(1));
      expect(ids(store.getState().songs.likedSongs.songs)).toEqual(['z']);
    });

    it('keeps artist songs per artist id and merges their later pages', async () => {
      fetchMock
        .mockResolvedValueOnce(jsonResponse(200, { songs: songs('a', 'b'), total: 3, page: 1, pages: 2 }))
        .mockResolvedValueOnce(jsonResponse(200, { songs: songs('x'), total: 1, page: 1, pages: 1 }))
        .mockResolvedValueOnce(jsonResponse(200, { songs: songs('b', 'c'), total: 3, page: 2, pages: 2 }));
      const store = makeStore();
      await store.dispatch(fetchSongsByArtist({ artistId: 'art-1', page: 1 }));
      await store.dispatch(fetchSongsByArtist({ artistId: 'art-2', page: 1 }));
      await store.dispatch(fetchSongsByArtist({ artistId: 'art-1', page: 2 }));
      expect(urls()).toEqual([
        '/api/songs/artist/art-1?page=1&limit=20',
        '/api/songs/artist/art-2?page=1&limit=20',
        '/api/songs/artist/art-1?page=2&limit=20',
      ]);
      const { songsByArtist } = store.getState().songs;
      expect(ids(songsByArtist['art-1']!.songs)).toEqual(['a', 'b', 'c']);
      expect(songsByArtist['art-1']).toMatchObject({ total: 3, page: 2, pages: 2 });
      expect(ids(songsByArtist['art-2']!.songs)).toEqual(['x']);
    });

    it('merges genre pages only when appending', async () => {
      fetchMock
        .mockResolvedValueOnce(jsonResponse(200, { songs: songs('a', 'b'), total: 4, page: 1, pages: 2 }))
        .mockResolvedValueOnce(jsonResponse(200, { songs: songs('b', 'c'), total: 4, page: 2, pages: 2 }))
        .mockResolvedValueOnce(jsonResponse(200, { songs: songs('d'), total: 4, page: 2, pages: 2 }));
      const store = makeStore();
      await store.dispatch(fetchSongsByGenre({ genre: 'Jazz', page: 1 }));
      await store.dispatch(fetchSongsByGenre({ genre: 'Jazz', page: 2, append: true }));
      expect(ids(store.getState().songs.genreSongs.songs)).toEqual(['a', 'b', 'c']);
      // Without append, page 2 of another genre is shown on its own.
      await store.dispatch(fetchSongsByGenre({ genre: 'Lo-Fi', page: 2 }));
      expect(ids(store.getState().songs.genreSongs.songs)).toEqual(['d']);
    });

    it('mergeSongs keeps order, drops duplicates and takes the newer copy', () => {
      const merged = mergeSongs(songs('a', 'b'), [makeSong('b', { title: 'New b' }), makeSong('c')]);
      expect(ids(merged)).toEqual(['a', 'b', 'c']);
      expect(merged[1]!.title).toBe('New b');
    });
  });

  describe('genre cache', () => {
    it('caches per lowercased genre and serves a fresh cache without a request', async () => {
      fetchMock
        .mockResolvedValueOnce(jsonResponse(200, { songs: songs('j1'), total: 1, page: 1, pages: 1 }))
        .mockResolvedValueOnce(jsonResponse(200, { songs: songs('e1'), total: 1, page: 1, pages: 1 }));
      const store = makeStore();
      await store.dispatch(fetchSongsByGenre({ genre: 'Jazz', page: 1 }));
      await store.dispatch(fetchSongsByGenre({ genre: 'Electronic', page: 1 }));
      expect(Object.keys(store.getState().songs.genreCache).sort()).toEqual(['electronic', 'jazz']);
      await store.dispatch(fetchSongsByGenre({ genre: 'JAZZ', page: 1 }));
      expect(fetchMock).toHaveBeenCalledTimes(2);
      expect(store.getState().songs.genreSongs).toMatchObject({ genre: 'jazz', total: 1, pages: 1 });
      expect(ids(store.getState().songs.genreSongs.songs)).toEqual(['j1']);
    });

    it('refetches a stale genre', async () => {
      fetchMock
        .mockResolvedValueOnce(jsonResponse(200, { songs: songs('j1'), total: 1, page: 1, pages: 1 }))
        .mockResolvedValueOnce(jsonResponse(200, { songs: songs('j2'), total: 1, page: 1, pages: 1 }));
      const store = makeStore();
      await store.dispatch(fetchSongsByGenre({ genre: 'jazz', page: 1 }));
      vi.setSystemTime(START.getTime() + SONG_CACHE_TTL_MS + 1);
      await store.dispatch(fetchSongsByGenre({ genre: 'Jazz', page: 1 }));
      expect(urls()).toEqual([
        '/api/songs/genre/jazz?page=1&limit=20',
        '/api/songs/genre/Jazz?page=1&limit=20',
      ]);
      expect(ids(store.getState().songs.genreSongs.songs)).toEqual(['j2']);
    });
    it('an answer for a genre the visitor already left is cached but not shown', async () => {
      let answerJazz: (response: Response) => void = () => undefined;
      fetchMock
        .mockImplementationOnce(() => new Promise<Response>((resolve) => (answerJazz = resolve)))
        .mockResolvedValueOnce(jsonResponse(200, { songs: songs('l1'), total: 1, page: 1, pages: 1 }));
      const store = makeStore();
      const jazz = store.dispatch(fetchSongsByGenre({ genre: 'Jazz', page: 1 }));
      await store.dispatch(fetchSongsByGenre({ genre: 'Lo-Fi', page: 1 }));
      answerJazz(jsonResponse(200, { songs: songs('j1'), total: 1, page: 1, pages: 1 }));
      await jazz;
      const state = store.getState().songs;
      expect(state.genreSongs.genre).toBe('lo-fi');
      expect(ids(state.genreSongs.songs)).toEqual(['l1']);
      expect(ids(state.genreCache.jazz!.songs)).toEqual(['j1']);
      expect(state.requests.genre.status).toBe('succeeded');
    });
  });

  describe('matching-genre songs', () => {
    it('stores songs, matched genres and pagination with its own freshness stamp', async () => {
      fetchMock
        .mockResolvedValueOnce(
          jsonResponse(200, { songs: songs('m1'), matchingGenres: ['Jazz'], total: 21, page: 1, pages: 2 }),
        )
        .mockResolvedValueOnce(
          jsonResponse(200, { songs: songs('m2'), matchingGenres: ['Jazz'], total: 21, page: 1, pages: 2 }),
        );
      const store = makeStore();
      await store.dispatch(fetchMatchingGenreSongs(1));
      expect(urls()).toEqual(['/api/songs/matching-genre?page=1&limit=20']);
      let state = store.getState().songs;
      expect(state.matchingGenreSongs).toEqual({
        songs: songs('m1'),
        matchingGenres: ['Jazz'],
        pagination: { page: 1, limit: 20, total: 21, totalPages: 2 },
      });
      expect(state.matchingGenreLastFetchTime).toBe(START.getTime());
      expect(state.lastFetchTime).toBeNull();

      vi.setSystemTime(START.getTime() + 60_000);
      await store.dispatch(fetchMatchingGenreSongs(1));
      expect(fetchMock).toHaveBeenCalledTimes(1);

      vi.setSystemTime(START.getTime() + SONG_CACHE_TTL_MS);
      await store.dispatch(fetchMatchingGenreSongs(1));
      expect(fetchMock).toHaveBeenCalledTimes(2);
      state = store.getState().songs;
      expect(ids(state.matchingGenreSongs.songs)).toEqual(['m2']);
    });
  });

  describe('create, update and delete', () => {
    async function storeWithCaches() {
      fetchMock
        .mockResolvedValueOnce(
          jsonResponse(200, { songs: songs('a', 'b'), total: 2, totalPages: 1, page: 1 }),
        )
        .mockResolvedValueOnce(
          jsonResponse(200, { songs: songs('a'), matchingGenres: ['Jazz'], total: 1, page: 1, pages: 1 }),
        )
        .mockResolvedValueOnce(jsonResponse(200, { songs: songs('b'), total: 1, page: 1, pages: 1 }));
      const store = makeStore();
      await store.dispatch(fetchSongs(1));
      await store.dispatch(fetchMatchingGenreSongs(1));
      await store.dispatch(fetchSongsByGenre({ genre: 'Jazz', page: 1 }));
      fetchMock.mockReset();
      return store;
    }

    function expectCachesEmpty(store: ReturnType<typeof makeStore>) {
      const state = store.getState().songs;
      expect(state.cachedPages).toEqual([]);
      expect(state.cachedData).toEqual({});
      expect(state.matchingGenreCache).toEqual({});
      expect(state.genreCache).toEqual({});
      expect(state.lastFetchTime).toBeNull();
      expect(state.matchingGenreLastFetchTime).toBeNull();
    }

    it('create empties every cache so the next fetch asks the server', async () => {
      const store = await storeWithCaches();
      fetchMock
        .mockResolvedValueOnce(jsonResponse(201, { message: 'ok', song: makeSong('n') }))
        .mockResolvedValueOnce(
          jsonResponse(200, { songs: songs('n', 'a', 'b'), total: 3, totalPages: 1, page: 1 }),
        );
      const result = await store.dispatch(createSong(new FormData()));
      expect(result.payload).toMatchObject({ message: 'Song created successfully' });
      expect(fetchMock.mock.calls[0]![1]).toMatchObject({ method: 'POST' });
      expectCachesEmpty(store);
      expect(store.getState().songs.message).toBe('Song created successfully');
      await store.dispatch(fetchSongs(1));
      expect(urls()).toEqual(['/api/songs', '/api/songs?page=1&limit=10']);
      expect(ids(store.getState().songs.allSongs)).toEqual(['n', 'a', 'b']);
    });

    it('update empties every cache and replaces the song where it shows', async () => {
      const store = await storeWithCaches();
      fetchMock.mockResolvedValueOnce(jsonResponse(200, { song: makeSong('a', { title: 'Renamed' }) }));
      const result = await store.dispatch(updateSong({ id: 'a', form: new FormData() }));
      expect(result.payload).toMatchObject({ message: 'Song updated successfully' });
      expect(urls()).toEqual(['/api/songs/a']);
      expectCachesEmpty(store);
      const state = store.getState().songs;
      expect(state.allSongs[0]!.title).toBe('Renamed');
      expect(state.matchingGenreSongs.songs[0]!.title).toBe('Renamed');
    });

    it('delete empties every cache and removes the song everywhere', async () => {
      const store = await storeWithCaches();
      fetchMock.mockResolvedValueOnce(jsonResponse(200, { message: 'deleted' }));
      const result = await store.dispatch(deleteSong('b'));
      expect(result.payload).toEqual({ id: 'b', message: 'Song deleted successfully' });
      expect(fetchMock.mock.calls[0]![1]).toMatchObject({ method: 'DELETE' });
      expectCachesEmpty(store);
      const state = store.getState().songs;
      expect(ids(state.allSongs)).toEqual(['a']);
      expect(state.genreSongs.songs).toEqual([]);
    });

    it("invalidating the 'Songs' tag (writes made elsewhere) empties the caches", async () => {
      const store = await storeWithCaches();
      store.dispatch(backbeatApi.util.invalidateTags(['Albums']));
      expect(store.getState().songs.cachedPages).toEqual([1]);
      store.dispatch(backbeatApi.util.invalidateTags(['Songs']));
      expectCachesEmpty(store);
    });

    it('clearSongCaches empties the caches but keeps the shown lists', async () => {
      const store = await storeWithCaches();
      store.dispatch(clearSongCaches());
      expectCachesEmpty(store);
      expect(ids(store.getState().songs.allSongs)).toEqual(['a', 'b']);
    });
  });

  describe('error fallbacks (server message first)', () => {
    const cases = [
      ['fetchSongs', (store: TestStore) => store.dispatch(fetchSongs(1)), 'Fetching songs failed'],
      [
        'fetchLikedSongs',
        (store: TestStore) => store.dispatch(fetchLikedSongs(1)),
        'Fetching liked songs failed',
      ],
      [
        'fetchMatchingGenreSongs',
        (store: TestStore) => store.dispatch(fetchMatchingGenreSongs(1)),
        'Fetching songs matching user genres failed',
      ],
      [
        'fetchSongsByArtist',
        (store: TestStore) => store.dispatch(fetchSongsByArtist({ artistId: 'x', page: 1 })),
        'Fetching songs by artist failed',
      ],
      [
        'fetchSongsByGenre',
        (store: TestStore) => store.dispatch(fetchSongsByGenre({ genre: 'Jazz' })),
        'Fetching songs by genre failed',
      ],
      ['createSong', (store: TestStore) => store.dispatch(createSong(new FormData())), 'Create song failed'],
      [
        'updateSong',
        (store: TestStore) => store.dispatch(updateSong({ id: 'x', form: new FormData() })),
        'Update song failed',
      ],
      ['deleteSong', (store: TestStore) => store.dispatch(deleteSong('x')), 'Delete song failed'],
    ] as const;

    it.each(cases)('%s falls back to its own text', async (_name, thunk, fallback) => {
      fetchMock.mockResolvedValueOnce(new Response('', { status: 500 }));
      const store = makeStore();
      await thunk(store);
      expect(store.getState().songs).toMatchObject({ status: 'failed', error: fallback });
    });

    it.each(cases)('%s shows the server message first', async (_name, thunk) => {
      fetchMock.mockResolvedValueOnce(jsonResponse(400, { message: 'Server says no', code: 'BAD' }));
      const store = makeStore();
      await thunk(store);
      expect(store.getState().songs.error).toBe('Server says no');
    });

    it("uses 'Something went wrong' for any other failure", () => {
      const state = songsReducer(createInitialSongsState(), {
        type: fetchSongs.rejected.type,
        error: { message: 'boom' },
        meta: { requestId: 'r', requestStatus: 'rejected', aborted: false, condition: false, arg: 1 },
      });
      expect(state.error).toBe('Something went wrong');
    });

    it('tracks the failing list separately', async () => {
      fetchMock.mockResolvedValueOnce(new Response('', { status: 500 }));
      const store = makeStore();
      await store.dispatch(fetchLikedSongs(1));
      expect(store.getState().songs.requests.liked).toMatchObject({
        status: 'failed',
        error: 'Fetching liked songs failed',
      });
      expect(store.getState().songs.requests.library.status).toBe('idle');
    });
  });

  describe('likes and sign-out', () => {
    async function storeWithLiked() {
      fetchMock
        .mockResolvedValueOnce(
          jsonResponse(200, { songs: songs('a', 'b'), total: 2, totalPages: 1, page: 1 }),
        )
        .mockResolvedValueOnce(jsonResponse(200, { songs: songs('b'), total: 1, page: 1, pages: 1 }));
      const store = makeStore();
      await store.dispatch(fetchSongs(1));
      await store.dispatch(fetchLikedSongs(1));
      return store;
    }

    it('liking a loaded song adds it to the liked list; unliking removes it', async () => {
      const store = await storeWithLiked();
      store.dispatch(
        toggleLikedSong.fulfilled({ songId: 'a', liked: true, message: 'Song liked' }, 'req', 'a'),
      );
      expect(ids(store.getState().songs.likedSongs.songs)).toEqual(['a', 'b']);
      expect(store.getState().songs.likedSongs.total).toBe(2);
      store.dispatch(
        toggleLikedSong.fulfilled({ songId: 'b', liked: false, message: 'Song unliked' }, 'req', 'b'),
      );
      expect(ids(store.getState().songs.likedSongs.songs)).toEqual(['a']);
      expect(store.getState().songs.likedSongs).toMatchObject({ total: 1, pages: 1 });
    });

    it('a like that does not change the list leaves it alone', async () => {
      const store = await storeWithLiked();
      store.dispatch(toggleLikedSong.fulfilled({ songId: 'b', liked: true, message: 'ok' }, 'req', 'b'));
      expect(store.getState().songs.likedSongs).toMatchObject({ total: 1 });
      expect(ids(store.getState().songs.likedSongs.songs)).toEqual(['b']);
    });

    it('logout resets the slice so the next user sees none of it', async () => {
      const store = await storeWithLiked();
      store.dispatch(logout.fulfilled('Logged out successfully', 'req'));
      expect(store.getState().songs).toEqual(createInitialSongsState());
    });

    it('signing in resets the slice so a previous account leaves nothing behind', async () => {
      const store = await storeWithLiked();
      store.dispatch(login.fulfilled({ user: makeUser(), message: 'Logged in successfully' }, 'req', form));
      expect(store.getState().songs).toEqual(createInitialSongsState());
    });

    it('a local session end resets the slice too', async () => {
      const store = await storeWithLiked();
      store.dispatch(sessionEnded());
      expect(store.getState().songs).toEqual(createInitialSongsState());
    });
  });

  it('persistence keeps lists and caches but restarts request status and messages', () => {
    const saved = {
      ...createInitialSongsState(),
      allSongs: songs('a'),
      status: 'loading' as const,
      error: 'old',
      message: 'Song created successfully',
    };
    const restored = songsPersistTransform.out(saved, 'songs', {}) as ReturnType<
      typeof createInitialSongsState
    >;
    expect(ids(restored.allSongs)).toEqual(['a']);
    expect(restored).toMatchObject({ status: 'idle', error: null, message: null });
  });
});
