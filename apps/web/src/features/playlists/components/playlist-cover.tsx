import { useState } from 'react';
import { ListMusic } from 'lucide-react';
import { cx } from '../../../components/ui';

function Tile({ src }: { src: string }) {
  const [failed, setFailed] = useState(false);
  return failed ? (
    <span className="block size-full bg-gradient-to-br from-surface-2 to-line" />
  ) : (
    <img
      src={src}
      alt=""
      loading="lazy"
      decoding="async"
      onError={() => setFailed(true)}
      className="size-full object-cover"
    />
  );
}

/**
 * A playlist's cover in a fixed square: four covers as a 2x2 mosaic, else the first cover, else an icon on a
 * gradient. Decorative (the playlist's name is always shown beside it).
 */
export function PlaylistCover({
  covers,
  className,
  iconSize = 32,
}: {
  covers: readonly string[];
  className?: string;
  iconSize?: number;
}) {
  return (
    <div
      aria-hidden="true"
      className={cx('relative aspect-square shrink-0 overflow-hidden rounded-card bg-surface-2', className)}
    >
      {covers.length >= 4 ? (
        <div className="grid size-full grid-cols-2 grid-rows-2">
          {covers.slice(0, 4).map((src) => (
            <Tile key={src} src={src} />
          ))}
        </div>
      ) : covers[0] ? (
        <Tile src={covers[0]} />
      ) : (
        <div className="flex size-full items-center justify-center bg-gradient-to-br from-accent/25 via-surface-2 to-line text-muted">
          <ListMusic size={iconSize} strokeWidth={1.75} />
        </div>
      )}
    </div>
  );
}
