import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router';
import { HeartHandshake, Lock, ShoppingBag } from 'lucide-react';
import { Button, cx } from '../../../components/ui';
import { offerLabel, offerName, type SongOfferKind } from '../commerce.offers';
import { useCommerceSelector } from '../commerce.store';
import type { Offer } from '../commerce.types';

// The checkout (and every gateway's code) loads on the first click, not with the song lists.
const CheckoutDialog = lazy(() =>
  import('../checkout/checkout-dialog').then((module) => ({ default: module.CheckoutDialog })),
);

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
  /** `unlock` (default): the viewer may not play it yet; `own`: it plays already, buying gives the download. */
  purpose?: 'unlock' | 'own';
}

/**
 * "Buy song $1.29", "Buy album $12.99" or "Subscribe $4.99/month": opens the checkout for the shown amount (guests
 * go to /login first).
 */
export function OfferButton({ kind, offer, look = 'row', purpose = 'unlock' }: OfferButtonProps) {
  const navigate = useNavigate();
  const signedIn = useCommerceSelector((state) => state.auth.user !== null);
  const [open, setOpen] = useState(false);
  const label = offer ? offerLabel(offer) : KIND_LABEL[kind];
  const name = offer ? offerName(offer) : label;
  const onClick = () => {
    if (!offer) return;
    if (!signedIn) void navigate('/login');
    else setOpen(true);
  };
  const dialog =
    offer && open ? (
      <Suspense fallback={null}>
        <CheckoutDialog offer={offer} open={open} onClose={() => setOpen(false)} />
      </Suspense>
    ) : null;

  if (look === 'header') {
    const Icon = kind === 'subscription' ? HeartHandshake : ShoppingBag;
    return (
      <>
        <Button
          onClick={onClick}
          disabled={!offer}
          aria-label={name}
          icon={<Icon size={18} strokeWidth={1.75} aria-hidden="true" />}
          className="tabular-nums"
        >
          {label}
        </Button>
        {dialog}
      </>
    );
  }

  return (
    <>
      <button
        type="button"
        onClick={onClick}
        disabled={!offer}
        aria-haspopup="dialog"
        aria-label={name}
        title={
          purpose === 'own' ? `${name}: free to stream; buy it to download it and support the artist` : name
        }
        className={cx(
          'inline-flex h-8 min-w-8 shrink-0 items-center justify-center gap-1 rounded-pill border px-2 text-meta font-semibold tabular-nums',
          'transition-colors duration-150 ease-out hover:border-accent hover:bg-accent hover:text-bg',
          'disabled:cursor-wait disabled:opacity-60 disabled:hover:bg-transparent disabled:hover:text-accent lg:px-2.5',
          purpose === 'own' ? 'border-line text-muted' : 'border-accent/50 text-accent',
        )}
      >
        {purpose === 'own' ? (
          <ShoppingBag size={12} strokeWidth={1.75} aria-hidden="true" />
        ) : (
          <Lock size={12} strokeWidth={1.75} aria-hidden="true" />
        )}
        <span className="sr-only lg:not-sr-only lg:whitespace-nowrap!">{label}</span>
      </button>
      {dialog}
    </>
  );
}
