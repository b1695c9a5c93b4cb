import type { Album } from '@backbeat/contract';
import { albumOffer, shouldOfferAlbum } from '../commerce.offers';
import { useCommerceSelector } from '../commerce.store';
import { OfferButton } from './offer-button';

/** The album page's "Buy album {price}", shown while the viewer does not own the premium album. */
export function AlbumPurchaseButton({ album }: { album: Album }) {
  const user = useCommerceSelector((state) => state.auth.user);
  if (!shouldOfferAlbum(album, user)) return null;
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
      <OfferButton kind="album" offer={albumOffer(album)} look="header" />
      <span className="text-meta text-muted">Sold as a whole: every song on it is yours to keep.</span>
    </div>
  );
}
