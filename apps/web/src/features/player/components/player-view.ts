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
