import { Link } from 'react-router';
import type { Song } from '@backbeat/contract';
import { formatDuration, formatMoney } from '../lib/format';
import { cx } from './ui';

/**
 * Parts of a song row shared by the catalogue's and the playlists' track lists (neither feature imports the other
 * for them): the artist and album links, the duration column and the lock's text.
 */

const linkClass = 'hover:text-text hover:underline';

/** Who sings the song, linked to its artist's page when the song has an artist. */
export function ArtistCredit({
  song,
  className,
}: {
  song: { singer: string; artist?: Pick<NonNullable<Song['artist']>, '_id' | 'name'> | null };
  /** Also given to the plain text when there is no artist to link. */
  className?: string;
}) {
  if (song.artist?._id) {
    return (
      <Link to={`/artist/${encodeURIComponent(song.artist._id)}`} className={cx(className, linkClass)}>
        {song.singer || song.artist.name}
      </Link>
    );
  }
  return className ? <span className={className}>{song.singer}</span> : song.singer;
}

/** The song's album, linked to the album's page. */
export function AlbumLink({
  album,
  className,
}: {
  album: Pick<NonNullable<Song['album']>, '_id' | 'title'>;
  className?: string;
}) {
  return (
    <Link to={`/album/${encodeURIComponent(album._id)}`} className={cx(linkClass, className)}>
      {album.title}
    </Link>
  );
}

/** The duration column, from `sm` up (phones show the time on the row's secondary line). */
export function DurationColumn({ seconds }: { seconds: number }) {
  return (
    <span className="hidden w-10 text-right text-meta text-muted tabular-nums sm:inline">
      <span className="sr-only">Duration </span>
      {formatDuration(seconds)}
    </span>
  );
}

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
