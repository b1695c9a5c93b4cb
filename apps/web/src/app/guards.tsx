import { useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { hasPreferredGenres, isAdmin, selectUser } from '../features/auth';
import { useAppSelector } from './hooks';
import { peekReturnPath, rememberReturnPath, takeReturnPath } from './return-to';

/** Route guards of SPEC section 2. "Signed in" means a user is in memory. */

/**
 * Sends the visitor on to `to`, remembering where they were going (return-to.ts): a guest signing in, or a new
 * account choosing genres, comes back here afterwards.
 */
function RedirectRemembering({ to, remember = true }: { to: string; remember?: boolean }) {
  const location = useLocation();
  const navigate = useNavigate();
  const from = `${location.pathname}${location.search}${location.hash}`;
  useEffect(() => {
    if (remember) rememberReturnPath(from);
    void navigate(to, { replace: true, state: remember ? { from } : undefined });
  }, [navigate, to, from, remember]);
  return null;
}

/**
 * The guard's user, and whether it first rendered with one. Guests go to /login remembering where they were going;
 * a guard that was showing a signed-in person's screen (they just logged out, or their session ended) remembers
 * nothing: the next person to sign in on this tab starts at /home.
 */
function useGuard() {
  const user = useAppSelector(selectUser);
  const [mountedSignedIn] = useState(user !== null);
  return { user, mountedSignedIn };
}

/**
 * /register, /login, /forgot-password, /reset-password/:token: signed-in users go to /home. A guest who signs in
 * here goes back to where a guard stopped them on the way in, if anywhere (only then: a signed-in visit to these
 * pages always goes to /home, as the SPEC says).
 */
export function GuestOnly() {
  const user = useAppSelector(selectUser);
  const [arrivedAsGuest] = useState(user === null);
  const returnTo = user && arrivedAsGuest ? peekReturnPath() : null;
  useEffect(() => {
    if (user && arrivedAsGuest) takeReturnPath();
  }, [user, arrivedAsGuest]);
  return user ? <Navigate to={returnTo ?? '/home'} replace /> : <Outlet />;
}

/** Sign-in required: guests go to /login. */
export function RequireAuth() {
  const { user, mountedSignedIn } = useGuard();
  return user ? <Outlet /> : <RedirectRemembering to="/login" remember={!mountedSignedIn} />;
}

/** Sign-in and at least one preferred genre: none goes to /genres, guests to /login. */
export function RequireGenres() {
  const { user, mountedSignedIn } = useGuard();
  if (!user) return <RedirectRemembering to="/login" remember={!mountedSignedIn} />;
  return hasPreferredGenres(user) ? <Outlet /> : <RedirectRemembering to="/genres" />;
}

/** Admin role: other users go to /home, guests to /login. */
export function RequireAdmin() {
  const { user, mountedSignedIn } = useGuard();
  if (!user) return <RedirectRemembering to="/login" remember={!mountedSignedIn} />;
  return isAdmin(user) ? <Outlet /> : <Navigate to="/home" replace />;
}

/** Artist or admin role (the studio): other users go to /home, guests to /login. */
export function RequireStaff() {
  const { user, mountedSignedIn } = useGuard();
  if (!user) return <RedirectRemembering to="/login" remember={!mountedSignedIn} />;
  return user.role === 'artist' || user.role === 'admin' ? <Outlet /> : <Navigate to="/home" replace />;
}

/** What `/` receives from the catch-all: the path that matched no screen, for the in-app "Page not found". */
export interface NotFoundState {
  notFound: string;
}

export function notFoundPathOf(state: unknown): string | null {
  if (typeof state !== 'object' || state === null || !('notFound' in state)) return null;
  const path = (state as NotFoundState).notFound;
  return typeof path === 'string' ? path : null;
}

/**
 * Any other path: / when signed in (carrying the missing path, so `/` shows "Page not found" inside the app),
 * otherwise /login.
 */
export function CatchAll() {
  const user = useAppSelector(selectUser);
  const location = useLocation();
  const state: NotFoundState = { notFound: `${location.pathname}${location.search}` };
  return user ? <Navigate to="/" replace state={state} /> : <Navigate to="/login" replace />;
}

/** Artist role (an artist's own dashboard): admins go to /admin, other users to /home, guests to /login. */
export function RequireArtist() {
  const { user, mountedSignedIn } = useGuard();
  if (!user) return <RedirectRemembering to="/login" remember={!mountedSignedIn} />;
  if (isAdmin(user)) return <Navigate to="/admin" replace />;
  return user.role === 'artist' ? <Outlet /> : <Navigate to="/home" replace />;
}
