import { XCircle } from 'lucide-react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useAppSelector } from '../app/hooks';
import { Button, buttonClasses } from '../components/ui';
import { selectIsSignedIn } from '../features/auth';
import { useGetOrderQuery } from '../features/commerce';

/** Public (SPEC route table): what went wrong, in the gateway's words, and the way to try again. */
export default function PaymentFailPage() {
  const signedIn = useAppSelector(selectIsSignedIn);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const orderId = params.get('orderId');
  const reason = params.get('reason');
  const order = useGetOrderQuery(orderId ?? '', { skip: !signedIn || !orderId });
  const item = order.data;
  const retryTo =
    item?.itemId && item.itemType === 'album'
      ? `/album/${item.itemId}`
      : item?.itemId && item.itemType === 'subscription'
        ? `/artist/${item.itemId}`
        : null;
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center py-10 text-center md:py-16">
      <title>Payment not completed · Backbeat</title>
      <div className="flex size-16 items-center justify-center rounded-pill bg-danger/15 text-danger">
        <XCircle size={32} strokeWidth={1.75} aria-hidden="true" />
      </div>
      <h1 className="mt-6 text-h2 font-bold tracking-tight">Payment not completed</h1>
      {reason ? (
        <p className="mt-3 text-h4" role="alert">
          {reason}
        </p>
      ) : null}
      <p className="mt-3 text-body text-muted">
        {item ? `${item.itemTitle} was not bought` : 'The payment was cancelled or declined'}, and nothing has
        been charged. You can try again, or use a different payment method.
      </p>
      <div className="mt-8 flex flex-col gap-3 sm:flex-row">
        {signedIn ? (
          <>
            {retryTo ? (
              <Link to={retryTo} className={buttonClasses({ size: 'lg' })}>
                Try again
              </Link>
            ) : (
              <Button size="lg" onClick={() => void navigate(-1)}>
                Try again
              </Button>
            )}
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
