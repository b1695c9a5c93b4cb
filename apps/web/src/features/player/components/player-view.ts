import { createContext, useContext } from 'react';
import type { Song } from '../../catalog';
import type { PlayerControls } from '../hooks/use-player-controls';

/** Everything the player's views show, computed once by the provider. */
export interface PlayerView {
  song: Song;
  playing: boolean;
  currentTime: number;
  /** The media's duration, or the catalogue's until the media reports it. */
  duration: number;
  volume: number;
  muted: boolean;
  repeat: boolean;
  liked: boolean;
  /** Loading the address or the media: play is disabled. */
  busy: boolean;
  /** The current song's stream error message: play is disabled and a warning shows. */
  error: string | null;
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
