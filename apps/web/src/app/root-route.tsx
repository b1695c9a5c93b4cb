import { Suspense, useLayoutEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { FullScreenLoader } from '../components/ui';
import { ScrollOnNavigate, usePendingScreens } from './route-renderer';

/**
 * Says on `<html data-screen="/path">` which address the screen on view belongs to. Navigations keep the old
 * screen until the next one's code is there while the address bar already shows the new path, so the address
 * alone does not say what is drawn; rendered inside the screens' Suspense boundary, this commits with the screen.
 * The browser tests wait for it (e2e/support/session.ts `expectPath`).
 */
function ScreenMarker() {
  const { pathname } = useLocation();
  useLayoutEffect(() => {
    document.documentElement.dataset.screen = pathname;
  }, [pathname]);
  return null;
}

/** Root of every route: a thin progress bar while the next screen's code loads, and scroll restoration. */
export function RootRoute() {
  const busy = usePendingScreens();
  return (
    <>
      <div
        aria-hidden="true"
        className={`pointer-events-none fixed inset-x-0 top-0 z-50 h-0.5 origin-left bg-gradient-to-r from-accent to-accent-2 transition-[transform,opacity] duration-250 ease-out ${busy ? 'scale-x-75 opacity-100' : 'scale-x-0 opacity-0'}`}
      />
      {/* The app shell's layouts load on first use; navigations keep the previous screen meanwhile. */}
      <Suspense fallback={<FullScreenLoader />}>
        <Outlet />
        <ScreenMarker />
      </Suspense>
      <ScrollOnNavigate />
    </>
  );
}
