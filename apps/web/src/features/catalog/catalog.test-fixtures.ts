import type { Song } from '@backbeat/contract';

/** A song for unit tests: a ready, locked purchase-only single on an album, $1.29. */
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
