import { z } from 'zod';
import { Song } from './catalog';
import { Id } from './common';
import { PLAYLIST_LIMITS } from './constants/playlists';

/** The playlists' limits live in ./constants (zod-free, for the web) and are exported here as before. */
export { PLAYLIST_LIMITS } from './constants/playlists';

const PlaylistName = z
  .string({ error: 'is required' })
  .trim()
  .min(1, 'is required')
  .max(PLAYLIST_LIMITS.nameLength, `must be at most ${PLAYLIST_LIMITS.nameLength} characters`);
const PlaylistDescription = z
  .string({ error: 'must be text' })
  .trim()
  .max(PLAYLIST_LIMITS.descriptionLength, `must be at most ${PLAYLIST_LIMITS.descriptionLength} characters`);

/**
 * A playlist as lists show it. `cover` is the cover of the first song that has one (in playlist order);
 * `covers` holds up to four distinct covers, in playlist order, for a mosaic.
 */
export const PlaylistSummary = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string(),
  songCount: z.number().int(),
  cover: z.string().nullable(),
  covers: z.array(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PlaylistSummary = z.infer<typeof PlaylistSummary>;

/** A playlist with its songs in order, each exactly as the catalogue shows songs (with `canPlay`, `status`). */
export const PlaylistDetail = PlaylistSummary.extend({ songs: z.array(Song) });
export type PlaylistDetail = z.infer<typeof PlaylistDetail>;

// ---------------------------------------------------------------------------------------------------------------
// Requests

export const PlaylistParams = z.object({ id: Id });
export type PlaylistParams = z.infer<typeof PlaylistParams>;
export const PlaylistSongParams = z.object({ id: Id, songId: Id });
export type PlaylistSongParams = z.infer<typeof PlaylistSongParams>;

export const CreatePlaylistBody = z.object({
  name: PlaylistName,
  description: PlaylistDescription.optional(),
});
export type CreatePlaylistBody = z.infer<typeof CreatePlaylistBody>;

/** Rename and/or change the description (an empty description clears it). */
export const UpdatePlaylistBody = z
  .object({ name: PlaylistName.optional(), description: PlaylistDescription.optional() })
  .refine((body) => body.name !== undefined || body.description !== undefined, {
    message: 'Give a name or a description to change',
  });
export type UpdatePlaylistBody = z.infer<typeof UpdatePlaylistBody>;

export const AddPlaylistSongBody = z.object({ songId: Id });
export type AddPlaylistSongBody = z.infer<typeof AddPlaylistSongBody>;

/** The playlist's songs in their new order: every current song exactly once. */
export const ReorderPlaylistBody = z.object({
  songIds: z
    .array(Id)
    .max(PLAYLIST_LIMITS.songsPerPlaylist, `must list at most ${PLAYLIST_LIMITS.songsPerPlaylist} songs`),
});
export type ReorderPlaylistBody = z.infer<typeof ReorderPlaylistBody>;

// ---------------------------------------------------------------------------------------------------------------
// Responses

export const PlaylistsResponse = z.object({ playlists: z.array(PlaylistSummary) });
export type PlaylistsResponse = z.infer<typeof PlaylistsResponse>;

export const PlaylistResponse = z.object({ playlist: PlaylistDetail });
export type PlaylistResponse = z.infer<typeof PlaylistResponse>;

/** Create, rename: the playlist without its songs. */
export const PlaylistMutationResponse = z.object({ message: z.string(), playlist: PlaylistSummary });
export type PlaylistMutationResponse = z.infer<typeof PlaylistMutationResponse>;

/** Add, remove, reorder: the playlist with its songs in their new order. */
export const PlaylistSongsMutationResponse = z.object({ message: z.string(), playlist: PlaylistDetail });
export type PlaylistSongsMutationResponse = z.infer<typeof PlaylistSongsMutationResponse>;
