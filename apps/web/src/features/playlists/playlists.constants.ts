/** The server's limits, from the contract's zod-free entry point (zod stays out of the web bundle). */
export { PLAYLIST_LIMITS } from '@backbeat/contract/constants';

/** Fallback texts when the server sends no message. */
export const PLAYLIST_MESSAGES = {
  fetchListFailed: 'Failed to fetch playlists',
  fetchFailed: 'Failed to fetch playlist',
  createFailed: 'Failed to create playlist',
  updateFailed: 'Failed to update playlist',
  deleteFailed: 'Failed to delete playlist',
  addFailed: 'Failed to add song to playlist',
  removeFailed: 'Failed to remove song from playlist',
  reorderFailed: 'Failed to save the new order',
  created: 'Playlist created',
  updated: 'Playlist updated',
  deleted: 'Playlist deleted',
  added: 'Song added to playlist',
  removed: 'Song removed from playlist',
} as const;

/** Room the add-to-playlist menu needs below its button before it opens upwards instead. */
export const MENU_HEIGHT = 320;
