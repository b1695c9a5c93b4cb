import { Suspense } from 'react';
import { Outlet, ScrollRestoration, useNavigation } from 'react-router';
import { FullScreenLoader } from '../components/ui';

/** Root of every route: a thin progress bar while the next screen's code loads, and scroll restoration. */
export function RootRoute() {
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle';
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
      <ScrollRestoration />
    </>
  );
}
