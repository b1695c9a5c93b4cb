import { use, type ReactNode } from 'react';
import { Archive, Gift, Heart, Lock, Loader } from 'lucide-react';
import { CoverArt, IconButton, Skeleton, cx } from '../../../components/ui';
import { formatDuration } from '../../../lib/format';
import { AddToPlaylistMenu } from '../../playlists';
import { SongPlayButton, SongPreviewButton, usePlaySongInList, type SongListPlayContext } from '../../player';
import type { Song } from '../catalog.types';
import { SongLockActionContext } from '../../../components/song-lock-action';
import { AlbumLink, ArtistCredit, DurationColumn, unlockText } from '../../../components/song-row-parts';

export interface SongListProps {
  songs: Song[];
  /** Ids the signed-in user likes. */
  likedIds?: readonly string[];
  onToggleLike?: (song: Song) => void;
  /** Show the album column on wide screens. */
  showAlbum?: boolean;
  /** Numbered rows instead of covers (album track lists). */
  numbered?: boolean;
  /** First row's number when paging. */
  startIndex?: number;
  label?: string;
  /** Where the list comes from: playing a row makes this list the player's queue ('all' by default). */
  playContext?: SongListPlayContext;
  /** One more control per row, before its like button (e.g. the purchases page's download menu). */
  rowAction?: (song: Song) => ReactNode;
}

const DEFAULT_PLAY_CONTEXT: SongListPlayContext = { type: 'all' };

/** A song its artist deleted after the viewer bought it: still theirs, gone from the catalogue. */
function RemovedMark() {
  return (
    <span
      className="ml-2 inline-flex min-w-0 shrink-0 items-center gap-1 text-muted sm:shrink"
      title="Its artist removed it from the catalogue; you keep it because you bought it"
    >
      <Archive size={12} strokeWidth={1.75} aria-hidden="true" className="shrink-0" />
      {/* Phones have room for one word beside the artist's name. */}
      <span className="truncate sm:hidden">Removed</span>
      <span className="hidden truncate sm:inline">No longer in the catalogue</span>
    </span>
  );
}

/** A click on the row plays it, unless it landed on one of the row's own links or buttons, or in a dialog. */
function isOwnControl(target: EventTarget): boolean {
  return (
    target instanceof Element && target.closest('a, button, input, label, [role="menu"], dialog') !== null
  );
}

const rowGrid =
  'grid grid-cols-[40px_minmax(0,1fr)_auto] items-center gap-3 md:gap-4 lg:grid-cols-[40px_minmax(0,1.4fr)_minmax(0,1fr)_13rem]';
/**
 * Each row is its own grid, so the actions column has one fixed width per list: wide enough for "Preview" and a
 * lock's "Subscribe $4.99/month" when any song of the list is locked, else just playlist, like and duration.
 */
const lockedRowGrid =
  'grid grid-cols-[40px_minmax(0,1fr)_auto] items-center gap-3 md:gap-4 lg:grid-cols-[40px_minmax(0,1.4fr)_minmax(0,1fr)_27rem]';

/** Why a song cannot be played, as text (never colour alone). */
function lockText(song: Song): string | null {
  return song.canPlay === false ? unlockText(song) : null;
}

function SongRow({
  song,
  songs,
  position,
  playContext,
  onPlay,
  index,
  liked,
  onToggleLike,
  showAlbum,
  numbered,
  grid,
  rowAction,
}: {
  song: Song;
  songs: Song[];
  position: number;
  playContext: SongListPlayContext;
  onPlay: () => void;
  index: number;
  liked: boolean;
  onToggleLike?: (song: Song) => void;
  showAlbum: boolean;
  numbered: boolean;
  grid: string;
  rowAction?: (song: Song) => ReactNode;
}) {
  const lock = lockText(song);
  const LockAction = use(SongLockActionContext);
  // A free song the viewer plays: the app's lock action offers it for sale (the download), or nothing.
  const free = song.freeToStream && song.canPlay !== false;
  const processing = song.status && song.status !== 'ready';
  return (
    <li
      onClick={(event) => {
        if (!isOwnControl(event.target)) onPlay();
      }}
      className={cx(
        grid,
        'group/row cursor-pointer rounded-control px-2 py-2 transition-colors duration-150 ease-out hover:bg-surface',
      )}
    >
      <SongPlayButton songs={songs} index={position} context={playContext}>
        {numbered ? (
          <span className="w-full text-center text-body text-muted tabular-nums">{index}</span>
        ) : (
          <CoverArt
            src={song.coverImage}
            alt={`${song.title} cover`}
            iconSize={18}
            small
            className="size-10"
          />
        )}
      </SongPlayButton>
      <div className="min-w-0">
        {/* Phones give the title two lines rather than cut it to a few characters; wider screens one. */}
        <p className="flex min-w-0 items-center gap-2">
          <span className="line-clamp-2 text-body font-medium break-words text-text sm:line-clamp-none sm:truncate">
            {song.title}
          </span>
          {song.freeToStream ? <FreeBadge /> : null}
        </p>
        <p className="flex min-w-0 items-baseline text-meta text-muted">
          <ArtistCredit song={song} className="min-w-0 truncate" />
          {showAlbum && song.album?._id ? (
            // Narrow screens have no album column: the album joins the secondary line ("Artist · Album"), except on
            // phones, where the artist keeps the room. Each link truncates inside its own box.
            <span className="hidden min-w-0 shrink-[2] sm:flex lg:hidden">
              <span aria-hidden="true" className="shrink-0 whitespace-pre">
                {' · '}
              </span>
              <AlbumLink album={song.album} className="min-w-0 truncate" />
            </span>
          ) : null}
          {/* The duration column is left out on phones: the time joins this line. */}
          <span className="shrink-0 whitespace-pre tabular-nums sm:hidden">
            <span aria-hidden="true">{' · '}</span>
            <span className="sr-only">Duration </span>
            {formatDuration(song.duration)}
          </span>
          {processing ? (
            <span className="ml-2 inline-flex shrink-0 items-center gap-1 text-muted">
              <Loader size={12} strokeWidth={1.75} aria-hidden="true" />
              {song.status === 'failed' ? 'Unavailable' : 'Processing'}
            </span>
          ) : null}
          {song.removed ? <RemovedMark /> : null}
        </p>
      </div>
      {showAlbum ? (
        <p className="hidden min-w-0 truncate text-meta text-muted lg:block">
          {song.album?._id ? <AlbumLink album={song.album} /> : null}
        </p>
      ) : (
        <span className="hidden lg:block" />
      )}
      <div className="flex items-center justify-end gap-1 md:gap-3">
        {lock && !processing ? (
          <SongPreviewButton songs={songs} index={position} context={playContext} />
        ) : null}
        {(lock || free) && LockAction ? (
          <LockAction song={song} />
        ) : lock ? (
          <span
            title={`Locked: ${lock}`}
            className="inline-flex items-center gap-1 rounded-pill border border-line px-1.5 py-0.5 text-meta text-muted tabular-nums sm:px-2"
          >
            <Lock size={12} strokeWidth={1.75} aria-hidden="true" />
            <span className="sr-only">Locked: </span>
            <span className="sr-only sm:not-sr-only sm:whitespace-nowrap!">{lock}</span>
          </span>
        ) : null}
        {processing ? null : <AddToPlaylistMenu song={song} />}
        {rowAction?.(song)}
        {onToggleLike ? (
          <IconButton
            label={liked ? `Remove ${song.title} from liked songs` : `Like ${song.title}`}
            aria-pressed={liked}
            size="sm"
            variant={liked ? 'active' : 'ghost'}
            onClick={() => onToggleLike(song)}
          >
            <Heart size={18} strokeWidth={1.75} fill={liked ? 'currentColor' : 'none'} aria-hidden="true" />
          </IconButton>
        ) : null}
        <DurationColumn seconds={song.duration} />
      </div>
    </li>
  );
}

/** "Free": the artist lets anyone signed in stream the song in full (text and icon, never colour alone). */
function FreeBadge() {
  return (
    <span
      title="Free to stream: anyone signed in plays the whole song"
      className="inline-flex shrink-0 items-center gap-1 rounded-pill border border-ok/50 px-1.5 py-px text-[11px] leading-4 font-semibold tracking-wide text-ok uppercase"
    >
      <Gift size={11} strokeWidth={2} aria-hidden="true" />
      Free
    </span>
  );
}

/** A list of songs: cover or number, title and artist, album on wide screens, lock, like and duration. */
export function SongList({
  songs,
  likedIds = [],
  onToggleLike,
  showAlbum = true,
  numbered = false,
  startIndex = 1,
  label = 'Songs',
  playContext = DEFAULT_PLAY_CONTEXT,
  rowAction,
}: SongListProps) {
  const player = usePlaySongInList(songs, playContext);
  const grid = songs.some((song) => lockText(song) !== null || song.freeToStream) ? lockedRowGrid : rowGrid;
  return (
    <ol aria-label={label} className="flex flex-col">
      {songs.map((song, position) => (
        <SongRow
          key={song._id}
          song={song}
          songs={songs}
          position={position}
          playContext={playContext}
          onPlay={() => player.play(position)}
          index={startIndex + position}
          liked={likedIds.includes(song._id)}
          onToggleLike={onToggleLike}
          showAlbum={showAlbum}
          numbered={numbered}
          grid={grid}
          rowAction={rowAction}
        />
      ))}
    </ol>
  );
}

export function SongListSkeleton({ count = 8 }: { count?: number }) {
  return (
    <div aria-hidden="true" className="flex flex-col">
      {Array.from({ length: count }, (_, index) => (
        <div key={index} className={cx(rowGrid, 'px-2 py-2')}>
          <Skeleton className="size-10" />
          <div className="flex flex-col gap-1.5">
            <Skeleton className="h-4 w-2/3" />
            <Skeleton className="h-3 w-1/3" />
          </div>
          <Skeleton className="hidden h-3 w-1/2 lg:block" />
          <Skeleton className="h-3 w-10" />
        </div>
      ))}
    </div>
  );
}
