import type { Album, Artist, Song, User } from '@backbeat/contract';
import { formatMoney } from '../../lib/format';
import type { Offer } from './commerce.types';

/** What unlocks a song the viewer may not play, in the access policy's order (ARCHITECTURE section 4). */
export type SongOfferKind = Offer['kind'];

export function songOfferKind(song: Pick<Song, 'canPlay' | 'accessType' | 'album'>): SongOfferKind | null {
  if (song.canPlay !== false) return null;
  if (song.album?.isPremium) return 'album';
  if (song.accessType === 'subscription') return 'subscription';
  return 'song';
}

/**
 * A song free to stream that the viewer plays but does not own: buying it gives the download and supports the artist
 * (Bandcamp's "buy digital track"). Not when it is sold only with its premium album, or not sold at all.
 */
export function sellsFreeSong(
  song: Pick<Song, 'freeToStream' | 'canPlay' | 'canDownload' | 'price' | 'album'>,
): boolean {
  return (
    song.freeToStream &&
    song.canPlay !== false &&
    !song.canDownload &&
    song.price > 0 &&
    !song.album?.isPremium
  );
}

/** The button's visible text: "Buy song $1.29", "Buy album $12.99", "Subscribe $4.99/month". */
export function offerLabel(offer: Pick<Offer, 'kind' | 'amount' | 'currency'>): string {
  const price = formatMoney(offer.amount, offer.currency);
  if (offer.kind === 'subscription') return `Subscribe ${price}/month`;
  return `${offer.kind === 'album' ? 'Buy album' : 'Buy song'} ${price}`;
}

/** The accessible name starts with the visible text and says what is bought. */
export function offerName(offer: Offer): string {
  return `${offerLabel(offer)}, ${offer.itemTitle}`;
}

/** Admins and an artist's own account play everything of theirs: they never need to buy it. */
function playsEverything(user: User | null, artistId: string): boolean {
  return user?.role === 'admin' || (user?.artistId != null && user.artistId === artistId);
}

export function songOffer(song: Pick<Song, '_id' | 'title' | 'price' | 'currency'>): Offer {
  return {
    kind: 'song',
    itemId: song._id,
    itemTitle: song.title,
    amount: song.price,
    currency: song.currency,
  };
}

export function albumOffer(album: Pick<Album, '_id' | 'title' | 'price' | 'currency'>): Offer {
  return {
    kind: 'album',
    itemId: album._id,
    itemTitle: album.title,
    amount: album.price,
    currency: album.currency,
  };
}

export function subscriptionOffer(
  artist: Pick<Artist, '_id' | 'name' | 'subscriptionPrice' | 'currency'>,
): Offer {
  return {
    kind: 'subscription',
    itemId: artist._id,
    itemTitle: artist.name,
    amount: artist.subscriptionPrice,
    currency: artist.currency,
  };
}

/** Whether the album page offers the album: a premium album the viewer neither owns nor plays anyway. */
export function shouldOfferAlbum(album: Album, user: User | null): boolean {
  if (!album.isPremium || playsEverything(user, album.artist._id)) return false;
  return !user?.purchasedAlbums.includes(album._id);
}

/** Whether the artist page offers a subscription: a monthly price, and the viewer needs one. */
export function shouldOfferSubscription(artist: Artist, user: User | null): boolean {
  return artist.subscriptionPrice > 0 && !playsEverything(user, artist._id);
}

/** Subscriptions that still unlock songs: active, and their paid period not over. */
export function isSubscriptionActive(
  subscription: { status?: string; currentPeriodEnd?: string | null },
  now = Date.now(),
): boolean {
  if (subscription.status !== 'active') return false;
  if (!subscription.currentPeriodEnd) return true;
  return new Date(subscription.currentPeriodEnd).getTime() > now;
}

/** Where a gateway sends the buyer: a path in this app (the sandbox's demo checkout) or another site's page. */
export type CheckoutTarget = { path: string } | { href: string };

/** Reads a checkout address; anything but this site or an https page (e.g. `javascript:`) is refused as null. */
export function checkoutTarget(checkoutUrl: string, origin = window.location.origin): CheckoutTarget | null {
  let url: URL;
  try {
    url = new URL(checkoutUrl, origin);
  } catch {
    return null;
  }
  if (url.origin === origin) return { path: `${url.pathname}${url.search}${url.hash}` };
  return url.protocol === 'https:' ? { href: url.href } : null;
}
