/** Playlist shapes come from the shared contract (types only: zod stays out of the web bundle). */
export type {
  AddPlaylistSongBody,
  CreatePlaylistBody,
  PlaylistDetail,
  PlaylistMutationResponse,
  PlaylistSongsMutationResponse,
  PlaylistSummary,
  ReorderPlaylistBody,
  UpdatePlaylistBody,
} from '@backbeat/contract';
