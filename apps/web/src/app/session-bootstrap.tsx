import { useEffect, useRef, useState, type ReactNode } from 'react';
import { FullScreenLoader } from '../components/ui';
import { fetchProfile, selectIsSignedIn } from '../features/auth';
import { useAppDispatch, useAppSelector } from './hooks';

/**
 * SPEC section 2 start-up: with no user in memory, fetch the current user once (GET /api/users/me) and show the
 * loading animation until that settles. A signed-in visitor renders at once. The token is HttpOnly; the server's
 * `bb_session` flag cookie (no secret in it) says whether there is a session to ask about, so a guest is not sent a 401.
 */
const hasSessionHint = () => document.cookie.split(';').some((part) => part.trim().startsWith('bb_session='));

export function SessionBootstrap({ children }: { children: ReactNode }) {
  const dispatch = useAppDispatch();
  const signedIn = useAppSelector(selectIsSignedIn);
  const [settled, setSettled] = useState(() => signedIn || !hasSessionHint());
  const started = useRef(false);

  useEffect(() => {
    if (started.current || signedIn || !hasSessionHint()) return;
    started.current = true;
    void dispatch(fetchProfile()).finally(() => setSettled(true));
  }, [dispatch, signedIn]);

  return settled || signedIn ? children : <FullScreenLoader />;
}
