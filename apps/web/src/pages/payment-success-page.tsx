import { CheckCircle2 } from 'lucide-react';
import { Link } from 'react-router';
import { useAppSelector } from '../app/hooks';
import { buttonClasses } from '../components/ui';
import { selectIsSignedIn } from '../features/auth';

export default function PaymentSuccessPage() {
  const signedIn = useAppSelector(selectIsSignedIn);
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center py-10 text-center md:py-16">
      <title>Payment complete · Backbeat</title>
      <div className="flex size-16 items-center justify-center rounded-pill bg-ok/15 text-ok">
        <CheckCircle2 size={32} strokeWidth={1.75} aria-hidden="true" />
      </div>
      <h1 className="mt-6 text-h2 font-bold tracking-tight">Payment complete</h1>
      <p className="mt-3 text-h4 text-muted">
        Thank you. As soon as the payment provider confirms it, your purchase or subscription is unlocked,
        usually within a few seconds. A receipt is on its way to your e-mail.
      </p>
      <div className="mt-8 flex flex-col gap-3 sm:flex-row">
        {signedIn ? (
          <>
            <Link to="/purchases" className={buttonClasses({ size: 'lg' })}>
              Go to your purchases
            </Link>
            <Link to="/home" className={buttonClasses({ size: 'lg', variant: 'secondary' })}>
              Keep listening
            </Link>
          </>
        ) : (
          <Link to="/login" className={buttonClasses({ size: 'lg' })}>
            Log in to listen
          </Link>
        )}
      </div>
      <p className="mt-8 text-body text-muted">
        Not unlocked after a few minutes?{' '}
        <Link to="/help#buying" className="text-text underline underline-offset-4">
          Get help
        </Link>
        .
      </p>
    </div>
  );
}
