import { createContext, useContext } from 'react';
import type { Song } from '../../catalog';
import type { PlayerControls } from '../hooks/use-player-controls';

/** Everything the player's views show, computed once by the provider. */
export interface PlayerView {
  song: Song;
  playing: boolean;
  /** Seconds into the song (never the gapless timeline's time). */
  currentTime: number;
  /** The song's length: the media's once it reports the song's, the catalogue's until then (player-clock.ts). */
  duration: number;
  volume: number;
  muted: boolean;
  repeat: boolean;
  liked: boolean;
  /** Loading the address or the media: play is disabled. */
  busy: boolean;
  /** The current song's stream error message: play is disabled and a warning shows. */
  error: string | null;
  /** What plays is the song's preview: its window once known, and whether it reached its end. */
  preview: { window: { startSec: number; durationSec: number } | null; ended: boolean } | null;
  /** The song is locked and ready: the player offers its preview. */
  offerPreview: boolean;
  upNext: Song[];
  playSong: (song: Song) => void;
  openShortcuts: () => void;
  controls: PlayerControls;
}

export const PlayerViewContext = createContext<PlayerView | null>(null);

export function usePlayerView(): PlayerView {
  const view = useContext(PlayerViewContext);
  if (!view) throw new Error('usePlayerView must be used inside the player');
  return view;
}
