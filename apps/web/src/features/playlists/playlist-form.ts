import { PLAYLIST_LIMITS } from './playlists.constants';

export interface PlaylistFormValues {
  name: string;
  description: string;
}

/** The server's rules for a playlist's name and description, checked before asking. */
export function validatePlaylistForm(
  values: PlaylistFormValues,
): Partial<Record<keyof PlaylistFormValues, string>> {
  const errors: Partial<Record<keyof PlaylistFormValues, string>> = {};
  const name = values.name.trim();
  if (!name) errors.name = 'Give the playlist a name';
  else if (name.length > PLAYLIST_LIMITS.nameLength) {
    errors.name = `At most ${PLAYLIST_LIMITS.nameLength} characters`;
  }
  if (values.description.trim().length > PLAYLIST_LIMITS.descriptionLength) {
    errors.description = `At most ${PLAYLIST_LIMITS.descriptionLength} characters`;
  }
  return errors;
}
