import { lazy, Suspense, useEffect, useId, useState } from 'react';
import { CreditCard, FlaskConical, IndianRupee, ShoppingBag, Wallet, type LucideIcon } from 'lucide-react';
import type { GatewayInfo, PaymentGateway, SubscriptionCycle } from '@backbeat/contract';
import { Button, FormAlert, Modal, Spinner, cx } from '../../../components/ui';
import { queryErrorText } from '../../../lib/api-query';
import { formatMoney } from '../../../lib/format';
import { COMMERCE_MESSAGES } from '../commerce.constants';
import type { Offer } from '../commerce.types';
import { useGetGatewaysQuery } from '../payments.api';
import { CYCLE_LABEL, CYCLE_SUFFIX, SUBSCRIPTION_CYCLES, cyclePrice } from '../subscription-cycles';
import { useStartCheckout } from '../use-start-checkout';
import type { GatewayCheckoutProps } from './checkout-requests';

// Each gateway's browser code is its own chunk, loaded only when the buyer picks it.
const StripeCheckout = lazy(() => import('./stripe-checkout'));
const RazorpayCheckout = lazy(() => import('./razorpay-checkout'));
const PaypalCheckout = lazy(() => import('./paypal-checkout'));

const MODE_NOTE: Partial<Record<GatewayInfo['mode'], string>> = {
  emulator: 'Test mode · local gateway emulator: no real money moves.',
  test: "Test mode: the provider's test keys, no real money moves.",
  demo: 'Demo payment - no money moves',
};

/** Each gateway's own mark: a card for Stripe's card form, not for the others. */
const GATEWAY_ICON: Record<PaymentGateway, LucideIcon> = {
  stripe: CreditCard,
  razorpay: IndianRupee,
  paypal: Wallet,
  sandbox: FlaskConical,
};

const TEST_HINT: Partial<Record<PaymentGateway, string>> = {
  stripe: 'Test card 4242 4242 4242 4242, any future date, any CVC. 4000 0000 0000 0002 is declined.',
  razorpay: 'Test card 4111 1111 1111 1111, or choose Failure in the test checkout.',
  paypal: 'Use a test buyer in the PayPal window.',
};

/**
 * The checkout: what is bought and its price, the cycle of a subscription (the price per cycle shown), the
 * configured gateways (only those the server names), and the chosen gateway's own payment form.
 */
export function CheckoutDialog({
  offer,
  open,
  onClose,
}: {
  offer: Offer;
  open: boolean;
  onClose: () => void;
}) {
  const gateways = useGetGatewaysQuery(undefined, { skip: !open });
  const [chosen, setChosen] = useState<PaymentGateway | null>(null);
  const [cycle, setCycle] = useState<SubscriptionCycle>('1m');
  const groupId = useId();
  const subscription = offer.kind === 'subscription';
  const priced: Offer = subscription ? { ...offer, amount: cyclePrice(offer.amount, cycle) } : offer;
  // A gateway is offered for what it can take: subscriptions where it bills them, amounts from its minimum charge.
  const offered = (gateways.data?.gateways ?? []).filter(
    (gateway) => (!subscription || gateway.subscriptions) && (gateway.minimumAmount ?? 0) <= priced.amount,
  );
  const gateway = offered.find((candidate) => candidate.name === chosen) ?? offered[0] ?? null;

  useEffect(() => {
    if (!open) setChosen(null);
  }, [open]);

  const price = formatMoney(priced.amount, priced.currency);
  const title = subscription ? `Subscribe to ${offer.itemTitle}` : `Buy ${offer.itemTitle}`;

  return (
    <Modal
      open={open}
      title={title}
      description={subscription ? `${price}${CYCLE_SUFFIX[cycle]}` : `${price} · yours to keep`}
      icon={<ShoppingBag size={20} strokeWidth={1.75} />}
      onClose={onClose}
    >
      <div className="flex max-h-[70vh] flex-col gap-5 overflow-y-auto">
        {subscription ? (
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-2 text-meta font-semibold tracking-wide text-muted uppercase">
              Billing cycle
            </legend>
            <div className="grid grid-cols-2 gap-2">
              {SUBSCRIPTION_CYCLES.map((option) => (
                <label
                  key={option}
                  className={cx(
                    'flex cursor-pointer flex-col rounded-control border px-3 py-2 transition-colors duration-150',
                    option === cycle ? 'border-accent bg-accent/10' : 'border-line hover:bg-surface-2',
                  )}
                >
                  <input
                    type="radio"
                    name={`${groupId}-cycle`}
                    value={option}
                    checked={option === cycle}
                    onChange={() => {
                      setCycle(option);
                    }}
                    className="sr-only"
                  />
                  <span className="text-body font-semibold">{CYCLE_LABEL[option]}</span>
                  <span className="text-meta text-muted tabular-nums">
                    {formatMoney(cyclePrice(offer.amount, option), offer.currency)}
                    {CYCLE_SUFFIX[option]}
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
        ) : null}

        {gateways.isLoading ? (
          <p className="flex items-center gap-2 text-body text-muted" role="status">
            <Spinner size="sm" /> Loading payment options…
          </p>
        ) : gateways.isError ? (
          <FormAlert tone="error">
            {queryErrorText(gateways.error, COMMERCE_MESSAGES.paymentFailed)}
          </FormAlert>
        ) : offered.length === 0 ? (
          <FormAlert tone="error">Payments are not available right now. Please try again later.</FormAlert>
        ) : (
          <>
            {offered.length > 1 ? (
              <fieldset>
                <legend className="mb-2 text-meta font-semibold tracking-wide text-muted uppercase">
                  Pay with
                </legend>
                <div role="presentation" className="flex flex-wrap gap-2">
                  {offered.map((candidate) => (
                    <label
                      key={candidate.name}
                      className={cx(
                        'inline-flex cursor-pointer items-center gap-2 rounded-pill border px-3 py-1.5 text-body transition-colors duration-150',
                        candidate.name === gateway?.name
                          ? 'border-accent bg-accent/10 text-text'
                          : 'border-line text-muted hover:bg-surface-2',
                      )}
                    >
                      <input
                        type="radio"
                        name={`${groupId}-gateway`}
                        value={candidate.name}
                        checked={candidate.name === gateway?.name}
                        onChange={() => setChosen(candidate.name)}
                        className="sr-only"
                      />
                      <GatewayIcon name={candidate.name} />
                      {candidate.label}
                    </label>
                  ))}
                </div>
              </fieldset>
            ) : null}
            {gateway && MODE_NOTE[gateway.mode] ? (
              <p className="flex items-start gap-2 rounded-control border border-accent-2/40 bg-accent-2/10 px-3 py-2 text-meta text-text">
                <FlaskConical size={16} strokeWidth={1.75} aria-hidden="true" className="mt-px shrink-0" />
                <span>
                  {MODE_NOTE[gateway.mode]}
                  {gateway.mode !== 'live' && TEST_HINT[gateway.name] ? ` ${TEST_HINT[gateway.name]}` : ''}
                </span>
              </p>
            ) : null}
            {gateway && open ? (
              <Suspense
                fallback={
                  <p className="flex items-center gap-2 text-body text-muted" role="status">
                    <Spinner size="sm" /> Loading {gateway.label}…
                  </p>
                }
              >
                <GatewayPane
                  key={`${gateway.name}-${cycle}`}
                  gateway={gateway}
                  offer={priced}
                  cycle={cycle}
                  onHandOff={onClose}
                />
              </Suspense>
            ) : null}
          </>
        )}
        <Button variant="ghost" onClick={onClose}>
          Not now
        </Button>
      </div>
    </Modal>
  );
}

function GatewayPane({
  gateway,
  offer,
  cycle,
  onHandOff,
}: GatewayCheckoutProps & {
  /** Closes this dialog when the provider's own window takes over (a modal dialog would make it inert). */
  onHandOff: () => void;
}) {
  switch (gateway.name) {
    case 'stripe':
      return <StripeCheckout gateway={gateway} offer={offer} cycle={cycle} />;
    case 'razorpay':
      return <RazorpayCheckout gateway={gateway} offer={offer} cycle={cycle} onHandOff={onHandOff} />;
    case 'paypal':
      return <PaypalCheckout gateway={gateway} offer={offer} cycle={cycle} />;
    case 'sandbox':
      return <SandboxOption offer={offer} cycle={cycle} />;
  }
}

/** The built-in demo gateway: its labelled checkout screen with Pay and Decline. */
function SandboxOption({ offer, cycle }: { offer: Offer; cycle: SubscriptionCycle }) {
  const { start, busy } = useStartCheckout();
  return (
    <Button size="lg" loading={busy} onClick={() => void start(offer, cycle)}>
      Continue to the demo checkout
    </Button>
  );
}

function GatewayIcon({ name }: { name: PaymentGateway }) {
  const Icon = GATEWAY_ICON[name];
  return <Icon size={16} strokeWidth={1.75} aria-hidden="true" />;
}
