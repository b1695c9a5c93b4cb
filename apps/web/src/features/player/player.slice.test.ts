import { describe, expect, it } from 'vitest';
import { sessionEnded } from '../auth';
import { DEFAULT_VOLUME } from './player.constants';
import {
  clearPlaybackContext,
  createInitialPlayerState,
  forceRefresh,
  next,
  pause,
  play,
  playFromList,
  playerReducer,
  previous,
  reconcileWithLibrary,
  resetPlayer,
  seek,
  seekApplied,
  selectSong,
  setCurrentTime,
  setDuration,
  setVolume,
  togglePlay,
  toggleMute,
  toggleRepeat,
} from './player.slice';
import { library, makeSong, songsA } from './player.test-fixtures';
import type { PlayerState } from './player.types';

const base = (overrides: Partial<PlayerState> = {}): PlayerState => ({
  ...createInitialPlayerState(),
  ...overrides,
});

/** A state playing `song` within the album list songsA. */
function playingFromAlbum(index: number, extra: Partial<PlayerState> = {}): PlayerState {
  const state = playerReducer(
    base(),
    playFromList({ songs: songsA, index, context: { type: 'album', id: 'album-1' } }),
  );
  return { ...state, ...extra };
}

describe('player slice: selection', () => {
  it('selecting a song resets time and duration to 0, plays, and stamps the selection time', () => {
    const before = Date.now();
    const state = playerReducer(
      base({ currentTime: 42, duration: 200, isPlaying: false, pendingSeek: 10 }),
      selectSong(songsA[1]!),
    );
    expect(state.selectedSong?._id).toBe('a2');
    expect(state.currentTime).toBe(0);
    expect(state.duration).toBe(0);
    expect(state.isPlaying).toBe(true);
    expect(state.pendingSeek).toBeNull();
    expect(state.lastSelectedAt).toBeGreaterThanOrEqual(before);
    expect(state.lastSelectedAt).toBeLessThanOrEqual(Date.now());
  });

  it('selecting the same song again stamps a new selection time (it restarts)', () => {
    const stamped = (at: number) => ({ type: selectSong.type, payload: { song: songsA[0]!, at } });
    const first = playerReducer(base(), stamped(1000));
    const again = playerReducer({ ...first, currentTime: 30 }, stamped(2000));
    expect(again.lastSelectedAt).toBe(2000);
    expect(again.currentTime).toBe(0);
  });

  it('playFromList makes the list the playback context and selects songs[index]', () => {
    const state = playingFromAlbum(1);
    expect(state.selectedSong?._id).toBe('a2');
    expect(state.playbackContext).toEqual({ type: 'album', id: 'album-1', songs: songsA });
    expect(state.isPlaying).toBe(true);
    expect(state.currentTime).toBe(0);
    expect(state.lastSelectedAt).not.toBeNull();
  });

  it('playFromList without an id stores null, and ignores an index outside the list', () => {
    const state = playerReducer(
      base(),
      playFromList({ songs: songsA, index: 0, context: { type: 'search' } }),
    );
    expect(state.playbackContext.id).toBeNull();
    const unchanged = playerReducer(
      state,
      playFromList({ songs: library, index: 9, context: { type: 'liked' } }),
    );
    expect(unchanged).toBe(state);
  });
});

describe('player slice: play and pause', () => {
  it('play/pause toggles playing', () => {
    const state = playingFromAlbum(0);
    const paused = playerReducer(state, togglePlay());
    expect(paused.isPlaying).toBe(false);
    expect(playerReducer(paused, togglePlay()).isPlaying).toBe(true);
  });

  it('play and pause set the flag; nothing plays without a selected song', () => {
    const state = playingFromAlbum(0);
    expect(playerReducer(state, pause()).isPlaying).toBe(false);
    expect(playerReducer({ ...state, isPlaying: false }, play()).isPlaying).toBe(true);
    expect(playerReducer(base(), play()).isPlaying).toBe(false);
    expect(playerReducer(base(), togglePlay()).isPlaying).toBe(false);
  });
});

describe('player slice: time, duration and seeking', () => {
  it('stores progress and duration reported by the media, ignoring invalid numbers', () => {
    let state = playerReducer(playingFromAlbum(0), setCurrentTime(12.5));
    state = playerReducer(state, setDuration(180));
    expect(state.currentTime).toBe(12.5);
    expect(state.duration).toBe(180);
    expect(playerReducer(state, setCurrentTime(Number.NaN)).currentTime).toBe(12.5);
    expect(playerReducer(state, setDuration(-1)).duration).toBe(180);
  });

  it('a seek moves the time, clamped to the song, and waits for the engine to apply it', () => {
    const state = playingFromAlbum(0, { duration: 100 });
    const sought = playerReducer(state, seek(40));
    expect(sought.currentTime).toBe(40);
    expect(sought.pendingSeek).toBe(40);
    expect(playerReducer(state, seek(500)).pendingSeek).toBe(100);
    expect(playerReducer(state, seek(-5)).pendingSeek).toBe(0);
    expect(playerReducer(sought, seekApplied()).pendingSeek).toBeNull();
    expect(playerReducer(base(), seek(10)).pendingSeek).toBeNull();
  });
});

describe('player slice: volume and mute', () => {
  it('defaults to 0.5', () => {
    expect(createInitialPlayerState().volume).toBe(DEFAULT_VOLUME);
    expect(DEFAULT_VOLUME).toBe(0.5);
  });

  it('clamps the volume to 0..1', () => {
    expect(playerReducer(base(), setVolume(1.7)).volume).toBe(1);
    expect(playerReducer(base(), setVolume(-1)).volume).toBe(0);
    expect(playerReducer(base(), setVolume(0.3)).volume).toBe(0.3);
  });

  it('mute stores the current volume and sets 0; unmute restores it', () => {
    const muted = playerReducer(base({ volume: 0.8 }), toggleMute());
    expect(muted.volume).toBe(0);
    expect(muted.volumeBeforeMute).toBe(0.8);
    const unmuted = playerReducer(muted, toggleMute());
    expect(unmuted.volume).toBe(0.8);
    expect(unmuted.volumeBeforeMute).toBeNull();
  });

  it('moving the slider above 0 while muted unmutes at the new volume', () => {
    const muted = playerReducer(base({ volume: 0.8 }), toggleMute());
    const moved = playerReducer(muted, setVolume(0.25));
    expect(moved.volume).toBe(0.25);
    expect(moved.volumeBeforeMute).toBeNull();
    const stillMuted = playerReducer(muted, setVolume(0));
    expect(stillMuted.volumeBeforeMute).toBe(0.8);
  });

  it('the mute toggle at volume 0 (not muted) brings the default volume back', () => {
    expect(playerReducer(base({ volume: 0 }), toggleMute()).volume).toBe(DEFAULT_VOLUME);
  });
});

describe('player slice: next and previous', () => {
  it('next follows the context list and wraps from last to first', () => {
    let state = playerReducer(playingFromAlbum(1), next({ library }));
    expect(state.selectedSong?._id).toBe('a3');
    state = playerReducer(state, next({ library }));
    expect(state.selectedSong?._id).toBe('a1');
    expect(state.isPlaying).toBe(true);
    expect(state.currentTime).toBe(0);
  });

  it('previous restarts the song when more than 3 s have played', () => {
    const state = playerReducer(playingFromAlbum(1, { currentTime: 3.5 }), previous({ library }));
    expect(state.selectedSong?._id).toBe('a2');
    expect(state.currentTime).toBe(0);
    expect(state.pendingSeek).toBe(0);
  });

  it('previous goes to the previous song at 3 s or less, wrapping from the first to the last', () => {
    expect(
      playerReducer(playingFromAlbum(1, { currentTime: 3 }), previous({ library })).selectedSong?._id,
    ).toBe('a1');
    expect(
      playerReducer(playingFromAlbum(0, { currentTime: 1 }), previous({ library })).selectedSong?._id,
    ).toBe('a3');
  });

  it("follows the library for context 'all'", () => {
    let state = playerReducer(base(), selectSong(library[3]!));
    state = playerReducer(state, next({ library }));
    expect(state.selectedSong?._id).toBe('l1');
    state = playerReducer(state, previous({ library }));
    expect(state.selectedSong?._id).toBe('l4');
  });

  it('a song outside the queue continues with the first song of the queue', () => {
    const state = playerReducer(base(), selectSong(makeSong('elsewhere')));
    expect(playerReducer(state, next({ library })).selectedSong?._id).toBe('l1');
  });

  it('does nothing with an empty queue', () => {
    const state = playerReducer(base(), selectSong(makeSong('x')));
    expect(playerReducer(state, next({ library: [] }))).toEqual(state);
  });

  it('a current song absent from a non-all context clears the context and falls back to the library', () => {
    const stale = playingFromAlbum(0, { selectedSong: library[1]! });
    const state = playerReducer(stale, next({ library }));
    expect(state.playbackContext).toEqual({ type: 'all', id: null, songs: [] });
    expect(state.selectedSong?._id).toBe('l3');
  });
});

describe('player slice: context and library', () => {
  it("clearing the context returns it to type 'all'", () => {
    const state = playerReducer(playingFromAlbum(0), clearPlaybackContext());
    expect(state.playbackContext).toEqual({ type: 'all', id: null, songs: [] });
    expect(state.selectedSong?._id).toBe('a1');
  });

  it('reconciling clears a context that no longer holds the current song', () => {
    const stale = playingFromAlbum(0, { selectedSong: makeSong('gone') });
    const state = playerReducer(stale, reconcileWithLibrary({ library }));
    expect(state.playbackContext.type).toBe('all');
    expect(state.selectedSong?._id).toBe('gone');
  });

  it('reconciling keeps a context that holds the current song', () => {
    const state = playingFromAlbum(2);
    expect(playerReducer(state, reconcileWithLibrary({ library })).playbackContext.type).toBe('album');
  });

  it('with no song selected and a library present, the first song is selected (paused)', () => {
    const state = playerReducer(base(), reconcileWithLibrary({ library }));
    expect(state.selectedSong?._id).toBe('l1');
    expect(state.currentTime).toBe(0);
    expect(state.isPlaying).toBe(false);
    expect(playerReducer(base(), reconcileWithLibrary({ library: [] })).selectedSong).toBeNull();
  });

  it('the first song the user may play is preferred; with none playable the first song is taken', () => {
    const locked = makeSong('locked', { canPlay: false });
    const open = makeSong('open', { canPlay: true });
    expect(playerReducer(base(), reconcileWithLibrary({ library: [locked, open] })).selectedSong?._id).toBe(
      'open',
    );
    expect(playerReducer(base(), reconcileWithLibrary({ library: [locked] })).selectedSong?._id).toBe(
      'locked',
    );
  });

  it('reconciling never replaces a selected song', () => {
    const state = playerReducer(base(), selectSong(makeSong('mine')));
    expect(playerReducer(state, reconcileWithLibrary({ library })).selectedSong?._id).toBe('mine');
  });
});

describe('player slice: reset and other flags', () => {
  it('reset keeps the volume and clears everything else', () => {
    const state = playerReducer(playingFromAlbum(1, { volume: 0.9, currentTime: 50 }), resetPlayer());
    expect(state).toEqual(createInitialPlayerState(0.9));
  });

  it('reset keeps a muted volume muted', () => {
    const muted = playerReducer(playingFromAlbum(1, { volume: 0.7 }), toggleMute());
    const state = playerReducer(muted, resetPlayer());
    expect(state.volume).toBe(0);
    expect(playerReducer(state, toggleMute()).volume).toBe(0.7);
  });

  it('the session ending resets the player but keeps the volume', () => {
    const state = playerReducer(playingFromAlbum(1, { volume: 0.2 }), sessionEnded());
    expect(state.selectedSong).toBeNull();
    expect(state.volume).toBe(0.2);
  });

  it('toggles repeat and bumps the refresh token', () => {
    expect(playerReducer(base(), toggleRepeat()).repeat).toBe(true);
    expect(playerReducer(base(), forceRefresh()).forceRefreshToken).toBe(1);
  });
});
