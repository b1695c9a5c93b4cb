import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { toast } from '../lib/toast';
import { useAppDispatch } from '../app/hooks';
import { takeReturnPath } from '../app/return-to';
import { FullScreenLoader } from '../components/ui';
import { AUTH_MESSAGES, socialLoginSuccess } from '../features/auth';

/**
 * Where the social-login provider returns: `?new=1` for a new account, `?error=...` on failure. The session
 * cookie is already set by the server; fetch the profile, then new users choose genres and others go home.
 */
export default function AuthCallbackPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const error = params.get('error');
    if (error === 'account_exists') {
      toast.error(AUTH_MESSAGES.socialFailed, { description: AUTH_MESSAGES.socialAccountExists });
      void navigate('/login', { replace: true });
      return;
    }
    if (error) {
      toast.error(AUTH_MESSAGES.socialFailed, { description: error.replace(/[_-]+/g, ' ') });
      void navigate('/login', { replace: true });
      return;
    }
    const isNewUser = params.get('new') === '1' || params.get('new') === 'true';
    void dispatch(socialLoginSuccess(isNewUser)).then((result) => {
      // New accounts choose genres first (the genre page then returns to where they were going).
      if (socialLoginSuccess.fulfilled.match(result))
        void navigate(isNewUser ? '/genres' : (takeReturnPath() ?? '/home'), { replace: true });
      else void navigate('/login', { replace: true });
    });
  }, [dispatch, navigate, params]);

  return (
    <>
      <title>Signing you in · Backbeat</title>
      <FullScreenLoader label="Signing you in" />
    </>
  );
}
