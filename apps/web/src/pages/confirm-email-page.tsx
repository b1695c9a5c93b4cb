import { useEffect, useRef, useState } from 'react';
import { CheckCircle2, MailX } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { useAppDispatch, useAppSelector } from '../app/hooks';
import { LinkEmptyState, Spinner, buttonClasses } from '../components/ui';
import { authRequests, fetchProfile, selectIsSignedIn } from '../features/auth';
import { errorText } from '../lib/api';

type Outcome =
  { state: 'working' } | { state: 'done'; message: string } | { state: 'failed'; message: string };

/**
 * /settings/email?token&email: where the link mailed to a new address lands. It works signed in or not (the link
 * itself is the proof); a signed-in listener's profile is read again so the new address shows at once.
 */
export default function ConfirmEmailPage() {
  const [params] = useSearchParams();
  const dispatch = useAppDispatch();
  const signedIn = useAppSelector(selectIsSignedIn);
  const [outcome, setOutcome] = useState<Outcome>({ state: 'working' });
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const token = params.get('token') ?? '';
    const email = params.get('email') ?? '';
    authRequests.confirmEmailChange(token, email).then(
      (answer) => {
        setOutcome({ state: 'done', message: `${answer.message}: you now sign in with ${answer.email}.` });
        if (signedIn) void dispatch(fetchProfile());
      },
      (failure: unknown) =>
        setOutcome({
          state: 'failed',
          message: errorText(failure, 'This confirmation link could not be used'),
        }),
    );
  }, [dispatch, params, signedIn]);

  return (
    <div className="mx-auto flex max-w-xl flex-col items-center py-10 text-center md:py-16">
      <title>Confirm your e-mail address · Backbeat</title>
      {outcome.state === 'working' ? (
        <p role="status" className="flex items-center gap-2 text-body text-muted">
          <Spinner size="sm" /> Confirming your new e-mail address…
        </p>
      ) : outcome.state === 'done' ? (
        <>
          <div className="flex size-16 items-center justify-center rounded-pill bg-ok/15 text-ok">
            <CheckCircle2 size={32} strokeWidth={1.75} aria-hidden="true" />
          </div>
          <h1 className="mt-6 text-h2 font-bold tracking-tight">E-mail address confirmed</h1>
          <p role="status" className="mt-3 text-h4 text-muted">
            {outcome.message}
          </p>
          <Link
            to={signedIn ? '/settings' : '/login'}
            className={buttonClasses({ size: 'lg', className: 'mt-8' })}
          >
            {signedIn ? 'Back to settings' : 'Log in'}
          </Link>
        </>
      ) : (
        <LinkEmptyState
          icon={MailX}
          title="This link cannot be used"
          description={`${outcome.message}. Ask for a new one in Settings.`}
          to={signedIn ? '/settings' : '/login'}
          linkLabel={signedIn ? 'Open settings' : 'Log in'}
          className="w-full"
        />
      )}
    </div>
  );
}
