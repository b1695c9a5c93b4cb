import { combineReducers, configureStore, createListenerMiddleware } from '@reduxjs/toolkit';
import {
  createTransform,
  FLUSH,
  PAUSE,
  PERSIST,
  persistReducer,
  persistStore,
  PURGE,
  REGISTER,
  REHYDRATE,
} from 'redux-persist';
import storage from 'redux-persist/es/storage';
import { authReducer, createInitialAuthState, startAuthListeners, type AuthState } from '../features/auth';
import { persistedPlayerReducer, startPlayerListeners } from '../features/player/player.persist';
import { previewReducer } from '../features/player/preview.slice';
import { streamReducer } from '../features/player/stream.slice';
import { backbeatApi } from '../lib/api-query';

const rootReducer = combineReducers({
  auth: authReducer,
  // The player persists its own fields ('persist:player', see features/player/player.persist.ts).
  player: persistedPlayerReducer,
  stream: streamReducer,
  preview: previewReducer,
  [backbeatApi.reducerPath]: backbeatApi.reducer,
});

export type RootState = ReturnType<typeof rootReducer>;

/** Only the user survives a reload; request status and old messages start fresh. */
const authTransform = createTransform<AuthState, AuthState>(
  (state) => ({ ...createInitialAuthState(state.user ?? null) }),
  (state) => ({ ...createInitialAuthState(state.user ?? null) }),
  { whitelist: ['auth'] },
);

const persistConfig = {
  key: 'root',
  version: 1,
  storage,
  // Only auth survives a reload; song lists live in the RTK Query cache (`api`), which is never persisted.
  whitelist: ['auth'],
  transforms: [authTransform],
  timeout: 5000,
};

const persistedReducer = persistReducer<RootState>(persistConfig, rootReducer);

const listenerMiddleware = createListenerMiddleware();

export const store = configureStore({
  reducer: persistedReducer,
  middleware: (getDefaultMiddleware) =>
    getDefaultMiddleware({
      serializableCheck: { ignoredActions: [FLUSH, REHYDRATE, PAUSE, PERSIST, PURGE, REGISTER] },
    })
      .prepend(listenerMiddleware.middleware)
      .concat(backbeatApi.middleware),
});

export type AppStore = typeof store;
export type AppDispatch = typeof store.dispatch;

startAuthListeners(listenerMiddleware.startListening.withTypes<RootState, AppDispatch>());
startPlayerListeners(listenerMiddleware.startListening.withTypes<RootState, AppDispatch>());

export const persistor = persistStore(store);
