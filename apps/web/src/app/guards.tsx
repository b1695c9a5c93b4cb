import { Navigate, Outlet } from 'react-router';
import { hasPreferredGenres, isAdmin, selectUser } from '../features/auth';
import { useAppSelector } from './hooks';

/** Route guards of SPEC section 2. "Signed in" means a user is in memory. */

/** /register, /login, /forgot-password, /reset-password/:token: signed-in users go to /home. */
export function GuestOnly() {
  const user = useAppSelector(selectUser);
  return user ? <Navigate to="/home" replace /> : <Outlet />;
}

/** Sign-in required: guests go to /login. */
export function RequireAuth() {
  const user = useAppSelector(selectUser);
  return user ? <Outlet /> : <Navigate to="/login" replace />;
}

/** Sign-in and at least one preferred genre: none goes to /genres, guests to /login. */
export function RequireGenres() {
  const user = useAppSelector(selectUser);
  if (!user) return <Navigate to="/login" replace />;
  return hasPreferredGenres(user) ? <Outlet /> : <Navigate to="/genres" replace />;
}

/** Admin role: other users go to /home, guests to /login. */
export function RequireAdmin() {
  const user = useAppSelector(selectUser);
  if (!user) return <Navigate to="/login" replace />;
  return isAdmin(user) ? <Outlet /> : <Navigate to="/home" replace />;
}

/** Artist or admin role (the studio): other users go to /home, guests to /login. */
export function RequireStaff() {
  const user = useAppSelector(selectUser);
  if (!user) return <Navigate to="/login" replace />;
  return user.role === 'artist' || user.role === 'admin' ? <Outlet /> : <Navigate to="/home" replace />;
}

/** Any other path: / when signed in, otherwise /login. */
export function CatchAll() {
  const user = useAppSelector(selectUser);
  return <Navigate to={user ? '/' : '/login'} replace />;
}

/** Artist role (an artist's own dashboard): admins go to /admin, other users to /home, guests to /login. */
export function RequireArtist() {
  const user = useAppSelector(selectUser);
  if (!user) return <Navigate to="/login" replace />;
  if (isAdmin(user)) return <Navigate to="/admin" replace />;
  return user.role === 'artist' ? <Outlet /> : <Navigate to="/home" replace />;
}
