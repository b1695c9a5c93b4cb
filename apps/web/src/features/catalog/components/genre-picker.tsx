import { Check } from 'lucide-react';
import { Button, EmptyState, Skeleton, cx } from '../../../components/ui';
import { queryErrorText } from '../../../lib/api-query';
import { useGetGenresQuery } from '../catalog.api';

/** The catalogue's genres as toggle chips (the genre page and settings): skeleton chips until they load. */
/**
 * Two equal columns on phones, where chips that wrap by their text width moved when the web font replaced the
 * fallback (and the skeleton's rows differed from the list's): a layout shift of 0.12 on /genres at 390 px. The
 * columns keep every chip where the skeleton put it. Wider screens wrap chips by their width.
 */
const LAYOUT = 'grid grid-cols-2 gap-3 sm:flex sm:flex-wrap';

export function GenrePicker({
  selected,
  onToggle,
  size = 'md',
}: {
  selected: readonly string[];
  onToggle: (name: string) => void;
  size?: 'sm' | 'md';
}) {
  const { data: genres, isLoading, isError, error, refetch } = useGetGenresQuery();
  const chip = size === 'sm' ? 'h-9 px-4' : 'h-11 px-5';
  if (isLoading) {
    return (
      <div className={LAYOUT} aria-hidden="true">
        {Array.from({ length: 10 }, (_, index) => (
          <Skeleton
            key={index}
            className={cx('w-full rounded-pill sm:w-28', size === 'sm' ? 'h-9' : 'h-11')}
          />
        ))}
      </div>
    );
  }
  if (isError) {
    return (
      <EmptyState
        tone="error"
        title="Genres could not be loaded"
        description={queryErrorText(error, 'Failed to fetch genres')}
        action={<Button onClick={() => void refetch()}>Try again</Button>}
      />
    );
  }
  if (!genres || genres.length === 0) {
    return (
      <EmptyState
        title="No genres yet"
        description="The catalogue has no genres yet. Please come back once music has been added."
      />
    );
  }
  return (
    <fieldset>
      <legend className="sr-only">Genres</legend>
      <ul className={LAYOUT}>
        {genres.map((genre) => {
          const active = selected.includes(genre.name);
          return (
            <li key={genre._id}>
              <button
                type="button"
                aria-pressed={active}
                onClick={() => onToggle(genre.name)}
                className={cx(
                  'inline-flex w-full items-center justify-center gap-2 rounded-pill border text-body font-semibold transition-colors duration-150 ease-out sm:w-auto',
                  chip,
                  active
                    ? 'border-accent bg-accent text-bg'
                    : 'border-line bg-surface text-text hover:border-muted hover:bg-surface-2',
                )}
              >
                {active ? <Check size={16} strokeWidth={2} aria-hidden="true" /> : null}
                {genre.name}
              </button>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}
