import { createSlice, isAnyOf, isFulfilled, isPending, isRejected } from '@reduxjs/toolkit';
import type { Song } from '@backbeat/contract';
import { createTransform } from 'redux-persist';
import { backbeatApi } from '../../lib/api-query';
import { mergeById } from '../../lib/merge-by-id';
import { sessionEnded } from '../auth';
import { login, logout, register, socialLoginSuccess, toggleLikedSong } from '../auth';
import {
  createSong,
  deleteSong,
  fetchLikedSongs,
  fetchMatchingGenreSongs,
  fetchSongs,
  fetchSongsByArtist,
  fetchSongsByGenre,
  SONG_MESSAGES,
  SONG_PAGE_SIZE,
  updateSong,
} from './songs.thunks';

export type SongsStatus = 'idle' | 'loading' | 'succeeded' | 'failed';

/** SPEC section 3 pagination: defaults page 1, totalPages 1, total 0. */
export interface SongsPagination {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
}

/** Liked list and artist songs: songs, total, page, pages. */
export interface PagedSongs {
  songs: Song[];
  total: number;
  page: number;
  pages: number;
}

export interface MatchingGenreSongs {
  songs: Song[];
  matchingGenres: string[];
  pagination: SongsPagination;
}

export interface GenreSongs {
  /** The lowercased genre the list belongs to ('' before the first fetch). */
  genre: string;
  songs: Song[];
  total: number;
  /** The last page loaded into `songs`. */
  page: number;
  pages: number;
}

export interface CachedSongsPage {
  songs: Song[];
  pagination: SongsPagination;
  fetchedAt: number;
}

export interface CachedMatchingGenrePage extends MatchingGenreSongs {
  fetchedAt: number;
}

export interface CachedGenreSongs extends GenreSongs {
  fetchedAt: number;
}

/** Which list a request fills; each list has its own request status so pages can show their own state. */
export type SongListKey = 'library' | 'liked' | 'matchingGenre' | 'artist' | 'genre' | 'mutation';

export interface SongRequestState {
  status: SongsStatus;
  error: string | null;
  /** The latest request for this list; an older answer never overrides a newer request's state. */
  requestId: string | null;
}

export interface SongsState {
  /** The library (GET /songs): page 1 replaces it, later pages are merged in ('load more'). */
  allSongs: Song[];
  status: SongsStatus;
  error: string | null;
  /** The last create/update/delete success text. */
  message: string | null;
  pagination: SongsPagination;
  likedSongs: PagedSongs;
  matchingGenreSongs: MatchingGenreSongs;
  songsByArtist: Record<string, PagedSongs>;
  /** Library pages held in `cachedData`. */
  cachedPages: number[];
  cachedData: Record<number, CachedSongsPage>;
  matchingGenreCache: Record<number, CachedMatchingGenrePage>;
  genreSongs: GenreSongs;
  /** Per lowercased genre. */
  genreCache: Record<string, CachedGenreSongs>;
  lastFetchTime: number | null;
  matchingGenreLastFetchTime: number | null;
  requests: Record<SongListKey, SongRequestState>;
}

const idleRequest = (): SongRequestState => ({ status: 'idle', error: null, requestId: null });

export function createInitialSongsState(): SongsState {
  return {
    allSongs: [],
    status: 'idle',
    error: null,
    message: null,
    pagination: { page: 1, limit: SONG_PAGE_SIZE.songs, total: 0, totalPages: 1 },
    likedSongs: { songs: [], total: 0, page: 1, pages: 1 },
    matchingGenreSongs: {
      songs: [],
      matchingGenres: [],
      pagination: { page: 1, limit: SONG_PAGE_SIZE.matchingGenre, total: 0, totalPages: 1 },
    },
    songsByArtist: {},
    cachedPages: [],
    cachedData: {},
    matchingGenreCache: {},
    genreSongs: { genre: '', songs: [], total: 0, page: 1, pages: 1 },
    genreCache: {},
    lastFetchTime: null,
    matchingGenreLastFetchTime: null,
    requests: {
      library: idleRequest(),
      liked: idleRequest(),
      matchingGenre: idleRequest(),
      artist: idleRequest(),
      genre: idleRequest(),
      mutation: idleRequest(),
    },
  };
}

/** Later pages merge without duplicate ids (the first copy wins its place, the newer copy its content). */
export function mergeSongs(current: Song[], incoming: Song[]): Song[] {
  return mergeById(current, incoming);
}

/** A first page replaces the list; any later page merges into it. */
export function applyPage(current: Song[], incoming: Song[], page: number): Song[] {
  return page <= 1 ? mergeSongs([], incoming) : mergeSongs(current, incoming);
}

function emptyCaches(state: SongsState): void {
  state.cachedPages = [];
  state.cachedData = {};
  state.lastFetchTime = null;
  state.matchingGenreCache = {};
  state.matchingGenreLastFetchTime = null;
  state.genreCache = {};
}

/** Every list the slice holds, so a changed or deleted song is fixed wherever it shows. */
function eachList(state: SongsState, edit: (songs: Song[]) => Song[]): void {
  state.allSongs = edit(state.allSongs);
  state.likedSongs.songs = edit(state.likedSongs.songs);
  state.matchingGenreSongs.songs = edit(state.matchingGenreSongs.songs);
  state.genreSongs.songs = edit(state.genreSongs.songs);
  for (const artistSongs of Object.values(state.songsByArtist)) artistSongs.songs = edit(artistSongs.songs);
}

function findLoadedSong(state: SongsState, id: string): Song | undefined {
  const lists = [
    state.allSongs,
    state.matchingGenreSongs.songs,
    state.genreSongs.songs,
    ...Object.values(state.songsByArtist).map((entry) => entry.songs),
    ...Object.values(state.cachedData).map((entry) => entry.songs),
  ];
  for (const list of lists) {
    const song = list.find((candidate) => candidate._id === id);
    if (song) return song;
  }
  return undefined;
}

const pagesFor = (total: number, limit: number): number => Math.max(1, Math.ceil(total / limit));

const listOf: Array<[SongListKey, string]> = [
  ['library', fetchSongs.typePrefix],
  ['liked', fetchLikedSongs.typePrefix],
  ['matchingGenre', fetchMatchingGenreSongs.typePrefix],
  ['artist', fetchSongsByArtist.typePrefix],
  ['genre', fetchSongsByGenre.typePrefix],
  ['mutation', createSong.typePrefix],
  ['mutation', updateSong.typePrefix],
  ['mutation', deleteSong.typePrefix],
];

const songThunks = [
  fetchSongs,
  fetchLikedSongs,
  fetchMatchingGenreSongs,
  fetchSongsByArtist,
  fetchSongsByGenre,
  createSong,
  updateSong,
  deleteSong,
] as const;

function listKey(type: string): SongListKey | undefined {
  return listOf.find(([, prefix]) => type.startsWith(`${prefix}/`))?.[0];
}

/** Whether an answer belongs to the newest request of its list (a genre or page switched meanwhile). */
function isLatest(state: SongsState, key: SongListKey, requestId: string): boolean {
  const latest = state.requests[key].requestId;
  return latest === null || latest === requestId;
}

const songsSlice = createSlice({
  name: 'songs',
  initialState: createInitialSongsState,
  reducers: {
    /** Empties every song cache (paged, matching-genre, genre); shown lists stay until refetched. */
    clearSongCaches(state) {
      emptyCaches(state);
    },
    clearSongsFeedback(state) {
      state.error = null;
      state.message = null;
    },
    resetSongs() {
      return createInitialSongsState();
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(fetchSongs.fulfilled, (state, { payload }) => {
        const pagination = {
          page: payload.page,
          limit: SONG_PAGE_SIZE.songs,
          total: payload.total,
          totalPages: payload.totalPages,
        };
        state.allSongs = applyPage(state.allSongs, payload.songs, payload.page);
        state.pagination = pagination;
        if (!payload.fromCache) {
          state.cachedData[payload.page] = { songs: payload.songs, pagination, fetchedAt: payload.fetchedAt };
          if (!state.cachedPages.includes(payload.page)) state.cachedPages.push(payload.page);
          state.lastFetchTime = payload.fetchedAt;
        }
      })
      .addCase(fetchLikedSongs.fulfilled, (state, { payload }) => {
        state.likedSongs = {
          songs: applyPage(state.likedSongs.songs, payload.songs, payload.page),
          total: payload.total,
          page: payload.page,
          pages: payload.pages,
        };
      })
      .addCase(fetchMatchingGenreSongs.fulfilled, (state, { payload, meta }) => {
        const pagination = {
          page: payload.page,
          limit: SONG_PAGE_SIZE.matchingGenre,
          total: payload.total,
          totalPages: payload.pages,
        };
        if (isLatest(state, 'matchingGenre', meta.requestId)) {
          state.matchingGenreSongs = {
            songs: payload.songs,
            matchingGenres: payload.matchingGenres,
            pagination,
          };
        }
        if (!payload.fromCache) {
          state.matchingGenreCache[payload.page] = {
            songs: payload.songs,
            matchingGenres: payload.matchingGenres,
            pagination,
            fetchedAt: payload.fetchedAt,
          };
          state.matchingGenreLastFetchTime = payload.fetchedAt;
        }
      })
      .addCase(fetchSongsByArtist.fulfilled, (state, { payload }) => {
        const current = state.songsByArtist[payload.artistId]?.songs ?? [];
        state.songsByArtist[payload.artistId] = {
          songs: applyPage(current, payload.songs, payload.page),
          total: payload.total,
          page: payload.page,
          pages: payload.pages,
        };
      })
      .addCase(fetchSongsByGenre.fulfilled, (state, { payload, meta }) => {
        if (!isLatest(state, 'genre', meta.requestId)) {
          // A genre the visitor already left: keep it for later, show nothing of it.
          if (!payload.fromCache && !payload.append) {
            const { append: _append, fromCache: _fromCache, ...entry } = payload;
            state.genreCache[payload.genre] = { ...entry, songs: mergeSongs([], payload.songs) };
          }
          return;
        }
        if (payload.fromCache) {
          const { fetchedAt: _fetchedAt, ...cached } = state.genreCache[payload.genre] ?? {
            ...state.genreSongs,
            fetchedAt: 0,
          };
          state.genreSongs = cached;
          return;
        }
        const sameGenre = state.genreSongs.genre === payload.genre;
        const songs =
          payload.append && sameGenre
            ? applyPage(state.genreSongs.songs, payload.songs, payload.page)
            : mergeSongs([], payload.songs);
        state.genreSongs = {
          genre: payload.genre,
          songs,
          total: payload.total,
          page: payload.page,
          pages: payload.pages,
        };
        state.genreCache[payload.genre] = { ...state.genreSongs, fetchedAt: payload.fetchedAt };
      })
      .addCase(createSong.fulfilled, (state, { payload }) => {
        state.message = payload.message;
        emptyCaches(state);
      })
      .addCase(updateSong.fulfilled, (state, { payload }) => {
        state.message = payload.message;
        emptyCaches(state);
        const updated = payload.song;
        if (updated)
          eachList(state, (songs) => songs.map((song) => (song._id === updated._id ? updated : song)));
      })
      .addCase(deleteSong.fulfilled, (state, { payload }) => {
        state.message = payload.message;
        emptyCaches(state);
        const before = state.likedSongs.songs.length;
        eachList(state, (songs) => songs.filter((song) => song._id !== payload.id));
        if (state.likedSongs.songs.length < before) {
          state.likedSongs.total = Math.max(0, state.likedSongs.total - 1);
        }
      })
      .addCase(toggleLikedSong.fulfilled, (state, { payload }) => {
        const liked = state.likedSongs;
        const shown = liked.songs.some((song) => song._id === payload.songId);
        const nowLiked = payload.liked ?? !shown;
        if (nowLiked && !shown) {
          const song = findLoadedSong(state, payload.songId);
          liked.total += 1;
          if (song) liked.songs.unshift(song);
        } else if (!nowLiked && shown) {
          liked.songs = liked.songs.filter((song) => song._id !== payload.songId);
          liked.total = Math.max(0, liked.total - 1);
        } else {
          return;
        }
        liked.pages = pagesFor(liked.total, SONG_PAGE_SIZE.liked);
      })
      // Writes made elsewhere (the studio) announce themselves by invalidating the 'Songs' tag.
      .addMatcher(backbeatApi.util.invalidateTags.match, (state, action) => {
        const tags = action.payload ?? [];
        if (tags.some((tag) => (typeof tag === 'string' ? tag : tag?.type) === 'Songs')) emptyCaches(state);
      })
      // One user's lists never show to the next.
      .addMatcher(
        isAnyOf(
          logout.fulfilled,
          sessionEnded,
          login.fulfilled,
          register.fulfilled,
          socialLoginSuccess.fulfilled,
        ),
        () => createInitialSongsState(),
      )
      .addMatcher(isPending(...songThunks), (state, action) => {
        state.status = 'loading';
        state.error = null;
        const key = listKey(action.type);
        if (key) state.requests[key] = { status: 'loading', error: null, requestId: action.meta.requestId };
      })
      .addMatcher(isRejected(...songThunks), (state, action) => {
        const error = action.payload ?? SONG_MESSAGES.fallback;
        state.status = 'failed';
        state.error = error;
        const key = listKey(action.type);
        if (key && isLatest(state, key, action.meta.requestId)) {
          state.requests[key] = { status: 'failed', error, requestId: action.meta.requestId };
        }
      })
      .addMatcher(isFulfilled(...songThunks), (state, action) => {
        state.status = 'succeeded';
        const key = listKey(action.type);
        if (key && isLatest(state, key, action.meta.requestId)) {
          state.requests[key] = { status: 'succeeded', error: null, requestId: action.meta.requestId };
        }
      });
  },
});

export const { clearSongCaches, clearSongsFeedback, resetSongs } = songsSlice.actions;
export const songsReducer = songsSlice.reducer;

/**
 * Persistence (SPEC section 4: the root keeps songs and auth): the lists and caches survive a reload, request
 * status and old messages start fresh.
 */
export const songsPersistTransform = createTransform<SongsState, SongsState>(
  (state) => state,
  (state) => ({
    ...createInitialSongsState(),
    ...state,
    status: 'idle',
    error: null,
    message: null,
    requests: createInitialSongsState().requests,
  }),
  { whitelist: ['songs'] },
);
