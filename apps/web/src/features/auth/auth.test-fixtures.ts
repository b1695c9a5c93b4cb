import type { User } from '@backbeat/contract';

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    _id: 'user-1',
    name: 'Ada Listener',
    email: 'ada@example.com',
    profileImage: null,
    role: 'user',
    purchasedSongs: [],
    purchasedAlbums: [],
    likedsong: [],
    preferredGenres: [],
    playlist: [],
    purchaseHistory: [],
    artistId: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}
