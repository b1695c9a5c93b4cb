import { useSelector } from 'react-redux';
import { selectUser, type AuthState } from '../auth';
import { useGetAllArtistsQuery } from '../catalog';
import type { Artist } from './studio.types';

const NONE: Artist[] = [];

/** The artist profiles this account manages: every one for an admin, its own for an artist account. */
export function useManagedArtists() {
  const user = useSelector((state: { auth: AuthState }) => selectUser(state));
  const query = useGetAllArtistsQuery(undefined, { skip: !user });
  const isAdmin = user?.role === 'admin';
  const all = query.data ?? NONE;
  const artists = isAdmin ? all : all.filter((artist) => artist.ownerId === user?._id);
  return {
    artists,
    isAdmin,
    isLoading: query.isLoading,
    isError: query.isError,
    error: query.error,
    refetch: query.refetch,
  };
}

/** The studio links carry the artist being managed, so a reload or a shared link opens the same one. */
export const studioPaths = {
  overview: (artistId?: string) => (artistId ? `/studio?artist=${encodeURIComponent(artistId)}` : '/studio'),
  newSong: (artistId?: string) =>
    artistId ? `/studio/songs/new?artist=${encodeURIComponent(artistId)}` : '/studio/songs/new',
  editSong: (songId: string, artistId: string) =>
    `/studio/songs/${encodeURIComponent(songId)}/edit?artist=${encodeURIComponent(artistId)}`,
  newAlbum: (artistId?: string) =>
    artistId ? `/studio/albums/new?artist=${encodeURIComponent(artistId)}` : '/studio/albums/new',
  editAlbum: (albumId: string) => `/studio/albums/${encodeURIComponent(albumId)}/edit`,
  newArtist: () => '/studio/artists/new',
  editArtist: (artistId: string) => `/studio/artists/${encodeURIComponent(artistId)}/edit`,
};

/** The artist a studio screen works on: the `artist` search parameter when it is managed, else the first. */
export function pickArtist(artists: Artist[], requested: string | null): Artist | null {
  return artists.find((artist) => artist._id === requested) ?? artists[0] ?? null;
}
