/** The playlists feature's public surface. */
export * from './playlists.api';
export type * from './playlists.types';
export { PLAYLIST_LIMITS, PLAYLIST_MESSAGES } from './playlists.constants';
export { moveItem, moveToOrder } from './playlist-order';
export type { PlaylistFormValues } from './playlist-form';
export { AddToPlaylistMenu } from './components/add-to-playlist-entry';
export { ConfirmDeleteDialog } from './components/confirm-delete-dialog';
export { PlaylistCover } from './components/playlist-cover';
export { PlaylistFormDialog } from './components/playlist-form-dialog';
export { PlaylistTrackList, isPlayable, type PlaylistTrackListProps } from './components/playlist-track-list';
