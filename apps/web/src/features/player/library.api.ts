import type { Song, SongsResponse } from '@backbeat/contract';
import { backbeatApi } from '../../lib/api-query';

/** SPEC section 9: the library's first page, 10 songs. */
const LIBRARY_PAGE = { page: 1, limit: 10 } as const;

/** SPEC section 9: song lists stay fresh for 5 minutes (seconds, as RTK Query counts). */
export const LIBRARY_FRESH_SECONDS = 5 * 60;

/**
 * The library the player falls back on (context 'all', SPEC section 4): `GET /songs?page=1&limit=10`. The home
 * screen asks for it (again when older than 5 minutes); the player keeps it while nothing shows it, until a
 * catalogue write or the end of the session drops it.
 */
const libraryApi = backbeatApi.injectEndpoints({
  endpoints: (build) => ({
    getLibrarySongs: build.query<Song[], void>({
      providesTags: ['Songs'],
      keepUnusedDataFor: 24 * 60 * 60,
      query: () => ({ url: '/songs', query: { ...LIBRARY_PAGE } }),
      transformResponse: (response: SongsResponse | null) =>
        Array.isArray(response?.songs) ? response.songs : [],
    }),
  }),
});

/** Asks for the library when the screen mounts, unless the cached one is younger than 5 minutes. */
export const usePlayerLibrary = () =>
  libraryApi.useGetLibrarySongsQuery(undefined, { refetchOnMountOrArgChange: LIBRARY_FRESH_SECONDS });

export const selectLibraryResult = libraryApi.endpoints.getLibrarySongs.select();
