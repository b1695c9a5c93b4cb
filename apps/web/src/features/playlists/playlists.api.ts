import { backbeatApi } from '../../lib/api-query';
import type {
  PlaylistDetail,
  PlaylistMutationResponse,
  PlaylistSongsMutationResponse,
  PlaylistSummary,
} from './playlists.types';
import { moveToOrder } from './playlist-order';

const LIST = { type: 'Playlists', id: 'LIST' } as const;
const one = (id: string) => ({ type: 'Playlists', id }) as const;
const path = (id: string) => `/playlists/${encodeURIComponent(id)}`;

/** Playlists of the signed-in user. Song edits patch the open playlist at once and undo on failure. */
const playlistsApi = backbeatApi.enhanceEndpoints({ addTagTypes: ['Playlists'] }).injectEndpoints({
  endpoints: (build) => ({
    getPlaylists: build.query<PlaylistSummary[], void>({
      query: () => '/playlists',
      transformResponse: (response: { playlists?: PlaylistSummary[] } | null) => response?.playlists ?? [],
      providesTags: (result = []) => [LIST, ...result.map((playlist) => one(playlist._id))],
    }),
    getPlaylist: build.query<PlaylistDetail, string>({
      query: (id) => path(id),
      transformResponse: (response: { playlist: PlaylistDetail }) => response.playlist,
      providesTags: (_result, _error, id) => [one(id)],
    }),
    createPlaylist: build.mutation<PlaylistMutationResponse, { name: string; description?: string }>({
      query: (body) => ({ url: '/playlists', method: 'POST', body }),
      invalidatesTags: [LIST],
    }),
    updatePlaylist: build.mutation<
      PlaylistMutationResponse,
      { id: string; name?: string; description?: string }
    >({
      query: ({ id, ...body }) => ({ url: path(id), method: 'PUT', body }),
      invalidatesTags: (_result, _error, { id }) => [LIST, one(id)],
    }),
    deletePlaylist: build.mutation<{ message: string }, string>({
      query: (id) => ({ url: path(id), method: 'DELETE' }),
      // Only the list refetches: the deleted playlist's own query would answer 404 while its page closes.
      invalidatesTags: [LIST],
    }),
    addSongToPlaylist: build.mutation<PlaylistSongsMutationResponse, { playlistId: string; songId: string }>({
      query: ({ playlistId, songId }) => ({
        url: `${path(playlistId)}/songs`,
        method: 'POST',
        body: { songId },
      }),
      invalidatesTags: (_result, _error, { playlistId }) => [LIST, one(playlistId)],
    }),
    removeSongFromPlaylist: build.mutation<
      PlaylistSongsMutationResponse,
      { playlistId: string; songId: string }
    >({
      query: ({ playlistId, songId }) => ({
        url: `${path(playlistId)}/songs/${encodeURIComponent(songId)}`,
        method: 'DELETE',
      }),
      onQueryStarted: async ({ playlistId, songId }, { dispatch, queryFulfilled }) => {
        const patch = dispatch(
          playlistsApi.util.updateQueryData('getPlaylist', playlistId, (draft) => {
            draft.songs = draft.songs.filter((song) => song._id !== songId);
            draft.songCount = draft.songs.length;
          }),
        );
        try {
          await queryFulfilled;
        } catch {
          patch.undo();
        }
      },
      // Counts and covers on the list change; the open playlist was already patched.
      invalidatesTags: (_result, error, { playlistId }) => (error ? [LIST, one(playlistId)] : [LIST]),
    }),
    reorderPlaylist: build.mutation<PlaylistSongsMutationResponse, { playlistId: string; songIds: string[] }>(
      {
        query: ({ playlistId, songIds }) => ({
          url: `${path(playlistId)}/order`,
          method: 'PUT',
          body: { songIds },
        }),
        /*
         * The new order shows at once. Server answers are not written back: with several moves in flight, an
         * older answer could arrive last and undo a newer move. A failure undoes this move and refetches the truth.
         */
        onQueryStarted: async ({ playlistId, songIds }, { dispatch, queryFulfilled }) => {
          const patch = dispatch(
            playlistsApi.util.updateQueryData('getPlaylist', playlistId, (draft) => {
              draft.songs = moveToOrder(draft.songs, songIds);
            }),
          );
          try {
            await queryFulfilled;
          } catch {
            patch.undo();
          }
        },
        invalidatesTags: (_result, error, { playlistId }) => (error ? [LIST, one(playlistId)] : [LIST]),
      },
    ),
  }),
});

export const {
  useGetPlaylistsQuery,
  useGetPlaylistQuery,
  useCreatePlaylistMutation,
  useUpdatePlaylistMutation,
  useDeletePlaylistMutation,
  useAddSongToPlaylistMutation,
  useRemoveSongFromPlaylistMutation,
  useReorderPlaylistMutation,
} = playlistsApi;
