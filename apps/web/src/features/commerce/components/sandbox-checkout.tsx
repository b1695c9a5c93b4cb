import { useState, type ReactNode } from 'react';
import { CheckCircle2, CircleSlash, FlaskConical, XCircle } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { toast } from '../../../lib/toast';
import { Button, EmptyState, QueryErrorState, Skeleton, buttonClasses } from '../../../components/ui';
import { queryErrorText, type QueryError } from '../../../lib/api-query';
import { formatMoney } from '../../../lib/format';
import { useConfirmSandboxOrderMutation, useGetSandboxOrderQuery } from '../commerce.api';
import { COMMERCE_MESSAGES, PAYMENT_ERROR_CODES, SANDBOX_CHECKOUT_LABEL } from '../commerce.constants';
import type { Order } from '../commerce.types';
import { useRefreshAfterPayment } from '../use-refresh-after-payment';
import { failurePath, successPath } from '../checkout/checkout-result';

const ITEM_KIND: Record<Order['itemType'], string> = {
  song: 'Song · yours to keep',
  album: 'Album · every song on it, yours to keep',
  subscription: 'Monthly subscription · every subscriber song of this artist',
};

const DECIDED: Record<Exclude<Order['status'], 'pending'>, { text: string; ok: boolean }> = {
  paid: { text: 'This order is paid.', ok: true },
  failed: { text: 'This payment was declined. Nothing was charged.', ok: false },
  cancelled: { text: 'This order was cancelled. Nothing was charged.', ok: false },
  refunded: { text: 'This order was refunded.', ok: false },
  disputed: { text: 'This payment is disputed with the bank.', ok: false },
  expired: { text: 'This order expired before it was paid. Nothing was charged.', ok: false },
};

const CYCLE_SUFFIX: Record<string, string> = {
  '1m': '/month',
  '3m': ' for 3 months',
  '6m': ' for 6 months',
  '12m': ' for 12 months',
};

/** A malformed order id (400) or an order that does not exist or is not the caller's (404). */
function isMissingOrder(error: unknown): error is QueryError {
  return (
    typeof error === 'object' &&
    error !== null &&
    'status' in error &&
    [400, 404].includes(Number(error.status))
  );
}

/** The order's price; a subscription says for how long (one month unless the order names its cycle). */
function price(order: Order): string {
  const amount = formatMoney(order.amount, order.currency);
  if (order.itemType !== 'subscription') return amount;
  return `${amount}${CYCLE_SUFFIX[order.cycle ?? '1m'] ?? ''}`;
}

function CheckoutCard({ children, labelledBy }: { children: ReactNode; labelledBy?: string }) {
  return (
    <section
      aria-labelledby={labelledBy}
      className="overflow-hidden rounded-card border border-line bg-surface shadow-2xl shadow-black/40"
    >
      <p className="flex items-center gap-2 border-b border-accent-2/30 bg-accent-2/10 px-4 py-3 text-meta font-semibold text-accent-2 sm:px-6">
        <FlaskConical size={16} strokeWidth={1.75} aria-hidden="true" />
        {SANDBOX_CHECKOUT_LABEL}
      </p>
      <div className="flex flex-col gap-6 p-4 sm:p-6">{children}</div>
    </section>
  );
}

function CheckoutSkeleton() {
  return (
    <CheckoutCard>
      <div aria-hidden="true" className="flex flex-col gap-6">
        <div className="flex flex-col gap-2">
          <Skeleton className="h-3 w-20" />
          <Skeleton className="h-8 w-3/4" />
          <Skeleton className="h-4 w-1/2" />
        </div>
        <Skeleton className="h-16" />
        <div className="flex flex-col gap-2 sm:flex-row">
          <Skeleton className="h-12 flex-1" />
          <Skeleton className="h-12 sm:w-32" />
        </div>
      </div>
      <span className="sr-only" role="status">
        Loading the order
      </span>
    </CheckoutCard>
  );
}

function DecidedOrder({ order }: { order: Order }) {
  if (order.status === 'pending') return null;
  const { text, ok } = DECIDED[order.status];
  const Icon = ok ? CheckCircle2 : order.status === 'failed' ? XCircle : CircleSlash;
  return (
    <div className="flex flex-col gap-4">
      <p className="flex items-start gap-2 text-body" role="status">
        <Icon
          size={20}
          strokeWidth={1.75}
          aria-hidden="true"
          className={ok ? 'shrink-0 text-ok' : 'shrink-0 text-danger'}
        />
        {text}
      </p>
      {ok ? (
        <Link to="/purchases" className={buttonClasses({ size: 'lg' })}>
          Go to your purchases
        </Link>
      ) : (
        <Link to="/home" className={buttonClasses({ size: 'lg', variant: 'secondary' })}>
          Back to Backbeat
        </Link>
      )}
    </div>
  );
}

/**
 * The sandbox gateway's demo checkout (ARCHITECTURE section 5): what is bought and its price, with Pay and Decline.
 * Pay confirms the order, refreshes everything it unlocked and goes to /payment-success; Decline goes to
 * /payment-fail. An order decided earlier shows its outcome instead.
 */
export function SandboxCheckout({ orderId }: { orderId: string }) {
  const navigate = useNavigate();
  const order = useGetSandboxOrderQuery(orderId);
  const [confirm] = useConfirmSandboxOrderMutation();
  const refreshAfterPayment = useRefreshAfterPayment();
  const [deciding, setDeciding] = useState<'pay' | 'decline' | null>(null);

  async function decide(outcome: 'pay' | 'decline') {
    setDeciding(outcome);
    try {
      const answer = await confirm({ id: orderId, outcome }).unwrap();
      if (answer.order.status === 'paid') {
        await refreshAfterPayment(answer.order);
        await navigate(successPath(orderId), { replace: true });
      } else {
        await navigate(failurePath(orderId, answer.message), { replace: true });
      }
    } catch (error) {
      toast.error(queryErrorText(error, COMMERCE_MESSAGES.paymentFailed));
      const decided =
        typeof error === 'object' && error !== null && 'code' in error
          ? error.code === PAYMENT_ERROR_CODES.orderDecided
          : false;
      if (decided) void order.refetch();
      setDeciding(null);
    }
  }

  const data = order.data;
  return (
    <div className="mx-auto w-full max-w-md">
      <title>Demo checkout · Backbeat</title>
      {order.isLoading ? (
        <CheckoutSkeleton />
      ) : order.isError || !data ? (
        isMissingOrder(order.error) ? (
          // Retrying cannot find an order that is not there: offer the way back instead.
          <EmptyState
            tone="error"
            title="Order unavailable"
            description={
              order.error.status === 400 ? 'Order not found' : queryErrorText(order.error, 'Order not found')
            }
            action={
              <Link to="/home" className={buttonClasses({ variant: 'secondary' })}>
                Back to Backbeat
              </Link>
            }
          />
        ) : (
          <QueryErrorState
            error={order.error}
            fallback={COMMERCE_MESSAGES.orderFailed}
            title="Order unavailable"
            onRetry={() => void order.refetch()}
          />
        )
      ) : (
        <CheckoutCard labelledBy="checkout-title">
          <div>
            <p className="text-meta font-semibold uppercase tracking-wider text-accent">Checkout</p>
            <h1 id="checkout-title" className="mt-1 break-words text-h3 font-bold tracking-tight sm:text-h2">
              {data.itemTitle}
            </h1>
            <p className="mt-1 text-body text-muted">{ITEM_KIND[data.itemType]}</p>
          </div>
          <dl className="flex items-baseline justify-between gap-4 rounded-control border border-line bg-bg/40 px-4 py-3">
            <dt className="text-body text-muted">Total</dt>
            <dd className="text-h3 font-bold tabular-nums" data-testid="checkout-price">
              {price(data)}
            </dd>
          </dl>
          {data.status === 'pending' ? (
            <>
              <div className="flex flex-col gap-2 sm:flex-row">
                <Button
                  size="lg"
                  className="tabular-nums sm:flex-1"
                  loading={deciding === 'pay'}
                  disabled={deciding !== null}
                  onClick={() => void decide('pay')}
                >
                  Pay {price(data)}
                </Button>
                <Button
                  size="lg"
                  variant="secondary"
                  loading={deciding === 'decline'}
                  disabled={deciding !== null}
                  onClick={() => void decide('decline')}
                >
                  Decline
                </Button>
              </div>
              <p className="text-meta text-muted">
                This is the sandbox gateway: no card is asked for and nothing is charged. Pay completes the
                order and unlocks it at once; Decline shows what a failed payment looks like.
              </p>
            </>
          ) : (
            <DecidedOrder order={data} />
          )}
        </CheckoutCard>
      )}
    </div>
  );
}
