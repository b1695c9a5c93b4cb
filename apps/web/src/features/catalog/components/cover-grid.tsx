import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { CoverArt, Skeleton, cx } from '../../../components/ui';
import type { Album, Artist } from '../catalog.types';

/** Grid of covers: 2 columns at 390 px, 3 at 768, 5-6 at 1280, 8 at 1920 (DESIGN.md). */
const gridClasses =
  'grid grid-cols-2 gap-4 md:grid-cols-3 md:gap-6 lg:grid-cols-4 xl:grid-cols-5 2xl:grid-cols-6 3xl:grid-cols-8';

export function CoverGrid({ children, label }: { children: ReactNode; label?: string }) {
  return (
    <ul className={gridClasses} aria-label={label}>
      {children}
    </ul>
  );
}

export function CoverGridSkeleton({ count = 6, round = false }: { count?: number; round?: boolean }) {
  return (
    <div className={gridClasses} aria-hidden="true">
      {Array.from({ length: count }, (_, index) => (
        <div key={index} className="flex flex-col gap-2">
          <Skeleton className={cx('aspect-square w-full', round ? 'rounded-pill' : 'rounded-card')} />
          <Skeleton className="h-4 w-3/4" />
          <Skeleton className="h-3 w-1/2" />
        </div>
      ))}
    </div>
  );
}

function CardLink({
  to,
  cover,
  title,
  subtitle,
  centered = false,
  action,
}: {
  to: string;
  cover: ReactNode;
  title: string;
  subtitle?: ReactNode;
  centered?: boolean;
  /** A control under the card (outside its link). */
  action?: ReactNode;
}) {
  return (
    <li className="min-w-0">
      <Link
        to={to}
        className={cx(
          'group -m-2 flex flex-col gap-2 rounded-card p-2 transition-colors duration-150 ease-out hover:bg-surface',
          centered && 'items-center text-center',
        )}
      >
        <div className="w-full transition-transform duration-150 ease-out group-hover:scale-[1.02]">
          {cover}
        </div>
        <div className="w-full min-w-0">
          <p className="truncate text-body font-semibold text-text">{title}</p>
          {subtitle ? <p className="truncate text-meta text-muted">{subtitle}</p> : null}
        </div>
      </Link>
      {action ? <div className="mt-2">{action}</div> : null}
    </li>
  );
}

export function ArtistCard({ artist }: { artist: Artist }) {
  const counts = [
    typeof artist.songCount === 'number'
      ? `${artist.songCount} ${artist.songCount === 1 ? 'song' : 'songs'}`
      : null,
    typeof artist.albumCount === 'number'
      ? `${artist.albumCount} ${artist.albumCount === 1 ? 'album' : 'albums'}`
      : null,
  ].filter(Boolean);
  return (
    <CardLink
      to={`/artist/${encodeURIComponent(artist._id)}`}
      cover={<CoverArt src={artist.image} alt={artist.name} kind="artist" round className="w-full" />}
      title={artist.name}
      subtitle={counts.length ? counts.join(' · ') : 'Artist'}
      centered
    />
  );
}

export function AlbumCard({
  album,
  showArtist = true,
  action,
}: {
  album: Album;
  showArtist?: boolean;
  /** A control under the card, e.g. the purchases page's download menu. */
  action?: ReactNode;
}) {
  const year = album.releaseDate ? new Date(album.releaseDate).getFullYear() : null;
  const subtitle = album.removed
    ? 'Yours · no longer in the catalogue'
    : showArtist
      ? album.artist?.name
      : year && !Number.isNaN(year)
        ? String(year)
        : 'Album';
  return (
    <CardLink
      to={`/album/${encodeURIComponent(album._id)}`}
      cover={<CoverArt src={album.cover} alt={`${album.title} cover`} kind="album" className="w-full" />}
      title={album.title}
      subtitle={subtitle}
      action={action}
    />
  );
}
