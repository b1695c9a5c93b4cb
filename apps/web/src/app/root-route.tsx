import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { FullScreenLoader } from '../components/ui';
import { ScrollOnNavigate, usePendingScreens } from './route-renderer';

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
      </Suspense>
      <ScrollOnNavigate />
    </>
  );
}
