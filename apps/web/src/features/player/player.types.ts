import type { Song } from '../catalog';

export type PlaybackContextType =
  'all' | 'album' | 'artist' | 'genre' | 'liked' | 'search' | 'playlist' | 'matching-genre' | 'home';

/** Where the current song was started from; next and previous follow `songs` (or the library for 'all'). */
export interface PlaybackContext {
  type: PlaybackContextType;
  id: string | null;
  songs: Song[];
}

export interface PlayerState {
  selectedSong: Song | null;
  isPlaying: boolean;
  /** Seconds into the selected song. */
  currentTime: number;
  /** Seconds; 0 until the media reports it. */
  duration: number;
  /** 0..1. */
  volume: number;
  /** The volume before muting; null when not muted. */
  volumeBeforeMute: number | null;
  /** Epoch ms of the latest selection: selecting the same song again restarts it. */
  lastSelectedAt: number | null;
  /** Bumped to make the playback engine load the current song's source again. */
  forceRefreshToken: number;
  playbackContext: PlaybackContext;
  /** A seek the playback engine has not applied to the audio element yet. */
  pendingSeek: number | null;
  /** The mobile repeat toggle: when on, the song loops instead of advancing. */
  repeat: boolean;
}

/** Where another feature asks to play `songs[index]` within a list. */
export interface PlayFromListPayload {
  songs: Song[];
  index: number;
  context: { type: PlaybackContextType; id?: string | null };
}
