// The plain values of playlists, without zod (see ./index.ts).
/** Limits enforced by the server (and shown by the web app before it asks). */
export const PLAYLIST_LIMITS = {
  nameLength: 100,
  descriptionLength: 500,
  songsPerPlaylist: 500,
  playlistsPerUser: 200,
} as const;
