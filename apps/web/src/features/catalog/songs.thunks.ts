import { createAsyncThunk } from '@reduxjs/toolkit';
import type {
  ArtistSongsResponse,
  MatchingGenreSongsResponse,
  PagedSongsResponse,
  Song,
  SongMutationResponse,
  SongsResponse,
} from '@backbeat/contract';
import { api, errorText } from '../../lib/api';
import type { SongsState } from './songs.slice';

/** Page sizes of SPEC section 9: 10 for the library, 20 for liked, matching-genre, artist and genre songs. */
export const SONG_PAGE_SIZE = { songs: 10, liked: 20, matchingGenre: 20, artist: 20, genre: 20 } as const;

/** SPEC section 9: song lists stay fresh for 5 minutes. */
export const SONG_CACHE_TTL_MS = 5 * 60 * 1000;

/** SPEC sections 4 and 8, word for word. */
export const SONG_MESSAGES = {
  created: 'Song created successfully',
  updated: 'Song updated successfully',
  deleted: 'Song deleted successfully',
  fetchFailed: 'Fetching songs failed',
  likedFailed: 'Fetching liked songs failed',
  matchingGenreFailed: 'Fetching songs matching user genres failed',
  artistFailed: 'Fetching songs by artist failed',
  genreFailed: 'Fetching songs by genre failed',
  createFailed: 'Create song failed',
  updateFailed: 'Update song failed',
  deleteFailed: 'Delete song failed',
  fallback: 'Something went wrong',
} as const;

type ThunkConfig = { rejectValue: string; state: { songs: SongsState } };

export function isFresh(fetchedAt: number | null | undefined, now: number): boolean {
  return typeof fetchedAt === 'number' && now - fetchedAt < SONG_CACHE_TTL_MS;
}

/** The cache key of a genre: genres are matched case-insensitively. */
export function genreKey(genre: string): string {
  return genre.trim().toLowerCase();
}

const firstPage = (page: number | undefined): number =>
  typeof page === 'number' && Number.isInteger(page) && page >= 1 ? page : 1;

const songList = (value: unknown): Song[] => (Array.isArray(value) ? (value as Song[]) : []);
const count = (value: unknown, fallback: number): number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;

export interface LibraryPagePayload {
  page: number;
  songs: Song[];
  total: number;
  totalPages: number;
  fetchedAt: number;
  fromCache: boolean;
}

/** GET /songs?page&limit=10. A page cached less than 5 minutes ago is served without a request. */
export const fetchSongs = createAsyncThunk<LibraryPagePayload, number | undefined, ThunkConfig>(
  'songs/fetchSongs',
  async (requested, { getState, rejectWithValue }) => {
    const page = firstPage(requested);
    const cached = getState().songs.cachedData[page];
    if (cached && isFresh(cached.fetchedAt, Date.now())) {
      return {
        page,
        songs: cached.songs,
        total: cached.pagination.total,
        totalPages: cached.pagination.totalPages,
        fetchedAt: cached.fetchedAt,
        fromCache: true,
      };
    }
    try {
      const answer = await api.get<SongsResponse>('/songs', {
        query: { page, limit: SONG_PAGE_SIZE.songs },
      });
      const songs = songList(answer?.songs);
      return {
        page,
        songs,
        total: count(answer?.total, songs.length),
        totalPages: Math.max(1, count(answer?.totalPages, 1)),
        fetchedAt: Date.now(),
        fromCache: false,
      };
    } catch (error) {
      return rejectWithValue(errorText(error, SONG_MESSAGES.fetchFailed));
    }
  },
);

export interface PagedSongsPayload {
  page: number;
  songs: Song[];
  total: number;
  pages: number;
}

function pagedPayload(answer: Partial<PagedSongsResponse> | null, page: number): PagedSongsPayload {
  const songs = songList(answer?.songs);
  return {
    page,
    songs,
    total: count(answer?.total, songs.length),
    pages: Math.max(1, count(answer?.pages, 1)),
  };
}

/** GET /songs/liked?page&limit=20. Never cached: the list changes with every like. */
export const fetchLikedSongs = createAsyncThunk<PagedSongsPayload, number | undefined, ThunkConfig>(
  'songs/fetchLikedSongs',
  async (requested, { rejectWithValue }) => {
    const page = firstPage(requested);
    try {
      const answer = await api.get<PagedSongsResponse>('/songs/liked', {
        query: { page, limit: SONG_PAGE_SIZE.liked },
      });
      return pagedPayload(answer, page);
    } catch (error) {
      return rejectWithValue(errorText(error, SONG_MESSAGES.likedFailed));
    }
  },
);

export interface MatchingGenrePayload extends PagedSongsPayload {
  matchingGenres: string[];
  fetchedAt: number;
  fromCache: boolean;
}

/** GET /songs/matching-genre?page&limit=20, cached per page with its own freshness stamp. */
export const fetchMatchingGenreSongs = createAsyncThunk<
  MatchingGenrePayload,
  number | undefined,
  ThunkConfig
>('songs/fetchMatchingGenreSongs', async (requested, { getState, rejectWithValue }) => {
  const page = firstPage(requested);
  const cached = getState().songs.matchingGenreCache[page];
  if (cached && isFresh(cached.fetchedAt, Date.now())) {
    return {
      page,
      songs: cached.songs,
      matchingGenres: cached.matchingGenres,
      total: cached.pagination.total,
      pages: cached.pagination.totalPages,
      fetchedAt: cached.fetchedAt,
      fromCache: true,
    };
  }
  try {
    const answer = await api.get<MatchingGenreSongsResponse>('/songs/matching-genre', {
      query: { page, limit: SONG_PAGE_SIZE.matchingGenre },
    });
    const genres = Array.isArray(answer?.matchingGenres)
      ? answer.matchingGenres.filter((genre): genre is string => typeof genre === 'string')
      : [];
    return {
      ...pagedPayload(answer, page),
      matchingGenres: genres,
      fetchedAt: Date.now(),
      fromCache: false,
    };
  } catch (error) {
    return rejectWithValue(errorText(error, SONG_MESSAGES.matchingGenreFailed));
  }
});

export interface ArtistSongsPayload extends PagedSongsPayload {
  artistId: string;
}

/** GET /songs/artist/{id}?page&limit=20. */
export const fetchSongsByArtist = createAsyncThunk<
  ArtistSongsPayload,
  { artistId: string; page?: number },
  ThunkConfig
>('songs/fetchSongsByArtist', async ({ artistId, page: requested }, { rejectWithValue }) => {
  const page = firstPage(requested);
  try {
    const answer = await api.get<ArtistSongsResponse>(`/songs/artist/${encodeURIComponent(artistId)}`, {
      query: { page, limit: SONG_PAGE_SIZE.artist },
    });
    return { ...pagedPayload(answer, page), artistId };
  } catch (error) {
    return rejectWithValue(errorText(error, SONG_MESSAGES.artistFailed));
  }
});

export interface GenreSongsPayload extends PagedSongsPayload {
  genre: string;
  append: boolean;
  fetchedAt: number;
  fromCache: boolean;
}

/**
 * GET /songs/genre/{genre}?page&limit=20, cached per lowercased genre. A fresh cache that already holds the
 * requested page is served without a request; `append` merges a later page into the shown list.
 */
export const fetchSongsByGenre = createAsyncThunk<
  GenreSongsPayload,
  { genre: string; page?: number; append?: boolean },
  ThunkConfig
>(
  'songs/fetchSongsByGenre',
  async ({ genre, page: requested, append = false }, { getState, rejectWithValue }) => {
    const page = firstPage(requested);
    const key = genreKey(genre);
    const cached = getState().songs.genreCache[key];
    if (cached && isFresh(cached.fetchedAt, Date.now()) && cached.page >= page) {
      return {
        genre: key,
        page: cached.page,
        songs: cached.songs,
        total: cached.total,
        pages: cached.pages,
        append: false,
        fetchedAt: cached.fetchedAt,
        fromCache: true,
      };
    }
    try {
      const answer = await api.get<PagedSongsResponse>(`/songs/genre/${encodeURIComponent(genre.trim())}`, {
        query: { page, limit: SONG_PAGE_SIZE.genre },
      });
      return { ...pagedPayload(answer, page), genre: key, append, fetchedAt: Date.now(), fromCache: false };
    } catch (error) {
      return rejectWithValue(errorText(error, SONG_MESSAGES.genreFailed));
    }
  },
);

export interface SongMutationPayload {
  song: Song | null;
  message: string;
}

function mutationSong(answer: Partial<SongMutationResponse> | null): Song | null {
  const song = answer?.song;
  return song && typeof song === 'object' && typeof song._id === 'string' ? song : null;
}

/** POST /songs (multipart form data). */
export const createSong = createAsyncThunk<SongMutationPayload, FormData, ThunkConfig>(
  'songs/createSong',
  async (form, { rejectWithValue }) => {
    try {
      const answer = await api.post<SongMutationResponse>('/songs', form);
      return { song: mutationSong(answer), message: SONG_MESSAGES.created };
    } catch (error) {
      return rejectWithValue(errorText(error, SONG_MESSAGES.createFailed));
    }
  },
);

/** PUT /songs/{id} (multipart form data). */
export const updateSong = createAsyncThunk<SongMutationPayload, { id: string; form: FormData }, ThunkConfig>(
  'songs/updateSong',
  async ({ id, form }, { rejectWithValue }) => {
    try {
      const answer = await api.put<SongMutationResponse>(`/songs/${encodeURIComponent(id)}`, form);
      return { song: mutationSong(answer), message: SONG_MESSAGES.updated };
    } catch (error) {
      return rejectWithValue(errorText(error, SONG_MESSAGES.updateFailed));
    }
  },
);

/** DELETE /songs/{id}. */
export const deleteSong = createAsyncThunk<{ id: string; message: string }, string, ThunkConfig>(
  'songs/deleteSong',
  async (id, { rejectWithValue }) => {
    try {
      await api.delete<unknown>(`/songs/${encodeURIComponent(id)}`);
      return { id, message: SONG_MESSAGES.deleted };
    } catch (error) {
      return rejectWithValue(errorText(error, SONG_MESSAGES.deleteFailed));
    }
  },
);
