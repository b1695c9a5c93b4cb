import { useEffect, useRef, useState, type ReactNode } from 'react';
import { FullScreenLoader } from '../components/ui';
import { fetchProfile, selectIsSignedIn } from '../features/auth';
import { useAppDispatch, useAppSelector } from './hooks';

/**
 * SPEC section 2 start-up: with no user in memory, fetch the current user once (GET /api/users/me) and show the
 * loading animation until that settles. A signed-in visitor renders at once. The session cookie is HttpOnly, so only
 * the server can say whether there is a session: it is always asked, and its 401 for a guest is an answer, not an
 * expired session.
 */
export function SessionBootstrap({ children }: { children: ReactNode }) {
  const dispatch = useAppDispatch();
  const signedIn = useAppSelector(selectIsSignedIn);
  const [settled, setSettled] = useState(() => signedIn);
  const started = useRef(false);

  useEffect(() => {
    if (started.current || signedIn) return;
    started.current = true;
    void dispatch(fetchProfile({ startup: true })).finally(() => setSettled(true));
  }, [dispatch, signedIn]);

  return settled || signedIn ? children : <FullScreenLoader />;
}
