/** Sections several screens share (they compose features, so they live beside the pages, not in components/). */
import type { ReactNode } from 'react';
import { Section } from '../../components/ui';
import { useSongLikes } from '../../features/auth';
import { CoverGrid, SongList, type SongListProps } from '../../features/catalog';

/**
 * A titled section of songs the listener can play and like (home, search, purchases, discover). With no songs it
 * shows `empty`, or nothing at all when there is no `empty`.
 */
export function SongShelf({
  title,
  headingId,
  label = title,
  note,
  action,
  empty,
  ...list
}: Omit<SongListProps, 'label' | 'likedIds' | 'onToggleLike'> & {
  title: string;
  headingId: string;
  /** The list's accessible name (the title unless given). */
  label?: string;
  note?: string;
  action?: ReactNode;
  empty?: ReactNode;
}) {
  const { likedIds, toggleLike } = useSongLikes();
  if (list.songs.length === 0 && !empty) return null;
  return (
    <Section title={title} headingId={headingId} action={action}>
      {note ? <p className="-mt-2 mb-3 text-meta text-muted">{note}</p> : null}
      {list.songs.length === 0 ? (
        empty
      ) : (
        <SongList {...list} label={label} likedIds={likedIds} onToggleLike={toggleLike} />
      )}
    </Section>
  );
}

/** A titled section with a grid of album or artist cards; nothing at all when there are none. */
export function CoverShelf<T>({
  title,
  headingId,
  label = title,
  action,
  items,
  children: renderItem,
}: {
  title: string;
  headingId: string;
  /** The grid's accessible name (the title unless given). */
  label?: string;
  action?: ReactNode;
  items: T[];
  /** One card, with its key. */
  children: (item: T) => ReactNode;
}) {
  if (items.length === 0) return null;
  return (
    <Section title={title} headingId={headingId} action={action}>
      <CoverGrid label={label}>{items.map((item) => renderItem(item))}</CoverGrid>
    </Section>
  );
}
