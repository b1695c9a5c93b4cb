/** The server's limits (contract PLAYLIST_LIMITS), repeated here so zod stays out of the web bundle. */
export const PLAYLIST_LIMITS = {
  nameLength: 100,
  descriptionLength: 500,
  songsPerPlaylist: 500,
  playlistsPerUser: 200,
} as const;

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
