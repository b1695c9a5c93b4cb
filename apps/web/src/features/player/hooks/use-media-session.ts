import { useEffect } from 'react';
import type { Song } from '../../catalog';
import type { PlayerControls } from './use-player-controls';

/** Lock-screen and hardware-key controls through the Media Session API, where the browser has it. */
export function useMediaSession({
  song,
  playing,
  currentTime,
  duration,
  controls,
}: {
  song: Song | null;
  playing: boolean;
  currentTime: number;
  duration: number;
  controls: PlayerControls;
}): void {
  const session = typeof navigator !== 'undefined' ? navigator.mediaSession : undefined;

  useEffect(() => {
    if (!session || typeof MediaMetadata === 'undefined') return;
    session.metadata = song
      ? new MediaMetadata({
          title: song.title,
          artist: song.singer || song.artist?.name || '',
          album: song.album?.title ?? '',
          artwork: song.coverImage
            ? [{ src: new URL(song.coverImage, window.location.href).href, sizes: '512x512' }]
            : [],
        })
      : null;
  }, [session, song]);

  useEffect(() => {
    if (!session) return;
    session.playbackState = song ? (playing ? 'playing' : 'paused') : 'none';
  }, [session, song, playing]);

  useEffect(() => {
    if (!session?.setPositionState || !(duration > 0)) return;
    try {
      session.setPositionState({ duration, position: Math.min(currentTime, duration), playbackRate: 1 });
    } catch {
      // A position outside the duration while a new song loads; the next update fixes it.
    }
  }, [session, currentTime, duration]);

  const { togglePlay, next, previous, seekTo } = controls;
  useEffect(() => {
    if (!session) return;
    const handlers: Array<[MediaSessionAction, MediaSessionActionHandler]> = [
      ['play', () => togglePlayTo(true)],
      ['pause', () => togglePlayTo(false)],
      ['previoustrack', previous],
      ['nexttrack', next],
      ['seekto', (details) => details.seekTime !== undefined && seekTo(details.seekTime)],
    ];
    function togglePlayTo(wanted: boolean) {
      if (wanted !== playing) togglePlay();
    }
    for (const [action, handler] of handlers) {
      try {
        session.setActionHandler(action, handler);
      } catch {
        // The browser does not support this action.
      }
    }
    return () => {
      for (const [action] of handlers) {
        try {
          session.setActionHandler(action, null);
        } catch {
          // As above.
        }
      }
    };
  }, [session, playing, togglePlay, next, previous, seekTo]);
}
