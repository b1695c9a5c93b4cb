import { backbeatApi } from '../../lib/api-query';
import { mergePages } from '../../lib/merge-by-id';
import type * as Catalog from './catalog.types';

/** Page sizes of SPEC section 9. */
export const PAGE_SIZE = {
  songs: 10,
  artists: 10,
  albums: 10,
  randomArtist: 10,
  liked: 20,
  matchingGenre: 20,
  artistSongs: 20,
  genreSongs: 20,
};

const list = <T>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);

/** SPEC section 9: song lists stay fresh for 5 minutes (seconds, as RTK Query counts). */
export const SONG_LIST_FRESH_SECONDS = 5 * 60;

/** The lowercased genre a genre's songs are cached under: genres are matched case-insensitively. */
export function genreKey(genre: string): string {
  return genre.trim().toLowerCase();
}

/** Song lists paged by `page` (first page 1) and answered with `{ page, pages }`: "Load more" asks for the next. */
const songPages = {
  initialPageParam: 1,
  getNextPageParam: (last: { page: number; pages: number }, _all: unknown, lastPage: number) =>
    lastPage < last.pages ? lastPage + 1 : undefined,
};

const catalogApi = backbeatApi.injectEndpoints({
  endpoints: (build) => ({
    getGenres: build.query<Catalog.Genre[], void>({
      query: () => '/genres',
      transformResponse: (response: { genres?: Catalog.Genre[] } | null) =>
        list<Catalog.Genre>(response?.genres),
    }),
    getArtists: build.query<Catalog.ArtistsResponse, { page: number }>({
      providesTags: ['Artists'],
      query: ({ page }) => ({ url: '/artists', query: { page, limit: PAGE_SIZE.artists } }),
    }),
    /** `GET /artists?q`: typo-tolerant artist search, paged (results, page, total, pages). */
    searchArtists: build.query<Catalog.ArtistSearchResponse, { q: string; page: number }>({
      providesTags: ['Artists'],
      query: ({ q, page }) => ({ url: '/artists', query: { q, page, limit: PAGE_SIZE.artists } }),
    }),
    /**
     * A random artist with a page of their songs. `draw` only tells draws apart in the cache: each new draw
     * asks the server again, while revisiting the screen keeps the artist on show.
     */
    getRandomArtist: build.query<Catalog.RandomArtistResponse, { draw: number }>({
      providesTags: ['Artists', 'Songs'],
      query: () => ({ url: '/discover/random-artist', query: { page: 1, limit: PAGE_SIZE.randomArtist } }),
    }),
    getAlbums: build.query<Catalog.AlbumsResponse, { page: number }>({
      providesTags: ['Albums'],
      query: ({ page }) => ({ url: '/albums', query: { page, limit: PAGE_SIZE.albums } }),
    }),
    getAllArtists: build.query<Catalog.Artist[], void>({
      providesTags: ['Artists'],
      query: () => '/artists/all',
      transformResponse: (response: { artists?: Catalog.Artist[] } | null) =>
        list<Catalog.Artist>(response?.artists),
    }),
    getArtist: build.query<Catalog.Artist, string>({
      providesTags: ['Artists'],
      query: (id) => `/artists/${encodeURIComponent(id)}`,
      transformResponse: (response: { artist: Catalog.Artist }) => response.artist,
    }),
    getArtistSongs: build.query<Catalog.ArtistSongsResponse, { id: string; page: number }>({
      providesTags: ['Songs'],
      query: ({ id, page }) => ({
        url: `/songs/artist/${encodeURIComponent(id)}`,
        query: { page, limit: PAGE_SIZE.artistSongs },
      }),
    }),
    /** `GET /songs/liked`, 20 a page; each visit starts again from the first page (the list follows every like). */
    getLikedSongs: build.infiniteQuery<Catalog.PagedSongsResponse, void, number>({
      providesTags: ['LikedSongs', 'Songs'],
      infiniteQueryOptions: songPages,
      keepUnusedDataFor: 0,
      query: ({ pageParam }) => ({ url: '/songs/liked', query: { page: pageParam, limit: PAGE_SIZE.liked } }),
    }),
    /** `GET /songs/artist/{id}`, 20 a page, for the artist page's "Load more"; each visit starts from page 1. */
    getArtistSongPages: build.infiniteQuery<Catalog.ArtistSongsResponse, string, number>({
      providesTags: ['Songs'],
      infiniteQueryOptions: songPages,
      keepUnusedDataFor: 0,
      query: ({ queryArg: id, pageParam }) => ({
        url: `/songs/artist/${encodeURIComponent(id)}`,
        query: { page: pageParam, limit: PAGE_SIZE.artistSongs },
      }),
    }),
    /** `GET /songs/genre/{genre}`, 20 a page, cached per lowercased genre for 5 minutes. */
    getGenreSongs: build.infiniteQuery<Catalog.PagedSongsResponse, string, number>({
      providesTags: ['Songs'],
      infiniteQueryOptions: songPages,
      keepUnusedDataFor: SONG_LIST_FRESH_SECONDS,
      serializeQueryArgs: ({ endpointName, queryArgs }) => `${endpointName}(${genreKey(queryArgs)})`,
      query: ({ queryArg: genre, pageParam }) => ({
        url: `/songs/genre/${encodeURIComponent(genre.trim())}`,
        query: { page: pageParam, limit: PAGE_SIZE.genreSongs },
      }),
    }),
    getArtistAlbums: build.query<Catalog.ArtistAlbumsResponse, { id: string; page: number }>({
      providesTags: ['Albums'],
      query: ({ id, page }) => ({
        url: `/albums/artist/${encodeURIComponent(id)}`,
        query: { page, limit: PAGE_SIZE.albums },
      }),
    }),
    getAlbum: build.query<Catalog.Album, string>({
      providesTags: ['Albums'],
      query: (id) => `/albums/${encodeURIComponent(id)}`,
      transformResponse: (response: { album: Catalog.Album }) => response.album,
    }),
    /**
     * One song by id (GET /songs/:id), in any processing state for its artist's account and admins: the song
     * editor's copy of an upload, and the song a buyer plays straight after paying.
     */
    getSong: build.query<Catalog.Song, string>({
      query: (id) => `/songs/${encodeURIComponent(id)}`,
      providesTags: ['Songs'],
    }),
    getAlbumSongs: build.query<Catalog.Song[], string>({
      providesTags: ['Songs'],
      query: (id) => `/songs/album/${encodeURIComponent(id)}`,
      // SPEC: "list of songs" - accept a bare list or { songs }.
      transformResponse: (response: Catalog.Song[] | { songs?: Catalog.Song[] } | null) =>
        Array.isArray(response) ? response : list<Catalog.Song>(response?.songs),
    }),
    /** The signed-in listener's home shelves in one call; asked again on every visit (it follows their plays). */
    getHome: build.query<Catalog.HomeResponse, void>({
      providesTags: ['Songs', 'Albums', 'Artists', 'Purchases', 'Subscriptions'],
      query: () => '/home',
    }),
    search: build.query<Catalog.SearchResults, string>({
      providesTags: ['Artists', 'Albums', 'Songs'],
      query: (q) => ({ url: '/search', query: { q } }),
      // SPEC: "(results)" with three lists; accept { results: {...} } or the lists at the top level.
      transformResponse: (
        response: { results?: Partial<Catalog.SearchResults> } & Partial<Catalog.SearchResults>,
      ) => {
        const results = response.results ?? response;
        return {
          artists: list<Catalog.Artist>(results.artists),
          songs: list<Catalog.Song>(results.songs),
          albums: list<Catalog.Album>(results.albums),
          genres: list<Catalog.Genre>(results.genres),
        };
      },
    }),
  }),
});

export const {
  useGetGenresQuery,
  useGetArtistsQuery,
  useSearchArtistsQuery,
  useGetRandomArtistQuery,
  useGetAlbumsQuery,
  useGetAllArtistsQuery,
  useGetArtistQuery,
  useGetArtistSongsQuery,
  useGetLikedSongsInfiniteQuery,
  useGetArtistSongPagesInfiniteQuery,
  useGetGenreSongsInfiniteQuery,
  useGetArtistAlbumsQuery,
  useGetAlbumQuery,
  useGetAlbumSongsQuery,
  useGetSongQuery,
  useLazyGetSongQuery,
  useLazyGetAlbumSongsQuery,
  useSearchQuery,
  useGetHomeQuery,
} = catalogApi;

/** The songs of every page loaded so far, in order; a song on two pages shows once (SPEC section 4). */
export function loadedSongs(
  data: { pages: ReadonlyArray<{ songs: Catalog.Song[] }> } | undefined,
): Catalog.Song[] {
  return data ? mergePages(data.pages.map((page) => page.songs)) : [];
}
