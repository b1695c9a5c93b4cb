import { Lock } from 'lucide-react';
import type { Song } from '@backbeat/contract';
import { songOfferKind } from '../commerce.offers';
import { SongUnlockButton } from './song-unlock-button';

/**
 * The album page's lock for its own rows: a premium album is bought once, from the page's header, so its rows say
 * "Album only" (text and icon) instead of each repeating "Buy album"; any other lock keeps its own offer.
 */
export function AlbumTrackLock({ song, look = 'row' }: { song: Song; look?: 'row' | 'header' }) {
  if (songOfferKind(song) !== 'album') return <SongUnlockButton song={song} look={look} />;
  return (
    <span
      title={`Sold with the album "${song.album?.title ?? ''}": buy it above`}
      className="inline-flex h-8 shrink-0 items-center gap-1 rounded-pill border border-line px-2 text-meta text-muted lg:px-2.5"
    >
      <Lock size={12} strokeWidth={1.75} aria-hidden="true" />
      <span className="sr-only">Locked: </span>
      <span className="sr-only lg:not-sr-only lg:whitespace-nowrap!">Album only</span>
    </span>
  );
}
