import type { Persistor } from 'redux-persist';
import { toast } from '../lib/toast';
import { sessionEnded } from '../features/auth';
import { setSessionExpiredHandler } from '../lib/api';
import { backbeatApi } from '../lib/api-query';
import { clearBrowserStorage } from '../lib/browser-storage';
import { createExpiryGuard, sessionEndRedirect } from '../lib/session-expiry';
import type { AppStore } from './store';

/**
 * SPEC section 8: when a call shows the session is gone, clear local and session storage and readable cookies,
 * purge the persisted state, log out locally and send the visitor where the section 2 rule says. A 2000 ms guard
 * turns a burst of failing calls into one expiry. Visitors on /login (e.g. a wrong password) stay where they are,
 * so the login form's own error toast still shows.
 */
export function installSessionExpiryHandler({
  store,
  persistor,
  navigate,
  pathname = () => window.location.pathname,
}: {
  store: AppStore;
  persistor: Persistor;
  navigate: (to: string) => unknown;
  pathname?: () => string;
}): () => void {
  const guard = createExpiryGuard();
  // Leaving the page (reload, typed URL, external link) aborts requests in flight as network errors: the session
  // is fine. The flag clears itself if the unload is cancelled; after a real unload no timer runs again.
  let leavingTimer: ReturnType<typeof setTimeout> | undefined;
  let leaving = false;
  const onLeave = () => {
    leaving = true;
    clearTimeout(leavingTimer);
    leavingTimer = setTimeout(() => (leaving = false), 1000);
  };
  window.addEventListener('beforeunload', onLeave);
  window.addEventListener('pagehide', onLeave);
  setSessionExpiredHandler((error) => {
    if (leaving && error.networkError) return;
    if (!guard.tryEnter()) return;
    const wasSignedIn = store.getState().auth.user !== null;
    clearBrowserStorage();
    void persistor.purge();
    store.dispatch(sessionEnded());
    if (wasSignedIn) {
      // Cached lists belong to the account that just left.
      store.dispatch(backbeatApi.util.resetApiState());
      toast.info('Your session has ended. Please log in again.');
    }
    const target = sessionEndRedirect(pathname());
    if (target) void navigate(target);
  });
  return () => {
    window.removeEventListener('beforeunload', onLeave);
    window.removeEventListener('pagehide', onLeave);
    clearTimeout(leavingTimer);
    setSessionExpiredHandler(null);
  };
}
