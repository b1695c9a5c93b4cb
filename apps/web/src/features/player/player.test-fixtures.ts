import type { Song } from '../catalog';
import { makeSong as makeCatalogSong } from '../../lib/entities.test-fixtures';

/** A playable subscription song by Nova Reyes on "Neon Tides", titled after its id. */
export function makeSong(id: string, overrides: Partial<Song> = {}): Song {
  return makeCatalogSong({
    _id: id,
    title: `Song ${id}`,
    singer: 'Nova Reyes',
    accessType: 'subscription',
    canPlay: true,
    artist: { _id: 'artist-1', name: 'Nova Reyes' },
    album: { _id: 'album-1', title: 'Neon Tides', isPremium: false },
    ...overrides,
  });
}

export const songsA = ['a1', 'a2', 'a3'].map((id) => makeSong(id));
export const library = ['l1', 'l2', 'l3', 'l4'].map((id) => makeSong(id));
