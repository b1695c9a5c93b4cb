import { backbeatApi } from '../../lib/api-query';
import type {
  Album,
  AlbumsResponse,
  Artist,
  ArtistSearchResponse,
  ArtistAlbumsResponse,
  ArtistSongsResponse,
  ArtistsResponse,
  Genre,
  HomeResponse,
  RandomArtistResponse,
  SearchResults,
  Song,
} from './catalog.types';

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

const catalogApi = backbeatApi.injectEndpoints({
  endpoints: (build) => ({
    getGenres: build.query<Genre[], void>({
      query: () => '/genres',
      transformResponse: (response: { genres?: Genre[] } | null) => list<Genre>(response?.genres),
    }),
    getArtists: build.query<ArtistsResponse, { page: number }>({
      providesTags: ['Artists'],
      query: ({ page }) => ({ url: '/artists', query: { page, limit: PAGE_SIZE.artists } }),
    }),
    /** `GET /artists?q`: typo-tolerant artist search, paged (results, page, total, pages). */
    searchArtists: build.query<ArtistSearchResponse, { q: string; page: number }>({
      providesTags: ['Artists'],
      query: ({ q, page }) => ({ url: '/artists', query: { q, page, limit: PAGE_SIZE.artists } }),
    }),
    /**
     * A random artist with a page of their songs. `draw` only tells draws apart in the cache: each new draw
     * asks the server again, while revisiting the screen keeps the artist on show.
     */
    getRandomArtist: build.query<RandomArtistResponse, { draw: number }>({
      providesTags: ['Artists', 'Songs'],
      query: () => ({ url: '/discover/random-artist', query: { page: 1, limit: PAGE_SIZE.randomArtist } }),
    }),
    getAlbums: build.query<AlbumsResponse, { page: number }>({
      providesTags: ['Albums'],
      query: ({ page }) => ({ url: '/albums', query: { page, limit: PAGE_SIZE.albums } }),
    }),
    getAllArtists: build.query<Artist[], void>({
      providesTags: ['Artists'],
      query: () => '/artists/all',
      transformResponse: (response: { artists?: Artist[] } | null) => list<Artist>(response?.artists),
    }),
    getArtist: build.query<Artist, string>({
      providesTags: ['Artists'],
      query: (id) => `/artists/${encodeURIComponent(id)}`,
      transformResponse: (response: { artist: Artist }) => response.artist,
    }),
    getArtistSongs: build.query<ArtistSongsResponse, { id: string; page: number }>({
      providesTags: ['Songs'],
      query: ({ id, page }) => ({
        url: `/songs/artist/${encodeURIComponent(id)}`,
        query: { page, limit: PAGE_SIZE.artistSongs },
      }),
    }),
    getArtistAlbums: build.query<ArtistAlbumsResponse, { id: string; page: number }>({
      providesTags: ['Albums'],
      query: ({ id, page }) => ({
        url: `/albums/artist/${encodeURIComponent(id)}`,
        query: { page, limit: PAGE_SIZE.albums },
      }),
    }),
    getAlbum: build.query<Album, string>({
      providesTags: ['Albums'],
      query: (id) => `/albums/${encodeURIComponent(id)}`,
      transformResponse: (response: { album: Album }) => response.album,
    }),
    getAlbumSongs: build.query<Song[], string>({
      providesTags: ['Songs'],
      query: (id) => `/songs/album/${encodeURIComponent(id)}`,
      // SPEC: "list of songs" - accept a bare list or { songs }.
      transformResponse: (response: Song[] | { songs?: Song[] } | null) =>
        Array.isArray(response) ? response : list<Song>(response?.songs),
    }),
    /** The signed-in listener's home shelves in one call; asked again on every visit (it follows their plays). */
    getHome: build.query<HomeResponse, void>({
      providesTags: ['Songs', 'Albums', 'Artists', 'Purchases', 'Subscriptions'],
      query: () => '/home',
    }),
    search: build.query<SearchResults, string>({
      providesTags: ['Artists', 'Albums', 'Songs'],
      query: (q) => ({ url: '/search', query: { q } }),
      // SPEC: "(results)" with three lists; accept { results: {...} } or the lists at the top level.
      transformResponse: (response: { results?: Partial<SearchResults> } & Partial<SearchResults>) => {
        const results = response.results ?? response;
        return {
          artists: list<Artist>(results.artists),
          songs: list<Song>(results.songs),
          albums: list<Album>(results.albums),
          genres: list<Genre>(results.genres),
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
  useGetArtistAlbumsQuery,
  useGetAlbumQuery,
  useGetAlbumSongsQuery,
  useSearchQuery,
  useGetHomeQuery,
} = catalogApi;
