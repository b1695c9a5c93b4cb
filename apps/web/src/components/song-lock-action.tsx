import { createContext, type ComponentType } from 'react';
import type { Song } from '@backbeat/contract';
import { formatMoney } from '../lib/format';

/**
 * What a song row (or the player, at the end of a preview, with `look: 'header'`) shows in place of its lock
 * label when the viewer may not play the song (e.g. a buy button).
 * The app provides it, so the catalogue, the player and playlists do not depend on the features that sell songs;
 * without one, rows show the lock as text. Shared code, so those three features need not import one another for it.
 */
export type SongLockAction = ComponentType<{ song: Song; look?: 'row' | 'header' }>;

export const SongLockActionContext = createContext<SongLockAction | null>(null);

/** What unlocks a song the viewer may not play, as the lock's text: the album, a subscription, or its price. */
export function unlockText(
  song: Pick<Song, 'accessType' | 'price' | 'currency'> & {
    album?: Pick<NonNullable<Song['album']>, 'isPremium'> | null;
  },
): string {
  if (song.album?.isPremium) return 'Buy album';
  if (song.accessType === 'subscription') return 'Subscribe';
  return formatMoney(song.price, song.currency);
}
