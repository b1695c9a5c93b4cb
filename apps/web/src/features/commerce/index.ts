/** The commerce feature's public surface: buying songs and albums, subscribing, the sandbox demo checkout. */
export * from './commerce.api';
export * from './payments.api';
export { OrderOutcome } from './components/order-outcome';
export type * from './commerce.types';
export { COMMERCE_MESSAGES, PAYMENT_MESSAGES, SANDBOX_CHECKOUT_LABEL } from './commerce.constants';
export { offerLabel, songOfferKind } from './commerce.offers';
export { AlbumPurchaseButton } from './components/album-purchase-button';
export { ArtistSubscription } from './components/artist-subscription';
export { OfferButton } from './components/offer-button';
export { SandboxCheckout } from './components/sandbox-checkout';
export { SongUnlockButton } from './components/song-unlock-button';
export { AlbumTrackLock } from './components/album-track-lock';
