import { persistReducer, type PersistConfig } from 'redux-persist';
import storage from 'redux-persist/es/storage';
import { isAnyOf, type TypedStartListening } from '@reduxjs/toolkit';
import { login, logout, register, sessionEnded, socialLoginSuccess } from '../auth';
import type { PlayerRootState } from './player.selectors';
import { playerReducer } from './player.slice';
import type { PlayerState } from './player.types';
import { writeStoredVolume } from './player.volume-storage';
import { clearPrefetchedAddresses, holdPrefetch } from './stream-prefetch';

/**
 * SPEC section 4: the player keeps only volume, selected song, current time and isPlaying. Three of them live in
 * the player's own persisted entry ('persist:player'); the volume lives under 'player-volume' (SPEC section 3),
 * written by the listener below and read when the slice starts.
 */
const playerPersistConfig: PersistConfig<PlayerState> = {
  key: 'player',
  version: 1,
  storage,
  whitelist: ['selectedSong', 'currentTime', 'isPlaying'],
  // currentTime changes several times a second while playing; one write a second is plenty.
  throttle: 1000,
  timeout: 5000,
};

export const persistedPlayerReducer = persistReducer(playerPersistConfig, playerReducer);

/** Writes the volume to 'player-volume' whenever it changes. */
export function startPlayerListeners(startListening: TypedStartListening<PlayerRootState>): void {
  startListening({
    predicate: (_action, current, previous) => current.player.volume !== previous.player.volume,
    effect: (_action, api) => {
      writeStoredVolume(api.getState().player.volume);
    },
  });
  // Prefetched stream addresses were signed for the account that just left.
  startListening({
    matcher: isAnyOf(logout.fulfilled, sessionEnded),
    effect: () => clearPrefetchedAddresses(),
  });
  // From the moment a sign-out starts until someone signs in again, nothing is prefetched on the ending session.
  startListening({ actionCreator: logout.pending, effect: () => holdPrefetch(true) });
  startListening({
    matcher: isAnyOf(logout.rejected, login.fulfilled, register.fulfilled, socialLoginSuccess.fulfilled),
    effect: () => holdPrefetch(false),
  });
}
