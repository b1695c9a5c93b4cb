import type { User } from '@backbeat/contract';
import type { ProfileLists } from './profile.repository';
import type { UserRow } from './users.repository';

/** The contract's User: the account row plus its lists; never the password hash. */
export function toUser(row: UserRow, lists: ProfileLists): User {
  return {
    _id: row.id,
    name: row.name,
    email: row.email,
    profileImage: row.profileImage,
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
