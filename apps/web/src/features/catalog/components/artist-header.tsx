import type { ReactNode } from 'react';
import { CoverArt, Skeleton, cx } from '../../../components/ui';

/** The artist header's card and sizes while it loads, so nothing moves when the artist arrives. */
export function ArtistHeaderSkeleton({ eyebrowWidth }: { eyebrowWidth: string }) {
  return (
    <div aria-hidden="true" className="mb-10 rounded-card border border-line bg-surface p-6 md:p-8">
      <div className="flex flex-col items-center gap-6 md:flex-row md:items-end">
        <Skeleton className="size-40 shrink-0 rounded-pill md:size-48" />
        <div className="flex w-full flex-col items-center gap-3 md:items-start">
          <Skeleton className={cx('h-4', eyebrowWidth)} />
          <Skeleton className="h-10 w-64 max-w-full" />
          <Skeleton className="h-4 w-80 max-w-full" />
        </div>
      </div>
    </div>
  );
}

/**
 * An artist's header card (its page and the discover spotlight): a glow, the round picture, a small eyebrow word
 * and the name as the page's (`h1`) or a section's (`h2`) heading, then `children` beside the picture and `after`
 * below.
 */
export function ArtistHeader({
  artist,
  eyebrow,
  heading: Heading,
  glowClassName,
  children,
  after,
}: {
  artist: { name: string; image?: string | null };
  eyebrow: string;
  heading: 'h1' | 'h2';
  glowClassName: string;
  children: ReactNode;
  after?: ReactNode;
}) {
  return (
    <header className="relative mb-10 overflow-hidden rounded-card border border-line bg-surface p-6 md:p-8">
      <div
        aria-hidden="true"
        className={cx('pointer-events-none absolute -top-24 size-80 rounded-pill blur-[90px]', glowClassName)}
      />
      <div className="relative flex flex-col items-center gap-6 text-center md:flex-row md:items-end md:text-left">
        <CoverArt
          src={artist.image}
          alt={artist.name}
          kind="artist"
          round
          eager
          iconSize={48}
          className="size-40 shadow-2xl shadow-black/50 md:size-48"
        />
        <div className="min-w-0 flex-1">
          <p className="text-meta font-semibold uppercase tracking-wider text-accent">{eyebrow}</p>
          <Heading className="mt-1 break-words text-h2 font-bold tracking-tight md:text-h1">
            {artist.name}
          </Heading>
          {children}
        </div>
      </div>
      {after}
    </header>
  );
}
