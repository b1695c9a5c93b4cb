import { Headphones, Pause } from 'lucide-react';
import { cx } from '../../../components/ui';
import type { Song } from '../../catalog';
import { usePlayerDispatch, usePlayerSelector } from '../hooks/use-player-store';
import { selectActivePreview, selectIsPlaying } from '../player.selectors';
import { togglePlay } from '../player.slice';
import { previewSong } from '../player.thunks';
import type { SongListPlayContext } from './song-play-button';

/**
 * "Preview" on a locked song's row: plays its 30-second preview within the list (pressing it again pauses). Shown
 * only for ready songs the viewer may not play; icon-only below 1024 px, where the title needs the room.
 */
export function SongPreviewButton({
  songs,
  index,
  context,
  compact = false,
}: {
  songs: Song[];
  index: number;
  context: SongListPlayContext;
  /** Icon only at every width (rows with many controls). */
  compact?: boolean;
}) {
  const dispatch = usePlayerDispatch();
  const preview = usePlayerSelector(selectActivePreview);
  const playing = usePlayerSelector(selectIsPlaying);
  const song = songs[index];
  if (!song || song.canPlay !== false || song.status !== 'ready') return null;
  const active = preview?.songId === song._id && !preview.ended;
  const name = active && playing ? `Pause preview of ${song.title}` : `Preview ${song.title} (30 seconds)`;
  return (
    <button
      type="button"
      onClick={() => {
        if (active) dispatch(togglePlay());
        else dispatch(previewSong({ songs, index, context: { type: context.type, id: context.id ?? null } }));
      }}
      aria-label={name}
      title={name}
      aria-pressed={active && playing}
      data-testid="song-preview"
      className={cx(
        'inline-flex h-8 min-w-8 shrink-0 items-center justify-center gap-1 rounded-pill border px-2 text-meta font-semibold transition-colors duration-150 ease-out',
        !compact && 'lg:px-2.5',
        active
          ? 'border-accent bg-accent/10 text-accent'
          : 'border-line text-text hover:border-muted hover:bg-surface-2',
      )}
    >
      {active && playing ? (
        <Pause size={12} strokeWidth={1.75} fill="currentColor" aria-hidden="true" />
      ) : (
        <Headphones size={12} strokeWidth={1.75} aria-hidden="true" />
      )}
      <span className={compact ? 'sr-only' : 'sr-only lg:not-sr-only lg:whitespace-nowrap!'}>Preview</span>
    </button>
  );
}
