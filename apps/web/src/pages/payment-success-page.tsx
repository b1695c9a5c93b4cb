import { CheckCircle2 } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { useAppSelector } from '../app/hooks';
import { buttonClasses } from '../components/ui';
import { selectIsSignedIn } from '../features/auth';
import { OrderOutcome } from '../features/commerce';

/** Public (SPEC route table): what was bought, its confirmation by the gateway, and the next step. */
export default function PaymentSuccessPage() {
  const signedIn = useAppSelector(selectIsSignedIn);
  const [params] = useSearchParams();
  const orderId = params.get('orderId');
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center py-10 text-center md:py-16">
      <title>Payment complete · Backbeat</title>
      <div className="flex size-16 items-center justify-center rounded-pill bg-ok/15 text-ok">
        <CheckCircle2 size={32} strokeWidth={1.75} aria-hidden="true" />
      </div>
      <h1 className="mt-6 text-h2 font-bold tracking-tight">Payment complete</h1>
      <p className="mt-3 text-h4 text-muted">
        Thank you. It unlocks as soon as the payment provider confirms it, usually within seconds, and a
        receipt goes to your e-mail.
      </p>
      {signedIn && orderId ? (
        <div className="mt-8 w-full">
          <OrderOutcome orderId={orderId} />
        </div>
      ) : null}
      <div className="mt-6 flex flex-col gap-3 sm:flex-row">
        {signedIn ? (
          <>
            <Link to="/purchases" className={buttonClasses({ size: 'lg', variant: 'secondary' })}>
              Your purchases
            </Link>
            <Link to="/payment-history" className={buttonClasses({ size: 'lg', variant: 'ghost' })}>
              Payment history
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
