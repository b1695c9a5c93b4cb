import { describe, expect, it } from 'vitest';
import {
  albumOffer,
  checkoutTarget,
  isSubscriptionActive,
  offerLabel,
  offerName,
  sellsFreeSong,
  shouldOfferAlbum,
  shouldOfferSubscription,
  songOffer,
  songOfferKind,
  subscriptionOffer,
} from './commerce.offers';
import { makeAlbum, makeArtist, makeSong, makeUser } from './commerce.test-fixtures';

describe('songOfferKind', () => {
  it('offers nothing for a playable song', () => {
    expect(songOfferKind(makeSong({ canPlay: true }))).toBeNull();
  });

  it('asks for the album when the song is on a premium album, whatever its access type', () => {
    const album = { _id: 'a', title: 'Midnight Protocol', isPremium: true };
    expect(songOfferKind(makeSong({ album }))).toBe('album');
    expect(songOfferKind(makeSong({ album, accessType: 'subscription' }))).toBe('album');
  });

  it('asks for a subscription for subscription songs, else for the song', () => {
    expect(songOfferKind(makeSong({ accessType: 'subscription' }))).toBe('subscription');
    expect(songOfferKind(makeSong())).toBe('song');
    expect(songOfferKind(makeSong({ album: null }))).toBe('song');
  });
});

describe('sellsFreeSong: buying a song free to stream gives its download', () => {
  it('offers a free song the viewer plays but cannot download', () => {
    expect(sellsFreeSong(makeSong({ freeToStream: true, canPlay: true, canDownload: false }))).toBe(true);
  });

  it('offers nothing once it is owned, when it has no price, on a premium album, or when it is not free', () => {
    const free = { freeToStream: true, canPlay: true, canDownload: false };
    expect(sellsFreeSong(makeSong({ ...free, canDownload: true }))).toBe(false);
    expect(sellsFreeSong(makeSong({ ...free, price: 0 }))).toBe(false);
    expect(sellsFreeSong(makeSong({ ...free, album: { _id: 'a', title: 'Deluxe', isPremium: true } }))).toBe(
      false,
    );
    expect(sellsFreeSong(makeSong({ ...free, freeToStream: false }))).toBe(false);
    // A guest's list: not playable, so the lock's own offer applies instead.
    expect(sellsFreeSong(makeSong({ ...free, canPlay: false }))).toBe(false);
  });
});

describe('offer texts', () => {
  it('labels each kind with its formatted price', () => {
    expect(offerLabel(songOffer(makeSong()))).toBe('Buy song $1.29');
    expect(offerLabel(albumOffer(makeAlbum()))).toBe('Buy album $12.99');
    expect(offerLabel(subscriptionOffer(makeArtist()))).toBe('Subscribe $4.99/month');
  });

  it('names the button by its visible text, then what is bought', () => {
    expect(offerName(songOffer(makeSong()))).toBe('Buy song $1.29, Gravel & Grace');
    expect(offerName(subscriptionOffer(makeArtist()))).toBe('Subscribe $4.99/month, Nova Reyes');
  });

  it('carries the ids and amounts the order needs', () => {
    expect(albumOffer(makeAlbum())).toEqual({
      kind: 'album',
      itemId: 'album-2',
      itemTitle: 'Midnight Protocol',
      amount: 1299,
      currency: 'USD',
    });
  });
});

describe('shouldOfferAlbum', () => {
  it('offers a premium album the listener does not own', () => {
    expect(shouldOfferAlbum(makeAlbum(), makeUser())).toBe(true);
    expect(shouldOfferAlbum(makeAlbum(), null)).toBe(true);
  });

  it('does not offer an owned, a non-premium, or the viewer-owned album, nor to admins', () => {
    expect(shouldOfferAlbum(makeAlbum(), makeUser({ purchasedAlbums: ['album-2'] }))).toBe(false);
    expect(shouldOfferAlbum(makeAlbum({ isPremium: false }), makeUser())).toBe(false);
    expect(shouldOfferAlbum(makeAlbum(), makeUser({ role: 'admin' }))).toBe(false);
    expect(shouldOfferAlbum(makeAlbum(), makeUser({ role: 'artist', artistId: 'artist-2' }))).toBe(false);
  });
});

describe('shouldOfferSubscription', () => {
  it('offers an artist with a monthly price to listeners only', () => {
    expect(shouldOfferSubscription(makeArtist(), makeUser())).toBe(true);
    expect(shouldOfferSubscription(makeArtist({ subscriptionPrice: 0 }), makeUser())).toBe(false);
    expect(shouldOfferSubscription(makeArtist(), makeUser({ role: 'admin' }))).toBe(false);
    expect(shouldOfferSubscription(makeArtist(), makeUser({ artistId: 'artist-2' }))).toBe(false);
  });
});

describe('isSubscriptionActive', () => {
  const now = Date.parse('2025-06-01T00:00:00Z');
  it('counts an active subscription until its paid period ends', () => {
    expect(isSubscriptionActive({ status: 'active', currentPeriodEnd: '2025-06-30T00:00:00Z' }, now)).toBe(
      true,
    );
    expect(isSubscriptionActive({ status: 'active', currentPeriodEnd: null }, now)).toBe(true);
    expect(isSubscriptionActive({ status: 'active', currentPeriodEnd: '2025-05-30T00:00:00Z' }, now)).toBe(
      false,
    );
    expect(isSubscriptionActive({ status: 'expired' }, now)).toBe(false);
    expect(isSubscriptionActive({ status: 'pending' }, now)).toBe(false);
  });
});

describe('checkoutTarget', () => {
  const origin = 'https://backbeat.example';
  it('keeps this site as an in-app path', () => {
    expect(checkoutTarget('/checkout/sandbox/o1', origin)).toEqual({ path: '/checkout/sandbox/o1' });
    expect(checkoutTarget(`${origin}/checkout/sandbox/o1?x=1`, origin)).toEqual({
      path: '/checkout/sandbox/o1?x=1',
    });
  });

  it('opens https pages elsewhere and refuses anything else', () => {
    expect(checkoutTarget('https://pay.example/c/1', origin)).toEqual({ href: 'https://pay.example/c/1' });
    expect(checkoutTarget('javascript:alert(1)', origin)).toBeNull();
    expect(checkoutTarget('http://pay.example/c/1', origin)).toBeNull();
  });
});
