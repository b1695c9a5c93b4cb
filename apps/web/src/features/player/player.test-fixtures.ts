import type { Song } from '../catalog';

export function makeSong(id: string, overrides: Partial<Song> = {}): Song {
  return {
    _id: id,
    title: `Song ${id}`,
    singer: 'Nova Reyes',
    coverImage: null,
    audioUrl: null,
    duration: 180,
    accessType: 'subscription',
    freeToStream: false,
    price: 99,
    currency: 'USD',
    genre: 'Electronic',
    artist: { _id: 'artist-1', name: 'Nova Reyes' },
    album: { _id: 'album-1', title: 'Neon Tides', isPremium: false },
    status: 'ready',
    canPlay: true,
    previewStartSec: null,
    canDownload: false,
    createdAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export const songsA = ['a1', 'a2', 'a3'].map((id) => makeSong(id));
export const library = ['l1', 'l2', 'l3', 'l4'].map((id) => makeSong(id));
