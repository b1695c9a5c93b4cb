import {
  formatMoney,
  PAYMENT_ERROR_CODES,
  SUBSCRIPTION_CYCLE_MONTHS,
  type PurchasableItemType,
  type SubscriptionCycle,
} from '@backbeat/contract';
import { AppError, conflict, notFound } from '../../platform/errors';
import type { PaymentsRepository } from './payments.repository';

/** What an order is for, priced by the server from the catalogue. */
export interface Offer {
  itemType: 'song' | 'album' | 'subscription';
  title: string;
  amount: number;
  currency: string;
  artistId: string;
  songId?: string;
  albumId?: string;
  cycle?: SubscriptionCycle;
}

const notForSale = (message: string) => conflict(message, PAYMENT_ERROR_CODES.notForSale);
/**
 * The account that manages an artist plays all its music already (the access policy): selling it its own songs,
 * albums or subscription would only move money in a circle and inflate the artist's sales and subscriber counts.
 */
const MANAGES_ARTIST = 'You manage this artist: its music already plays for your account';
const alreadyOwned = (message: string) => conflict(message, PAYMENT_ERROR_CODES.alreadyOwned);

/**
 * A song or album the user may buy now. Refused: an unknown or unfinished item (404), one the user already owns,
 * directly or through its album, or plays as the artist's own account (409 ALREADY_OWNED), and one that is not sold on its own (409 NOT_FOR_SALE): a free
 * item, and a song on a premium album, which plays only with the album bought (the access policy's rule).
 */
export async function purchaseOffer(
  repo: PaymentsRepository,
  userId: string,
  itemType: PurchasableItemType,
  itemId: string,
): Promise<Offer> {
  if (itemType === 'song') {
    const song = await repo.offers.findSong(itemId);
    if (!song) throw notFound('Song not found', 'SONG_NOT_FOUND');
    if (song.artistOwnerUserId === userId) throw alreadyOwned(MANAGES_ARTIST);
    if (await repo.offers.ownsSong(userId, song.id, song.album?.id ?? null)) {
      throw alreadyOwned('You already own this song');
    }
    if (song.album?.isPremium) {
      throw notForSale(`This song is sold only with the album "${song.album.title}"`);
    }
    if (song.price <= 0) throw notForSale('This song is not for sale');
    return { ...itemOffer(itemType, song), songId: song.id };
  }
  const album = await repo.offers.findAlbum(itemId);
  if (!album) throw notFound('Album not found', 'ALBUM_NOT_FOUND');
  if (album.artistOwnerUserId === userId) throw alreadyOwned(MANAGES_ARTIST);
  if (await repo.offers.ownsAlbum(userId, album.id)) throw alreadyOwned('You already own this album');
  if (album.price <= 0) throw notForSale('This album is not for sale');
  return { ...itemOffer(itemType, album), albumId: album.id };
}

/** A song or album at its catalogue price. */
const itemOffer = (
  itemType: PurchasableItemType,
  item: { title: string; price: number; currency: string; artistId: string },
): Offer => ({
  itemType,
  title: item.title,
  amount: item.price,
  currency: item.currency,
  artistId: item.artistId,
});

/** One cycle of a subscription to the artist: the monthly price times the months; refused while one is active. */
export async function subscriptionOffer(
  repo: PaymentsRepository,
  userId: string,
  artistId: string,
  cycle: SubscriptionCycle,
  now: Date,
): Promise<Offer> {
  const artist = await repo.offers.findArtist(artistId);
  if (!artist) throw notFound('Artist not found', 'ARTIST_NOT_FOUND');
  if (artist.ownerUserId === userId) throw alreadyOwned(MANAGES_ARTIST);
  if (await repo.offers.findActiveSubscription(userId, artist.id, now)) {
    throw alreadyOwned(`You are already subscribed to ${artist.name || 'this artist'}`);
  }
  if (artist.subscriptionPrice <= 0) throw notForSale('Subscriptions to this artist are not for sale');
  return {
    itemType: 'subscription',
    title: subscriptionTitle(artist.name, SUBSCRIPTION_CYCLE_MONTHS[cycle]),
    amount: artist.subscriptionPrice * SUBSCRIPTION_CYCLE_MONTHS[cycle],
    currency: artist.currency,
    artistId: artist.id,
    cycle,
  };
}

/** What receipts and histories call a subscription: "Nova Reyes · monthly subscription" / "· 3-month subscription". */
export function subscriptionTitle(artistName: string, months: number): string {
  const period = months === 1 ? 'monthly' : months === 12 ? 'yearly' : `${months}-month`;
  return `${artistName || 'Artist'} · ${period} subscription`;
}

/** A client that showed another price (or currency) than the server's is refused, naming the current price. */
export function assertPrice(offer: Offer, shown: { amount?: number; currency?: string }): void {
  const amountDiffers = shown.amount !== undefined && shown.amount !== offer.amount;
  const currencyDiffers =
    shown.currency !== undefined && shown.currency.toUpperCase() !== offer.currency.toUpperCase();
  if (amountDiffers || currencyDiffers) {
    throw new AppError(
      400,
      PAYMENT_ERROR_CODES.amountMismatch,
      `The price has changed: it is now ${formatMoney(offer.amount, offer.currency)}`,
    );
  }
}
