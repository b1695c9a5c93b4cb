import { createSlice, isAnyOf, type PayloadAction } from '@reduxjs/toolkit';
import { logout, sessionEnded } from '../auth';
import type { Song } from '../catalog';
import { DEFAULT_VOLUME } from './player.constants';
import {
  DEFAULT_CONTEXT,
  clampVolume,
  isContextStale,
  nextInQueue,
  playbackQueue,
  previousInQueue,
  shouldRestartOnPrevious,
} from './player.rules';
import type { PlayFromListPayload, PlayerState } from './player.types';
import { readStoredVolume } from './player.volume-storage';

export function createInitialPlayerState(volume: number = DEFAULT_VOLUME): PlayerState {
  return {
    selectedSong: null,
    isPlaying: false,
    currentTime: 0,
    duration: 0,
    volume: clampVolume(volume),
    volumeBeforeMute: null,
    lastSelectedAt: null,
    forceRefreshToken: 0,
    playbackContext: DEFAULT_CONTEXT,
    pendingSeek: null,
    repeat: false,
  };
}

/** Selecting a song: time and duration back to 0, playing, and the selection time stamped. */
function select(state: PlayerState, song: Song, at: number, playing = true): void {
  state.selectedSong = song;
  state.currentTime = 0;
  state.duration = 0;
  state.isPlaying = playing;
  state.lastSelectedAt = at;
  state.pendingSeek = null;
}

/** The queue for next/previous; a stale non-'all' context is cleared first (falls back to the library). */
function queueFor(state: PlayerState, library: readonly Song[]): readonly Song[] {
  if (isContextStale(state.playbackContext, state.selectedSong)) state.playbackContext = DEFAULT_CONTEXT;
  return playbackQueue(state.playbackContext, library);
}

interface LibraryPayload {
  library: readonly Song[];
}
interface StampedLibraryPayload extends LibraryPayload {
  at: number;
}

const stamp = <T extends object>(payload: T) => ({ payload: { ...payload, at: Date.now() } });

const playerSlice = createSlice({
  name: 'player',
  initialState: () => createInitialPlayerState(readStoredVolume()),
  reducers: {
    selectSong: {
      reducer(state, action: PayloadAction<{ song: Song; at: number }>) {
        select(state, action.payload.song, action.payload.at);
      },
      prepare: (song: Song) => stamp({ song }),
    },
    /** Play `songs[index]`; the list becomes the playback context, so next and previous follow it. */
    playFromList: {
      reducer(state, action: PayloadAction<PlayFromListPayload & { at: number }>) {
        const { songs, index, context, at } = action.payload;
        const song = songs[index];
        if (!song) return;
        state.playbackContext = { type: context.type, id: context.id ?? null, songs };
        select(state, song, at);
      },
      prepare: (payload: PlayFromListPayload) => stamp(payload),
    },
    play(state) {
      if (state.selectedSong) state.isPlaying = true;
    },
    pause(state) {
      state.isPlaying = false;
    },
    togglePlay(state) {
      if (state.selectedSong) state.isPlaying = !state.isPlaying;
    },
    /** Progress reported by the audio element. */
    setCurrentTime(state, action: PayloadAction<number>) {
      if (Number.isFinite(action.payload) && action.payload >= 0) state.currentTime = action.payload;
    },
    setDuration(state, action: PayloadAction<number>) {
      if (Number.isFinite(action.payload) && action.payload >= 0) state.duration = action.payload;
    },
    /** A seek asked for by a control; the engine applies it to the audio element and then calls seekApplied. */
    seek(state, action: PayloadAction<number>) {
      if (!state.selectedSong || !Number.isFinite(action.payload)) return;
      const upper = state.duration > 0 ? state.duration : Number.POSITIVE_INFINITY;
      const time = Math.min(Math.max(0, action.payload), upper);
      state.currentTime = time;
      state.pendingSeek = time;
    },
    seekApplied(state) {
      state.pendingSeek = null;
    },
    /** Moving the slider above 0 while muted unmutes. */
    setVolume(state, action: PayloadAction<number>) {
      const volume = clampVolume(action.payload);
      if (state.volumeBeforeMute !== null && volume === 0) return;
      state.volumeBeforeMute = null;
      state.volume = volume;
    },
    /** Mute stores the volume and sets 0; unmute restores it (the default when nothing audible was stored). */
    toggleMute(state) {
      if (state.volumeBeforeMute !== null) {
        state.volume = state.volumeBeforeMute > 0 ? state.volumeBeforeMute : DEFAULT_VOLUME;
        state.volumeBeforeMute = null;
      } else if (state.volume === 0) {
        state.volume = DEFAULT_VOLUME;
      } else {
        state.volumeBeforeMute = state.volume;
        state.volume = 0;
      }
    },
    next: {
      reducer(state, action: PayloadAction<StampedLibraryPayload>) {
        const song = nextInQueue(queueFor(state, action.payload.library), state.selectedSong);
        if (song) select(state, song, action.payload.at);
      },
      prepare: (payload: LibraryPayload) => stamp(payload),
    },
    /** Restart after 3 s of play, else the previous song (wrapping to the last). */
    previous: {
      reducer(state, action: PayloadAction<StampedLibraryPayload>) {
        if (state.selectedSong && shouldRestartOnPrevious(state.currentTime)) {
          state.currentTime = 0;
          state.pendingSeek = 0;
          return;
        }
        const song = previousInQueue(queueFor(state, action.payload.library), state.selectedSong);
        if (song) select(state, song, action.payload.at);
      },
      prepare: (payload: LibraryPayload) => stamp(payload),
    },
    /**
     * Keeps the player consistent with the library: a stale non-'all' context is cleared, and with no song
     * selected the library's first song is selected (paused: nothing plays before someone asks for it). The
     * first song the user may play is preferred, so a listener is not greeted by a locked song's refusal; with
     * nothing playable the first song is taken, as SPEC section 4 says.
     */
    reconcileWithLibrary: {
      reducer(state, action: PayloadAction<StampedLibraryPayload>) {
        if (isContextStale(state.playbackContext, state.selectedSong))
          state.playbackContext = DEFAULT_CONTEXT;
        const library = action.payload.library;
        const first = library.find((song) => song.canPlay !== false) ?? library[0];
        if (!state.selectedSong && first) select(state, first, action.payload.at, false);
      },
      prepare: (payload: LibraryPayload) => stamp(payload),
    },
    clearPlaybackContext(state) {
      state.playbackContext = DEFAULT_CONTEXT;
    },
    toggleRepeat(state) {
      state.repeat = !state.repeat;
    },
    forceRefresh(state) {
      state.forceRefreshToken += 1;
    },
    /** Back to the start, keeping the volume. */
    resetPlayer(state) {
      return { ...createInitialPlayerState(state.volume), volumeBeforeMute: state.volumeBeforeMute };
    },
  },
  extraReducers: (builder) => {
    // The next account starts with an empty player (its volume stays: it belongs to the device).
    builder.addMatcher(isAnyOf(logout.fulfilled, sessionEnded), (state) => ({
      ...createInitialPlayerState(state.volume),
      volumeBeforeMute: state.volumeBeforeMute,
    }));
  },
});

export const {
  selectSong,
  playFromList,
  play,
  pause,
  togglePlay,
  setCurrentTime,
  setDuration,
  seek,
  seekApplied,
  setVolume,
  toggleMute,
  next,
  previous,
  reconcileWithLibrary,
  clearPlaybackContext,
  toggleRepeat,
  forceRefresh,
  resetPlayer,
} = playerSlice.actions;

export const playerReducer = playerSlice.reducer;
