import { useState } from 'react';
import { CalendarClock, CheckCircle2, HeartOff } from 'lucide-react';
import { toast } from '../../../lib/toast';
import type { Artist } from '@backbeat/contract';
import { Button, Modal } from '../../../components/ui';
import { queryErrorText } from '../../../lib/api-query';
import { formatDate } from '../../../lib/format';
import { useGetSubscriptionsQuery } from '../../library';
import { useCancelArtistSubscriptionMutation } from '../commerce.api';
import { COMMERCE_MESSAGES, SUBSCRIPTION_MESSAGES } from '../commerce.constants';
import { isSubscriptionActive, shouldOfferSubscription, subscriptionOffer } from '../commerce.offers';
import { useCommerceSelector } from '../commerce.store';
import { OfferButton } from './offer-button';

/**
 * The artist page's subscription: "Subscribe {price}/month", or, for a subscriber, until when it plays and a way to
 * cancel it (DELETE /subscriptions/artist/:id, confirmed first; the toast shows the server's message).
 */
export function ArtistSubscription({ artist }: { artist: Artist }) {
  const user = useCommerceSelector((state) => state.auth.user);
  const offered = shouldOfferSubscription(artist, user);
  const subscriptions = useGetSubscriptionsQuery(undefined, { skip: !offered || !user });
  const [cancel, cancelling] = useCancelArtistSubscriptionMutation();
  const [confirming, setConfirming] = useState(false);
  if (!offered) return null;

  const current = subscriptions.data?.find(
    (subscription) =>
      (subscription.artist?._id ?? subscription.artistId) === artist._id &&
      isSubscriptionActive(subscription),
  );
  if (!current) {
    // Until the list answers, the button waits rather than offering what may already be owned.
    const ready = !user || subscriptions.isSuccess || subscriptions.isError;
    return <OfferButton kind="subscription" offer={ready ? subscriptionOffer(artist) : null} look="header" />;
  }

  const until = current.currentPeriodEnd ? formatDate(current.currentPeriodEnd) : '';
  const endsAtPeriodEnd = current.cancelAtPeriodEnd === true;

  async function confirmCancel() {
    try {
      const answer = await cancel(artist._id).unwrap();
      toast.success(answer.message || SUBSCRIPTION_MESSAGES.cancelled);
      setConfirming(false);
    } catch (error) {
      toast.error(queryErrorText(error, COMMERCE_MESSAGES.paymentFailed));
    }
  }

  return (
    <div className="flex flex-wrap items-center justify-center gap-3 md:justify-start">
      <p className="inline-flex items-center gap-1.5 rounded-pill border border-line px-3 py-1.5 text-meta text-muted tabular-nums">
        {endsAtPeriodEnd ? (
          <CalendarClock size={14} strokeWidth={1.75} aria-hidden="true" />
        ) : (
          <CheckCircle2 size={14} strokeWidth={1.75} aria-hidden="true" className="text-ok" />
        )}
        <span>
          {endsAtPeriodEnd ? 'Cancelled' : 'Subscribed'}
          {until ? ` · ${endsAtPeriodEnd ? 'plays until' : 'until'} ${until}` : ''}
        </span>
      </p>
      {endsAtPeriodEnd ? null : (
        <Button variant="secondary" size="sm" onClick={() => setConfirming(true)}>
          Cancel subscription
        </Button>
      )}
      <Modal
        open={confirming}
        title={`Cancel your subscription to ${artist.name}?`}
        description={
          until
            ? `Their subscriber songs keep playing until ${until}; after that they lock again.`
            : 'Their subscriber songs lock again.'
        }
        icon={<HeartOff size={20} strokeWidth={1.75} />}
        tone="danger"
        busy={cancelling.isLoading}
        onClose={() => setConfirming(false)}
      >
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button
            variant="secondary"
            onClick={() => setConfirming(false)}
            disabled={cancelling.isLoading}
            autoFocus
          >
            Keep subscription
          </Button>
          <Button variant="danger" onClick={() => void confirmCancel()} loading={cancelling.isLoading}>
            Cancel subscription
          </Button>
        </div>
      </Modal>
    </div>
  );
}
