import type { ReactNode } from 'react';
import { AlertTriangle } from 'lucide-react';
import { Link } from 'react-router';
import { cx } from '../../../components/ui';
import type { Song } from '../../catalog';

/** Title and singer, or the stream error with an icon (never colour alone). */
export function NowPlayingMeta({
  song,
  error,
  size = 'md',
  onNavigate,
  linkSinger = true,
  badge,
  badgeLine = 'title',
}: {
  song: Song;
  error: string | null;
  size?: 'md' | 'lg';
  onNavigate?: () => void;
  /** False inside another control (a link may not sit inside a button). */
  linkSinger?: boolean;
  /** Shown after the title (e.g. the preview badge), or before the singer where the title needs the room. */
  badge?: ReactNode;
  badgeLine?: 'title' | 'singer';
}) {
  const singer = song.singer || song.artist?.name;
  return (
    <div className="min-w-0">
      <div className="flex min-w-0 items-center gap-2">
        <p
          className={cx('truncate font-semibold text-text', size === 'lg' ? 'text-h3' : 'text-body')}
          data-testid="player-title"
        >
          {song.title}
        </p>
        {badgeLine === 'title' ? badge : null}
      </div>
      {error ? (
        <p
          role="status"
          className={cx(
            'flex min-w-0 items-center gap-1.5 text-accent-2',
            size === 'lg' ? 'mt-1 text-body' : 'text-meta',
          )}
          data-testid="player-stream-error"
        >
          <AlertTriangle
            size={size === 'lg' ? 16 : 14}
            strokeWidth={1.75}
            aria-hidden="true"
            className="shrink-0"
          />
          <span className={size === 'lg' ? undefined : 'truncate'}>{error}</span>
        </p>
      ) : (
        <p
          className={cx(
            'flex min-w-0 items-center gap-2 text-muted',
            size === 'lg' ? 'mt-1 text-h4' : 'text-meta',
          )}
        >
          {badgeLine === 'singer' ? badge : null}
          <span className="min-w-0 truncate">
            {linkSinger && song.artist?._id ? (
              <Link
                to={`/artist/${encodeURIComponent(song.artist._id)}`}
                onClick={onNavigate}
                // Truncated by itself, so its box ends where its text is cut: an inline link in a truncated span
                // keeps its whole width and runs under the Like button beside it (axe target-size).
                className="inline-block max-w-full truncate rounded-control align-bottom hover:text-text hover:underline"
              >
                {singer}
              </Link>
            ) : (
              singer
            )}
          </span>
        </p>
      )}
    </div>
  );
}
