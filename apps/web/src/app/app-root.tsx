import { lazy, Suspense } from 'react';
import { Provider } from 'react-redux';
import { PersistGate } from 'redux-persist/es/integration/react';
import { FullScreenLoader } from '../components/ui';
import { loadSonner, TOASTER_OPTIONS } from '../lib/toast';
import { AppRouter } from './route-renderer';
import { routes } from './router';
import { SessionBootstrap } from './session-bootstrap';
import { persistor, store } from './store';

/** Toasts are on no first screen: sonner comes after it (lib/toast.ts), and shows what was asked meanwhile. */
const Toaster = lazy(() => loadSonner().then(({ Toaster }) => ({ default: Toaster })));

/** Store, persisted-state gate (the app renders only after rehydration), session start-up, router, toasts. */
export function AppRoot() {
  return (
    <Provider store={store}>
      <Suspense fallback={null}>
        <Toaster
          {...TOASTER_OPTIONS}
          position="top-center"
          theme="dark"
          toastOptions={{
            style: {
              background: 'var(--color-surface)',
              border: '1px solid var(--color-line)',
              color: 'var(--color-text)',
              fontFamily: 'var(--font-sans)',
            },
          }}
        />
      </Suspense>
      <PersistGate loading={<FullScreenLoader />} persistor={persistor}>
        <SessionBootstrap>
          <AppRouter routes={routes} />
        </SessionBootstrap>
      </PersistGate>
    </Provider>
  );
}
