import { use, useState, type DragEvent, type MouseEvent, type ReactNode } from 'react';
import { ArrowDown, ArrowUp, GripVertical, ListMusic, Loader, Lock, Pause, Play, X } from 'lucide-react';
import { IconButton, cx } from '../../../components/ui';
import { SongLockActionContext } from '../../../components/song-lock-action';
import { AlbumLink, ArtistCredit, DurationColumn, unlockText } from '../../../components/song-row-parts';
import { dropIndex } from '../playlist-order';
import type { PlaylistDetail } from '../playlists.types';

type PlaylistSong = PlaylistDetail['songs'][number];

/** A song the player may start: ready, and allowed for this listener. */
export const isPlayable = (song: PlaylistSong) => song.canPlay && song.status === 'ready';

/** Why a song cannot be played, as text (never colour alone). */
function unavailableText(song: PlaylistSong): string | null {
  if (song.status === 'processing') return 'Processing';
  if (song.status === 'failed') return 'Unavailable';
  return song.canPlay ? null : unlockText(song);
}

/** The actions column has one width on wide screens, so the album column lines up from row to row. */
const rowGrid =
  'grid grid-cols-[40px_minmax(0,1fr)_auto] items-center gap-3 md:grid-cols-[16px_40px_minmax(0,1fr)_15.5rem] md:gap-4 lg:grid-cols-[16px_40px_minmax(0,1.4fr)_minmax(0,1fr)_15.5rem]';

interface DragState {
  from: number;
  over: number;
  after: boolean;
}

export interface PlaylistTrackListProps {
  songs: PlaylistSong[];
  label: string;
  /** The song the player has selected, highlighted in the list. */
  activeSongId?: string | null;
  /** Whether the active song is playing (its button then pauses). */
  playing?: boolean;
  onPlay: (song: PlaylistSong) => void;
  onRemove: (song: PlaylistSong) => void;
  onMove: (from: number, to: number) => void;
  /** What a locked, ready song offers besides its lock (the page passes the player's preview button). */
  previewAction?: (song: PlaylistSong, index: number) => ReactNode;
}

/**
 * The songs of a playlist in order. Each row plays on click (when playable), moves with keyboard-accessible
 * up/down buttons or by dragging (wide screens), and can be removed.
 */
export function PlaylistTrackList({
  songs,
  label,
  activeSongId,
  playing = false,
  onPlay,
  onRemove,
  onMove,
  previewAction,
}: PlaylistTrackListProps) {
  const [drag, setDrag] = useState<DragState | null>(null);
  const [announcement, setAnnouncement] = useState('');
  // The app's buy / subscribe button for a locked song (as in every other song list), if it provides one.
  const LockAction = use(SongLockActionContext);

  function move(from: number, to: number) {
    const song = songs[from];
    if (!song || to < 0 || to >= songs.length || to === from) return;
    onMove(from, to);
    setAnnouncement(`Moved ${song.title} to position ${to + 1} of ${songs.length}`);
  }

  function onDragOver(event: DragEvent<HTMLLIElement>, over: number) {
    if (!drag) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    const box = event.currentTarget.getBoundingClientRect();
    const after = event.clientY > box.top + box.height / 2;
    if (drag.over !== over || drag.after !== after) setDrag({ ...drag, over, after });
  }

  function onDrop(event: DragEvent<HTMLLIElement>) {
    event.preventDefault();
    if (!drag) return;
    const to = dropIndex(drag.from, drag.over, drag.after);
    setDrag(null);
    if (to !== null) move(drag.from, to);
  }

  return (
    <>
      <ol aria-label={label} className="flex flex-col" onDragEnd={() => setDrag(null)}>
        {songs.map((song, index) => {
          const unavailable = unavailableText(song);
          const playable = isPlayable(song);
          const active = song._id === activeSongId;
          const showLineBefore = drag?.over === index && !drag.after && drag.from !== index;
          const showLineAfter = drag?.over === index && drag.after && drag.from !== index;
          const playFromRow = (event: MouseEvent<HTMLLIElement>) => {
            // Clicks on the row's own controls and links do their own thing.
            if ((event.target as HTMLElement).closest('button, a')) return;
            if (playable) onPlay(song);
          };
          return (
            <li
              key={song._id}
              draggable
              aria-current={active ? 'true' : undefined}
              onDragStart={(event) => {
                event.dataTransfer.effectAllowed = 'move';
                event.dataTransfer.setData('text/plain', song._id);
                setDrag({ from: index, over: index, after: false });
              }}
              onDragOver={(event) => onDragOver(event, index)}
              onDrop={onDrop}
              onClick={playFromRow}
              className={cx(
                rowGrid,
                'group relative rounded-control px-2 py-2 transition-colors duration-150 ease-out hover:bg-surface',
                playable && 'cursor-pointer',
                active && 'bg-surface-2',
                drag?.from === index && 'opacity-50',
              )}
            >
              {showLineBefore ? (
                <span
                  aria-hidden="true"
                  className="absolute inset-x-2 -top-px h-0.5 rounded-pill bg-accent"
                />
              ) : null}
              {showLineAfter ? (
                <span
                  aria-hidden="true"
                  className="absolute inset-x-2 -bottom-px h-0.5 rounded-pill bg-accent"
                />
              ) : null}
              <span
                aria-hidden="true"
                title="Drag to reorder"
                className="hidden cursor-grab text-muted active:cursor-grabbing md:block"
              >
                <GripVertical size={16} strokeWidth={1.75} />
              </span>
              {playable ? (
                <button
                  type="button"
                  aria-label={active && playing ? `Pause ${song.title}` : `Play ${song.title}`}
                  onClick={() => onPlay(song)}
                  className="relative size-10 overflow-hidden rounded-control bg-surface-2"
                >
                  <TrackCover song={song} />
                  <span
                    className={cx(
                      'absolute inset-0 flex items-center justify-center bg-black/55 transition-opacity duration-150',
                      active
                        ? 'text-accent opacity-100'
                        : 'text-text opacity-0 group-hover:opacity-100 group-focus-within:opacity-100',
                    )}
                  >
                    {active && playing ? (
                      <Pause size={18} strokeWidth={1.75} fill="currentColor" aria-hidden="true" />
                    ) : (
                      <Play size={18} strokeWidth={1.75} fill="currentColor" aria-hidden="true" />
                    )}
                  </span>
                </button>
              ) : (
                <span className="relative size-10 overflow-hidden rounded-control bg-surface-2">
                  <TrackCover song={song} />
                </span>
              )}
              <div className="min-w-0">
                <p className={cx('truncate text-body font-medium', active ? 'text-accent' : 'text-text')}>
                  <span className="sr-only">{index + 1}. </span>
                  {song.title}
                </p>
                <p className="truncate text-meta text-muted">
                  <ArtistCredit song={song} />
                </p>
              </div>
              <p className="hidden min-w-0 truncate text-meta text-muted lg:block">
                {song.album?._id ? <AlbumLink album={song.album} /> : null}
              </p>
              <div className="flex items-center justify-end gap-0.5 md:gap-1">
                {unavailable && song.status === 'ready' ? previewAction?.(song, index) : null}
                {unavailable && song.status === 'ready' && LockAction ? (
                  <LockAction song={song} />
                ) : unavailable ? (
                  <span
                    title={`Cannot play: ${unavailable}`}
                    className="mr-1 inline-flex items-center gap-1 rounded-pill border border-line px-1.5 py-0.5 text-meta text-muted tabular-nums sm:px-2"
                  >
                    {song.status === 'ready' ? (
                      <Lock size={12} strokeWidth={1.75} aria-hidden="true" />
                    ) : (
                      <Loader size={12} strokeWidth={1.75} aria-hidden="true" />
                    )}
                    <span className="sr-only">{song.status === 'ready' ? 'Locked: ' : 'Not playable: '}</span>
                    <span className="sr-only sm:not-sr-only">{unavailable}</span>
                  </span>
                ) : null}
                <IconButton
                  size="sm"
                  label={`Move ${song.title} up`}
                  disabled={index === 0}
                  onClick={() => move(index, index - 1)}
                >
                  <ArrowUp size={16} strokeWidth={1.75} aria-hidden="true" />
                </IconButton>
                <IconButton
                  size="sm"
                  label={`Move ${song.title} down`}
                  disabled={index === songs.length - 1}
                  onClick={() => move(index, index + 1)}
                >
                  <ArrowDown size={16} strokeWidth={1.75} aria-hidden="true" />
                </IconButton>
                <IconButton
                  size="sm"
                  label={`Remove ${song.title} from this playlist`}
                  onClick={() => onRemove(song)}
                >
                  <X size={16} strokeWidth={1.75} aria-hidden="true" />
                </IconButton>
                <DurationColumn seconds={song.duration} />
              </div>
            </li>
          );
        })}
      </ol>
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
    </>
  );
}

function TrackCover({ song }: { song: PlaylistSong }) {
  const [failed, setFailed] = useState(false);
  return song.coverImage && !failed ? (
    <img
      src={song.coverImage}
      alt=""
      loading="lazy"
      decoding="async"
      onError={() => setFailed(true)}
      className="absolute inset-0 size-full object-cover"
    />
  ) : (
    <span className="absolute inset-0 flex items-center justify-center bg-gradient-to-br from-surface-2 to-line text-muted">
      <ListMusic size={18} strokeWidth={1.75} aria-hidden="true" />
    </span>
  );
}
