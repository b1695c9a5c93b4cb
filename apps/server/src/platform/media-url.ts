/**
 * Public images in the media store: their keys and the URLs they are served under (GET /api/media/*). Audio never
 * goes through here (signed stream URLs only).
 */

/** `avatar`: a listener's profile picture (the settings page); the others are the catalogue's. */
export type CoverKind = 'song' | 'album' | 'artist' | 'avatar';

/** Keys of public images: `images/<kind>/<random version>/cover-<size>.webp`. Nothing else is served publicly. */
export const IMAGE_KEY_PATTERN = /^images\/(song|album|artist|avatar)\/[0-9a-f]{16}\/[a-z0-9_-]+\.webp$/;

/** The folder holding all variants of an image key. */
export const imageFolder = (key: string) => key.slice(0, key.lastIndexOf('/'));

/** Public URL of an image in the media store (served by GET /api/media/*). */
export const mediaUrl = (key: string | null): string | null => (key ? `/api/media/${key}` : null);
