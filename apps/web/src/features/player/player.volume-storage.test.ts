// @vitest-environment jsdom
import { configureStore, createListenerMiddleware } from '@reduxjs/toolkit';
import { afterEach, describe, expect, it } from 'vitest';
import { startPlayerListeners } from './player.persist';
import { playerReducer, setVolume, toggleMute } from './player.slice';
import { readStoredVolume, writeStoredVolume } from './player.volume-storage';
import { initialStreamState } from './stream.slice';
import type { PlayerRootState } from './player.selectors';

afterEach(() => localStorage.clear());

describe("volume under 'player-volume'", () => {
  it('defaults to 0.5 when nothing or garbage is stored', () => {
    expect(readStoredVolume()).toBe(0.5);
    localStorage.setItem('player-volume', 'loud');
    expect(readStoredVolume()).toBe(0.5);
    expect(readStoredVolume(null)).toBe(0.5);
  });

  it('reads back what was written, clamped to 0..1', () => {
    writeStoredVolume(0.3);
    expect(localStorage.getItem('player-volume')).toBe('0.3');
    expect(readStoredVolume()).toBe(0.3);
    localStorage.setItem('player-volume', '7');
    expect(readStoredVolume()).toBe(1);
  });

  it('the slice starts from the stored volume', () => {
    localStorage.setItem('player-volume', '0.8');
    expect(playerReducer(undefined, { type: 'init' }).volume).toBe(0.8);
  });

  it('the listener stores every volume change, including mute', () => {
    const listener = createListenerMiddleware();
    const store = configureStore({
      reducer: { player: playerReducer, stream: () => initialStreamState },
      middleware: (getDefault) => getDefault().prepend(listener.middleware),
    });
    startPlayerListeners(listener.startListening.withTypes<PlayerRootState>());
    store.dispatch(setVolume(0.25));
    expect(localStorage.getItem('player-volume')).toBe('0.25');
    store.dispatch(toggleMute());
    expect(localStorage.getItem('player-volume')).toBe('0');
    store.dispatch(toggleMute());
    expect(localStorage.getItem('player-volume')).toBe('0.25');
  });
});
