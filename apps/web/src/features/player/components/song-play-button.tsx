import { useEffect, useRef, type ReactNode } from 'react';
import { Pause, Play } from 'lucide-react';
import { cx } from '../../../components/ui';
import type { Song } from '../../catalog';
import { usePlayerDispatch, usePlayerSelector, usePlayerStore } from '../hooks/use-player-store';
import { selectIsPlaying, selectSelectedSong } from '../player.selectors';
import { playFromList, togglePlay } from '../player.slice';
import type { PlaybackContextType } from '../player.types';
import {
  claimAlbumPrefetch,
  PREFETCH_INTENT_DELAY_MS,
  prefetchSongAddress,
  releaseAlbumPrefetch,
} from '../stream-prefetch';
import { prefetchAlbumStream } from '../stream.slice';
import { whenIdle } from '../idle';

export interface SongListPlayContext {
  type: PlaybackContextType;
  id?: string | null;
}

/**
 * An album's track list on screen: its stream addresses come in one call once the page is idle, so the first
 * click waits only for the audio (the playlist, key and first segment), not for an address as well.
 */
function useAlbumAddressPrefetch(songs: Song[], context: SongListPlayContext) {
  const dispatch = usePlayerDispatch();
  const albumId = context.type === 'album' ? (context.id ?? null) : null;
  const playable = songs.some((song) => song.canPlay !== false && song.status === 'ready');
  useEffect(() => {
    if (!albumId || !playable) return;
    return whenIdle(() => {
      if (!claimAlbumPrefetch(albumId)) return;
      void dispatch(prefetchAlbumStream(albumId)).then((result) => {
        if (prefetchAlbumStream.rejected.match(result)) releaseAlbumPrefetch(albumId);
      });
    });
  }, [dispatch, albumId, playable]);
}

/**
 * Plays `songs[index]` within its list, or toggles play/pause when it is already the current song. Locked songs
 * try too: the server's refusal shows the SPEC message.
 */
export function usePlaySongInList(songs: Song[], context: SongListPlayContext) {
  const dispatch = usePlayerDispatch();
  useAlbumAddressPrefetch(songs, context);
  const current = usePlayerSelector(selectSelectedSong);
  const playing = usePlayerSelector(selectIsPlaying);
  return {
    isCurrent: (song: Song) => current?._id === song._id,
    isPlaying: (song: Song) => current?._id === song._id && playing,
    play: (index: number) => {
      const song = songs[index];
      if (!song) return;
      if (current?._id === song._id) dispatch(togglePlay());
      else dispatch(playFromList({ songs, index, context: { type: context.type, id: context.id ?? null } }));
    },
  };
}

/**
 * Intent to play (the pointer resting on the button, or focus): the song's stream address is asked for before the
 * click, so pressing play waits only for the audio. Songs the catalogue marks locked or not ready are left alone.
 */
function usePlayIntent(song: Song | undefined) {
  const store = usePlayerStore();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const cancel = () => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
  };
  useEffect(() => cancel, []);
  const start = () => {
    cancel();
    if (!song || song.canPlay === false || song.status !== 'ready') return;
    const { stream, player } = store.getState();
    if (player.selectedSong?._id === song._id || stream.fetchedIds.includes(song._id)) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      prefetchSongAddress(song._id);
    }, PREFETCH_INTENT_DELAY_MS);
  };
  return { onPointerEnter: start, onFocus: start, onPointerLeave: cancel, onBlur: cancel };
}

/** The row's leading cell (cover or number) as a play button, with a play/pause overlay on hover and focus. */
export function SongPlayButton({
  songs,
  index,
  context,
  children,
}: {
  songs: Song[];
  index: number;
  context: SongListPlayContext;
  children: ReactNode;
}) {
  const { isCurrent, isPlaying, play } = usePlaySongInList(songs, context);
  const song = songs[index];
  const intent = usePlayIntent(song);
  if (!song) return <>{children}</>;
  const current = isCurrent(song);
  const playing = isPlaying(song);
  // The button holds only icons, laid over the cover or number: its name is exactly what it does.
  return (
    <div className="relative flex size-10 items-center justify-center">
      <div className={cx('contents', current && '[&>*]:opacity-40')}>{children}</div>
      <button
        type="button"
        {...intent}
        onClick={(event) => {
          event.stopPropagation();
          play(index);
        }}
        aria-label={playing ? `Pause ${song.title}` : `Play ${song.title}`}
        aria-current={current ? 'true' : undefined}
        data-testid="song-play"
        className={cx(
          'absolute inset-0 flex items-center justify-center rounded-control bg-bg/60 text-text transition-opacity duration-150',
          current
            ? 'opacity-100'
            : 'opacity-0 group-hover/row:opacity-100 hover:opacity-100 focus-visible:opacity-100',
        )}
      >
        {playing ? (
          <Pause
            size={18}
            strokeWidth={1.75}
            fill="currentColor"
            aria-hidden="true"
            className="text-accent"
          />
        ) : (
          <Play
            size={18}
            strokeWidth={1.75}
            fill="currentColor"
            aria-hidden="true"
            className={current ? 'text-accent' : undefined}
          />
        )}
      </button>
    </div>
  );
}
