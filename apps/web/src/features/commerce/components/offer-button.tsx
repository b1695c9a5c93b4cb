import { HeartHandshake, Lock, ShoppingBag } from 'lucide-react';
import { Button, Spinner, cx } from '../../../components/ui';
import { offerLabel, offerName, type SongOfferKind } from '../commerce.offers';
import type { Offer } from '../commerce.types';
import { useStartCheckout } from '../use-start-checkout';

const KIND_LABEL: Record<SongOfferKind, string> = {
  song: 'Buy song',
  album: 'Buy album',
  subscription: 'Subscribe',
};

export interface OfferButtonProps {
  kind: SongOfferKind;
  /** Null while its price is still loading: the button shows the kind only and waits. */
  offer: Offer | null;
  /**
   * `row`: a compact lock pill in song rows (icon only below 1024 px, where the song title needs the room);
   * `header`: a page's main action.
   */
  look?: 'row' | 'header';
}

/** "Buy song $1.29", "Buy album $12.99" or "Subscribe $4.99/month": starts the checkout for the shown amount. */
export function OfferButton({ kind, offer, look = 'row' }: OfferButtonProps) {
  const { start, busy } = useStartCheckout();
  const label = offer ? offerLabel(offer) : KIND_LABEL[kind];
  const name = offer ? offerName(offer) : label;
  const onClick = () => {
    if (offer) void start(offer);
  };

  if (look === 'header') {
    const Icon = kind === 'subscription' ? HeartHandshake : ShoppingBag;
    return (
      <Button
        onClick={onClick}
        loading={busy}
        disabled={!offer}
        aria-label={name}
        icon={<Icon size={18} strokeWidth={1.75} aria-hidden="true" />}
        className="tabular-nums"
      >
        {label}
      </Button>
    );
  }

  return (
    <button
      type="button"
      onClick={onClick}
      disabled={!offer || busy}
      aria-busy={busy || undefined}
      aria-label={name}
      title={name}
      className={cx(
        'inline-flex h-8 min-w-8 shrink-0 items-center justify-center gap-1 rounded-pill border border-accent/50 px-2 text-meta font-semibold text-accent tabular-nums',
        'transition-colors duration-150 ease-out hover:border-accent hover:bg-accent hover:text-bg',
        'disabled:cursor-wait disabled:opacity-60 disabled:hover:bg-transparent disabled:hover:text-accent lg:px-2.5',
      )}
    >
      {busy ? <Spinner size="sm" tone="accent" /> : <Lock size={12} strokeWidth={1.75} aria-hidden="true" />}
      <span className="sr-only lg:not-sr-only lg:whitespace-nowrap!">{label}</span>
    </button>
  );
}
