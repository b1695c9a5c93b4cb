import { useId } from 'react';
import { Plus, X } from 'lucide-react';
import { Button, FieldError, IconButton, cx, fieldControlClass } from '../../../components/ui';
import type { Song } from '../studio.types';

/**
 * The album form's song entries (SPEC section 3): one row per track, each picking one of the artist's songs;
 * rows can be added and removed. A song chosen in one row is not offered in the others.
 */
export function AlbumSongsField({
  entries,
  songs,
  onChange,
  error,
  loading,
  disabled,
}: {
  entries: string[];
  songs: Song[];
  onChange: (entries: string[]) => void;
  error?: string;
  loading: boolean;
  disabled: boolean;
}) {
  const legendId = useId();
  const errorId = useId();
  const update = (index: number, value: string) =>
    onChange(entries.map((entry, position) => (position === index ? value : entry)));
  // Removing the last row leaves one empty entry: the form always shows at least one.
  const remove = (index: number) => {
    const next = entries.filter((_, position) => position !== index);
    onChange(next.length > 0 ? next : ['']);
  };

  return (
    <fieldset
      aria-labelledby={legendId}
      aria-describedby={error ? errorId : undefined}
      className="flex min-w-0 flex-col gap-3"
    >
      <div className="flex items-baseline justify-between gap-3">
        <span id={legendId} className="text-body font-medium text-text">
          Songs
        </span>
        <span className="text-meta text-muted">
          {loading ? 'Loading songs…' : disabled ? 'Choose the artist first.' : 'In track order.'}
        </span>
      </div>
      <ol className="flex flex-col gap-2">
        {entries.map((entry, index) => {
          const takenElsewhere = new Set(entries.filter((_, position) => position !== index));
          const options = songs.filter((song) => song._id === entry || !takenElsewhere.has(song._id));
          return (
            <li key={index} className="flex items-center gap-2">
              <span className="w-6 shrink-0 text-right text-meta text-muted tabular-nums">{index + 1}</span>
              <select
                aria-label={`Track ${index + 1}`}
                name="songs"
                value={entry}
                disabled={disabled || loading}
                onChange={(event) => update(index, event.target.value)}
                aria-invalid={error ? true : undefined}
                className={cx(fieldControlClass(error), 'h-11 min-w-0 flex-1')}
              >
                <option value="">Choose a song</option>
                {options.map((song) => (
                  <option key={song._id} value={song._id}>
                    {song.title}
                    {song.album ? ` (${song.album.title})` : ''}
                  </option>
                ))}
              </select>
              <IconButton
                label={`Remove track ${index + 1}`}
                size="sm"
                onClick={() => remove(index)}
                disabled={entries.length === 1 && entry === ''}
              >
                <X size={16} strokeWidth={1.75} aria-hidden="true" />
              </IconButton>
            </li>
          );
        })}
      </ol>
      {error ? <FieldError id={errorId}>{error}</FieldError> : null}
      <div>
        <Button
          variant="secondary"
          size="sm"
          icon={<Plus size={16} strokeWidth={1.75} aria-hidden="true" />}
          onClick={() => onChange([...entries, ''])}
          disabled={disabled || entries.length >= Math.max(1, songs.length)}
        >
          Add song
        </Button>
      </div>
    </fieldset>
  );
}
