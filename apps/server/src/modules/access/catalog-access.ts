import type { Viewer } from './access-policy';
import { forbidden } from '../../platform/errors';

/** Roles that may write to the catalogue at all; listeners get 403, guests 401 (checked by the routes). */
export const CATALOG_EDITOR_ROLES = ['admin', 'artist'] as const;

/** Admins manage every artist; an artist account only the profile it owns. */
export function canManageArtist(viewer: Viewer, artist: { ownerUserId: string | null }): boolean {
  return viewer.role === 'admin' || (viewer.role === 'artist' && artist.ownerUserId === viewer.id);
}

export function assertCanManageArtist(viewer: Viewer, artist: { ownerUserId: string | null }): void {
  if (!canManageArtist(viewer, artist)) {
    throw forbidden('You can only manage your own artist profile', 'NOT_YOUR_ARTIST');
  }
}
