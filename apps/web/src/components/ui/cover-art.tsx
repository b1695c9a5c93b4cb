import { useState } from 'react';
import { Disc3, Music, UserRound } from 'lucide-react';
import { cx } from './class-names';

const fallbackIcons = { song: Music, album: Disc3, artist: UserRound };

/**
 * Square (or round) cover in a fixed aspect-ratio box, so nothing shifts while it loads. Falls back to an icon
 * when there is no image or it fails to load.
 */
export function CoverArt({
  src,
  alt,
  kind = 'song',
  round = false,
  small = false,
  className,
  iconSize = 28,
  eager = false,
}: {
  src: string | null | undefined;
  alt: string;
  kind?: keyof typeof fallbackIcons;
  round?: boolean;
  /** Small covers in rows use the control radius. */
  small?: boolean;
  className?: string;
  iconSize?: number;
  eager?: boolean;
}) {
  const [failed, setFailed] = useState(false);
  const Icon = fallbackIcons[kind];
  const showImage = Boolean(src) && !failed;
  return (
    <div
      className={cx(
        'relative aspect-square shrink-0 overflow-hidden bg-surface-2',
        round ? 'rounded-pill' : small ? 'rounded-control' : 'rounded-card',
        className,
      )}
    >
      {showImage ? (
        <img
          src={src ?? undefined}
          alt={alt}
          loading={eager ? 'eager' : 'lazy'}
          decoding="async"
          onError={() => setFailed(true)}
          className="absolute inset-0 size-full object-cover"
        />
      ) : (
        <div
          role="img"
          aria-label={alt}
          className="absolute inset-0 flex items-center justify-center bg-gradient-to-br from-surface-2 to-line text-muted"
        >
          <Icon size={iconSize} strokeWidth={1.75} aria-hidden="true" />
        </div>
      )}
    </div>
  );
}
