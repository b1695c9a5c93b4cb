import { useCallback, useMemo } from 'react';
import { toast } from '../../../lib/toast';
import { useSongLikes } from '../../auth';
import { PLAYER_MESSAGES, SEEK_STEP_S } from '../player.constants';
import { seek, setVolume, toggleMute, togglePlay, toggleRepeat } from '../player.slice';
import { leavePreview, playNext, playPrevious, previewSong } from '../player.thunks';
import { usePlayerDispatch, usePlayerStore } from './use-player-store';

/** Every player command in one place, shared by the controls, the keyboard shortcuts and the Media Session. */
export function usePlayerControls() {
  const dispatch = usePlayerDispatch();
  const store = usePlayerStore();
  const { likedIds, toggleLike } = useSongLikes();

  const seekBy = useCallback(
    (delta: number) => {
      dispatch(seek(store.getState().player.currentTime + delta));
    },
    [dispatch, store],
  );
  const toggleLikeCurrent = useCallback(() => {
    const song = store.getState().player.selectedSong;
    if (song) toggleLike(song);
  }, [store, toggleLike]);

  return useMemo(
    () => ({
      likedIds,
      togglePlay: () => dispatch(togglePlay()),
      next: () => dispatch(playNext()),
      previous: () => dispatch(playPrevious()),
      seekTo: (time: number) => dispatch(seek(time)),
      seekForward: () => seekBy(SEEK_STEP_S),
      seekBackward: () => seekBy(-SEEK_STEP_S),
      setVolume: (volume: number) => dispatch(setVolume(volume)),
      toggleMute: () => dispatch(toggleMute()),
      toggleRepeat: () => dispatch(toggleRepeat()),
      toggleLike: toggleLikeCurrent,
      /** Plays the current song's preview (again), within its list. */
      preview: () => {
        const { selectedSong, playbackContext } = store.getState().player;
        if (!selectedSong) return;
        const context = { type: playbackContext.type, id: playbackContext.id };
        dispatch(previewSong({ songs: [selectedSong], index: 0, context }));
      },
      dismissPreview: () => dispatch(leavePreview()),
      /** Lossless, reset master, the decorative button and shuffle are not built yet. */
      comingSoon: () => toast(PLAYER_MESSAGES.placeholder),
    }),
    [dispatch, likedIds, seekBy, store, toggleLikeCurrent],
  );
}

export type PlayerControls = ReturnType<typeof usePlayerControls>;
