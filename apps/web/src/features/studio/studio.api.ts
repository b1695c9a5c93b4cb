import type { CatalogBuyersResponse, CatalogDeleteResponse, SongStatusResponse } from '@backbeat/contract';
import { backbeatApi, type QueryError } from '../../lib/api-query';
import type { Album, Song } from './studio.types';

/** What each kind of write changes, so every list that shows it refetches (SPEC: caches emptied after writes). */
export const STUDIO_INVALIDATES = {
  // Song counts on artists and albums change with a song; liked and purchased lists show songs too.
  song: ['Songs', 'Albums', 'Artists', 'LikedSongs', 'Purchases'],
  album: ['Albums', 'Songs', 'Artists', 'Purchases'],
  // Deleting an artist removes their songs and albums as well.
  artist: ['Artists', 'Albums', 'Songs', 'LikedSongs', 'Purchases', 'Subscriptions'],
} as const;

export type StudioEntity = keyof typeof STUDIO_INVALIDATES;

/** The largest page the server serves; the studio reads whole lists for its pickers. */
const FULL_PAGE = 100;
/** A safety stop for the page loop (10 000 songs). */
const MAX_PAGES = 100;

type BaseQuery = (args: {
  url: string;
  query: Record<string, number>;
}) => PromiseLike<{ data?: unknown; error?: QueryError }> | { data?: unknown; error?: QueryError };

/** Reads every page of a list: songs (`pages`) or albums (`pagination.totalPages`). */
async function readAllPages<Item>(
  baseQuery: BaseQuery,
  url: string,
  pick: (page: unknown) => { items: Item[]; pages: number },
): Promise<{ data: Item[] } | { error: QueryError }> {
  const items: Item[] = [];
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const result = await baseQuery({ url, query: { page, limit: FULL_PAGE } });
    if (result.error) return { error: result.error };
    const { items: pageItems, pages } = pick(result.data);
    items.push(...pageItems);
    if (page >= pages || pageItems.length === 0) break;
  }
  return { data: items };
}

export const studioApi = backbeatApi.injectEndpoints({
  endpoints: (build) => ({
    /** An upload's processing status; the song form polls it every 2 s until ready or failed. */
    getSongStatus: build.query<SongStatusResponse, string>({
      query: (id) => `/songs/${encodeURIComponent(id)}/status`,
    }),
    /** Every (ready) song of an artist, for the album form's song entries and the song editor. */
    getAllArtistSongs: build.query<Song[], string>({
      queryFn: (artistId, _api, _options, baseQuery) =>
        readAllPages<Song>(baseQuery, `/songs/artist/${encodeURIComponent(artistId)}`, (page) => {
          const data = page as { songs: Song[]; pages: number };
          return { items: data.songs, pages: data.pages };
        }),
      providesTags: ['Songs'],
    }),
    /** Every album of an artist, for the song form's album picker. */
    getAllArtistAlbums: build.query<Album[], string>({
      queryFn: (artistId, _api, _options, baseQuery) =>
        readAllPages<Album>(baseQuery, `/albums/artist/${encodeURIComponent(artistId)}`, (page) => {
          const data = page as { albums: Album[]; pagination: { totalPages: number } };
          return { items: data.albums, pages: data.pagination.totalPages };
        }),
      providesTags: ['Albums'],
    }),
    /**
     * How many accounts bought a song (on its own or with its album) or an album: they keep it if it is deleted
     * (a purchase is forever). The delete dialog asks each time it opens.
     */
    getBuyers: build.query<CatalogBuyersResponse, { entity: 'song' | 'album'; id: string }>({
      query: ({ entity, id }) => `/${entity}s/${encodeURIComponent(id)}/buyers`,
      keepUnusedDataFor: 0,
    }),
    deleteSong: build.mutation<CatalogDeleteResponse, string>({
      query: (id) => ({ url: `/songs/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: (_result, error) => (error ? [] : [...STUDIO_INVALIDATES.song]),
    }),
    deleteAlbum: build.mutation<CatalogDeleteResponse, string>({
      query: (id) => ({ url: `/albums/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: (_result, error) => (error ? [] : [...STUDIO_INVALIDATES.album]),
    }),
    deleteArtist: build.mutation<{ message: string }, string>({
      query: (id) => ({ url: `/artists/${encodeURIComponent(id)}`, method: 'DELETE' }),
      // SPEC: deleting an artist drops its cached subscriber counts (an unwatched entry is removed, a shown one
      // asks again and learns the artist is gone).
      invalidatesTags: (_result, error, id) =>
        error ? [] : [...STUDIO_INVALIDATES.artist, { type: 'SubscriberCount' as const, id }],
    }),
  }),
});

export const {
  useGetSongStatusQuery,
  useGetAllArtistSongsQuery,
  useGetAllArtistAlbumsQuery,
  useGetBuyersQuery,
  useDeleteSongMutation,
  useDeleteAlbumMutation,
  useDeleteArtistMutation,
} = studioApi;
