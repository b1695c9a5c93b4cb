import type { User } from '@backbeat/contract';
import { IMAGE_KEY_PATTERN, mediaUrl } from '../../platform/media-url';
import type { ProfileLists } from './profile.repository';
import type { UserRow } from './users.repository';

/** A picture uploaded in settings is a media-store key served under /api/media; a social one is its https address. */
export function profileImageUrl(value: string | null): string | null {
  if (!value) return null;
  return IMAGE_KEY_PATTERN.test(value) ? mediaUrl(value) : value;
}

/** The contract's User: the account row plus its lists; never the password hash. */
export function toUser(row: UserRow, lists: ProfileLists): User {
  return {
    _id: row.id,
    name: row.name,
    email: row.email,
    profileImage: profileImageUrl(row.profileImage),
    role: row.role,
    purchasedSongs: lists.purchasedSongs,
    purchasedAlbums: lists.purchasedAlbums,
    likedsong: lists.likedsong,
    preferredGenres: lists.preferredGenres,
    playlist: lists.playlist,
    purchaseHistory: lists.purchaseHistory,
    artistId: lists.artistId,
    createdAt: row.createdAt.toISOString(),
  };
}
