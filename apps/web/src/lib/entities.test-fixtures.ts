import type { Album, Artist, Song, User } from '@backbeat/contract';

/**
 * Builders of the contract's shapes for unit tests, one per entity; each test overrides what it is about.
 */

/** A listener: no purchases, likes, playlists or preferred genres. */
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

/** A ready, locked purchase-only single on an album, $1.29. */
export function makeSong(overrides: Partial<Song> = {}): Song {
  return {
    _id: 'song-1',
    title: 'Gravel & Grace',
    singer: 'The Velvet Static',
    coverImage: null,
    audioUrl: null,
    duration: 180,
    accessType: 'purchase-only',
    freeToStream: false,
    price: 129,
    currency: 'USD',
    genre: 'Folk',
    artist: { _id: 'artist-1', name: 'The Velvet Static' },
    album: { _id: 'album-1', title: 'Northbound', isPremium: false },
    status: 'ready',
    canPlay: false,
    previewStartSec: null,
    canDownload: false,
    createdAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** A premium album of four songs, $12.99. */
export function makeAlbum(overrides: Partial<Album> = {}): Album {
  return {
    _id: 'album-2',
    title: 'Midnight Protocol',
    description: '',
    cover: null,
    genre: 'Electronic',
    price: 1299,
    currency: 'USD',
    isPremium: true,
    artist: { _id: 'artist-2', name: 'Nova Reyes' },
    songCount: 4,
    releaseDate: '2025-01-01T00:00:00.000Z',
    createdAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** An artist with a $4.99 monthly subscription. */
export function makeArtist(overrides: Partial<Artist> = {}): Artist {
  return {
    _id: 'artist-2',
    name: 'Nova Reyes',
    bio: '',
    image: null,
    genres: ['Electronic'],
    subscriptionPrice: 499,
    currency: 'USD',
    ownerId: null,
    songCount: 6,
    albumCount: 2,
    allowSubscriberDownloads: false,
    createdAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}
