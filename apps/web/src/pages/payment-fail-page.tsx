import { XCircle } from 'lucide-react';
import { Link } from 'react-router';
import { useAppSelector } from '../app/hooks';
import { buttonClasses } from '../components/ui';
import { selectIsSignedIn } from '../features/auth';

export default function PaymentFailPage() {
  const signedIn = useAppSelector(selectIsSignedIn);
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center py-10 text-center md:py-16">
      <title>Payment not completed · Backbeat</title>
      <div className="flex size-16 items-center justify-center rounded-pill bg-danger/15 text-danger">
        <XCircle size={32} strokeWidth={1.75} aria-hidden="true" />
      </div>
      <h1 className="mt-6 text-h2 font-bold tracking-tight">Payment not completed</h1>
      <p className="mt-3 text-h4 text-muted">
        The payment was cancelled or declined, and nothing has been charged. You can try again, or use a
        different payment method.
      </p>
      <div className="mt-8 flex flex-col gap-3 sm:flex-row">
        {signedIn ? (
          <>
            <Link to="/home" className={buttonClasses({ size: 'lg' })}>
              Back to Backbeat
            </Link>
            <Link to="/payment-history" className={buttonClasses({ size: 'lg', variant: 'secondary' })}>
              View payment history
            </Link>
          </>
        ) : (
          <Link to="/login" className={buttonClasses({ size: 'lg' })}>
            Log in
          </Link>
        )}
      </div>
      <p className="mt-8 text-body text-muted">
        Charged anyway?{' '}
        <Link to="/help#buying" className="text-text underline underline-offset-4">
          Contact support
        </Link>{' '}
        and we will sort it out.
      </p>
    </div>
  );
}
