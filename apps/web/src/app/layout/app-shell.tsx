import { lazy } from 'react';
import { Outlet, useLocation } from 'react-router';
import { selectIsSignedIn } from '../../features/auth';
import { useAppSelector } from '../hooks';
import { notFoundPathOf } from '../guards';

// Each layout is its own chunk, as when the router loaded them: the landing page needs neither.
const MainLayout = lazy(() => import('./main-layout'));
const PublicLayout = lazy(() => import('./public-layout'));

/**
 * The one parent of every screen that may show inside the app: it stays mounted while a signed-in listener moves
 * between them, so the player (in the main layout) keeps playing through the payment result pages and the in-app
 * "Page not found". Signed in: the main layout. Guests (on the public payment pages): the public shell. The
 * landing page `/` brings its own chrome, except when it stands for a path that matched nothing.
 */
export function AppShell() {
  const signedIn = useAppSelector(selectIsSignedIn);
  const location = useLocation();
  const landing = location.pathname === '/' && !(signedIn && notFoundPathOf(location.state) !== null);
  if (landing) return <Outlet />;
  return signedIn ? <MainLayout /> : <PublicLayout />;
}
