import { describe, expect, it } from 'vitest';
import type { AccessType } from '@backbeat/contract';
import {
  decideSongAccess,
  holdsSong,
  NO_ENTITLEMENTS,
  REMOVED_SONG_MESSAGE,
  type AccessDecision,
  type Entitlements,
  type SongAccessFacts,
  type Viewer,
} from './access-policy';

const NOW = new Date('2025-06-01T12:00:00Z');
const HOUR = 60 * 60 * 1000;

const OWNER_ID = '00000000-0000-4000-8000-000000000001';
const LISTENER_ID = '00000000-0000-4000-8000-000000000002';
const OTHER_ARTIST_ID = '00000000-0000-4000-8000-000000000003';
const ADMIN_ID = '00000000-0000-4000-8000-000000000004';
const ARTIST = { id: 'artist-1', name: 'Nina Waves' };
const SONG_ID = 'song-1';
const ALBUM_ID = 'album-1';
const ALBUM_TITLE = 'Tide & Time';

type RoleCase = 'guest' | 'user' | 'artist-owner' | 'other-artist' | 'admin';
type AlbumCase = 'none' | 'regular' | 'premium';
/** What the entitlements loader hands the policy for each subscription state (it drops expired rows itself). */
type SubscriptionCase = 'none' | 'active' | 'expired' | 'cancelled-paid-through';

const viewers: Record<RoleCase, Viewer | null> = {
  guest: null,
  user: { id: LISTENER_ID, role: 'user' },
  'artist-owner': { id: OWNER_ID, role: 'artist' },
  'other-artist': { id: OTHER_ARTIST_ID, role: 'artist' },
  admin: { id: ADMIN_ID, role: 'admin' },
};

const periodEnd: Record<SubscriptionCase, Date | null> = {
  none: null,
  active: new Date(NOW.getTime() + 30 * 24 * HOUR),
  expired: new Date(NOW.getTime() - HOUR),
  'cancelled-paid-through': new Date(NOW.getTime() + 5 * 24 * HOUR),
};

function song(
  accessType: AccessType,
  album: AlbumCase,
  artistName = ARTIST.name,
  freeToStream = false,
): SongAccessFacts {
  return {
    id: SONG_ID,
    accessType,
    freeToStream,
    artistId: ARTIST.id,
    artistName,
    artistOwnerUserId: OWNER_ID,
    album: album === 'none' ? null : { id: ALBUM_ID, title: ALBUM_TITLE, isPremium: album === 'premium' },
  };
}

function entitlements(
  songBought: boolean,
  albumBought: boolean,
  subscription: SubscriptionCase,
): Entitlements {
  const end = periodEnd[subscription];
  return {
    purchasedSongIds: new Set(songBought ? [SONG_ID] : []),
    purchasedAlbumIds: new Set(albumBought ? [ALBUM_ID] : []),
    subscriptionPeriodEnds: new Map(end ? [[ARTIST.id, end]] : []),
  };
}

const SUBSCRIBE = `Subscribe to ${ARTIST.name} to play this song.`;
const BUY_ALBUM = `Purchase the album "${ALBUM_TITLE}" to play this song.`;
const BUY_SONG = 'You need to purchase this song to play it.';

/**
 * The rules as ARCHITECTURE section 4.5 and SPEC sections 1 and 8 state them, written out independently of the
 * implementation: admin and the artist's own account always; a bought song or album plays (a purchase is forever: a
 * song bought before its album turned premium still plays); otherwise a premium album needs the album bought; a subscription song plays while the paid period runs.
 * A song free to stream plays for anyone signed in; an entitlement that plays it anyway keeps its name (downloads
 * follow it), so 'free' answers only what would otherwise be refused.
 */
function expected(
  role: RoleCase,
  accessType: AccessType,
  album: AlbumCase,
  songBought: boolean,
  albumBought: boolean,
  subscription: SubscriptionCase,
  free: boolean,
): AccessDecision {
  const decision = expectedWithoutFree(role, accessType, album, songBought, albumBought, subscription);
  return !decision.allowed && role !== 'guest' && free ? { allowed: true, via: 'free' } : decision;
}

function expectedWithoutFree(
  role: RoleCase,
  accessType: AccessType,
  album: AlbumCase,
  songBought: boolean,
  albumBought: boolean,
  subscription: SubscriptionCase,
): AccessDecision {
  if (role === 'guest') {
    return {
      allowed: false,
      reason: 'unauthenticated',
      message: 'Authentication token missing. Please login.',
    };
  }
  if (role === 'admin') return { allowed: true, via: 'admin' };
  if (role === 'artist-owner') return { allowed: true, via: 'owner' };
  if (songBought) return { allowed: true, via: 'song_purchase' };
  if (albumBought) return { allowed: true, via: 'album_purchase' };
  if (album === 'premium') {
    return { allowed: false, reason: 'album_purchase_required', message: BUY_ALBUM };
  }
  if (accessType === 'subscription') {
    const paid = subscription === 'active' || subscription === 'cancelled-paid-through';
    return paid
      ? { allowed: true, via: 'subscription' }
      : { allowed: false, reason: 'subscription_required', message: SUBSCRIBE };
  }
  return { allowed: false, reason: 'song_purchase_required', message: BUY_SONG };
}

const roles: RoleCase[] = ['guest', 'user', 'artist-owner', 'other-artist', 'admin'];
const accessTypes: AccessType[] = ['subscription', 'purchase-only'];
const albumCases: AlbumCase[] = ['none', 'regular', 'premium'];
const subscriptionCases: SubscriptionCase[] = ['none', 'active', 'expired', 'cancelled-paid-through'];

const matrix = roles.flatMap((role) =>
  accessTypes.flatMap((accessType) =>
    albumCases.flatMap((album) =>
      [false, true].flatMap((songBought) =>
        // Without an album there is nothing to have bought.
        (album === 'none' ? [false] : [false, true]).flatMap((albumBought) =>
          subscriptionCases.flatMap((subscription) =>
            [false, true].map((free) => ({
              role,
              accessType,
              album,
              songBought,
              albumBought,
              subscription,
              free,
            })),
          ),
        ),
      ),
    ),
  ),
);

describe('decideSongAccess: the whole matrix', () => {
  it('covers 5 roles x 2 access types x 3 album kinds x purchases x 4 subscription states x free or not', () => {
    expect(matrix).toHaveLength(800);
  });

  it.each(matrix)(
    '$role, $accessType, album $album, song bought $songBought, album bought $albumBought, subscription $subscription, free $free',
    ({ role, accessType, album, songBought, albumBought, subscription, free }) => {
      const decision = decideSongAccess(
        viewers[role],
        song(accessType, album, ARTIST.name, free),
        entitlements(songBought, albumBought, subscription),
        NOW,
      );
      expect(decision).toEqual(
        expected(role, accessType, album, songBought, albumBought, subscription, free),
      );
    },
  );
});

describe('decideSongAccess: messages and edges', () => {
  const listener = viewers.user;

  it('words each refusal exactly as SPEC section 8 shows it', () => {
    const refusals = [
      decideSongAccess(listener, song('subscription', 'none'), NO_ENTITLEMENTS, NOW),
      decideSongAccess(listener, song('purchase-only', 'premium'), NO_ENTITLEMENTS, NOW),
      decideSongAccess(listener, song('purchase-only', 'regular'), NO_ENTITLEMENTS, NOW),
    ].map((decision) => (decision.allowed ? null : decision.message));
    expect(refusals).toEqual([
      'Subscribe to Nina Waves to play this song.',
      'Purchase the album "Tide & Time" to play this song.',
      'You need to purchase this song to play it.',
    ]);
  });

  it('says "this artist" when the artist has no name', () => {
    const decision = decideSongAccess(listener, song('subscription', 'none', ''), NO_ENTITLEMENTS, NOW);
    expect(decision).toMatchObject({
      allowed: false,
      message: 'Subscribe to this artist to play this song.',
    });
  });

  it('ends a subscription exactly at the end of its paid period', () => {
    const at = (end: Date) =>
      decideSongAccess(
        listener,
        song('subscription', 'none'),
        { ...NO_ENTITLEMENTS, subscriptionPeriodEnds: new Map([[ARTIST.id, end]]) },
        NOW,
      ).allowed;
    expect(at(new Date(NOW.getTime() + 1))).toBe(true);
    expect(at(NOW)).toBe(false);
  });

  it('ignores purchases of other songs or albums and subscriptions to other artists', () => {
    const unrelated: Entitlements = {
      purchasedSongIds: new Set(['song-2']),
      purchasedAlbumIds: new Set(['album-2']),
      subscriptionPeriodEnds: new Map([['artist-2', periodEnd.active!]]),
    };
    for (const facts of [
      song('subscription', 'regular'),
      song('purchase-only', 'regular'),
      song('purchase-only', 'premium'),
    ]) {
      expect(decideSongAccess(listener, facts, unrelated, NOW).allowed).toBe(false);
    }
  });

  it("does not let an artist account play another artist's songs for free", () => {
    const decision = decideSongAccess(
      viewers['other-artist'],
      song('purchase-only', 'none'),
      NO_ENTITLEMENTS,
      NOW,
    );
    expect(decision).toEqual({ allowed: false, reason: 'song_purchase_required', message: BUY_SONG });
  });

  it('treats a song whose artist has no owner account like any other song', () => {
    const orphan = { ...song('purchase-only', 'none'), artistOwnerUserId: null };
    expect(decideSongAccess(viewers['artist-owner'], orphan, NO_ENTITLEMENTS, NOW).allowed).toBe(false);
  });
});

describe('decideSongAccess: a song removed after it was sold', () => {
  const removedAt = new Date(NOW.getTime() - 24 * HOUR);
  const removed = (accessType: AccessType = 'subscription'): SongAccessFacts => ({
    ...song(accessType, 'none'),
    removedAt,
  });
  const subscribedFrom = (start: Date, end = periodEnd.active!): Entitlements => ({
    ...NO_ENTITLEMENTS,
    subscriptionPeriodEnds: new Map([[ARTIST.id, end]]),
    subscriptionPeriodStarts: new Map([[ARTIST.id, start]]),
  });
  const listener = viewers.user;

  it('plays for its buyers, the artist and admins', () => {
    const bought = { ...NO_ENTITLEMENTS, purchasedSongIds: new Set([SONG_ID]) };
    expect(decideSongAccess(listener, removed(), bought, NOW)).toEqual({
      allowed: true,
      via: 'song_purchase',
    });
    expect(decideSongAccess(viewers['artist-owner'], removed(), NO_ENTITLEMENTS, NOW).allowed).toBe(true);
    expect(decideSongAccess(viewers.admin, removed(), NO_ENTITLEMENTS, NOW).allowed).toBe(true);
  });

  it('plays for a subscriber through the period that was running when it was removed, and no longer', () => {
    const before = subscribedFrom(new Date(removedAt.getTime() - HOUR));
    expect(decideSongAccess(listener, removed(), before, NOW)).toEqual({
      allowed: true,
      via: 'subscription',
    });
    const ended = subscribedFrom(new Date(removedAt.getTime() - HOUR), NOW);
    expect(decideSongAccess(listener, removed(), ended, NOW).allowed).toBe(false);
    // A period that began after the removal (a renewal, a new subscriber) never reaches it.
    const after = subscribedFrom(new Date(removedAt.getTime() + 1));
    expect(decideSongAccess(listener, removed(), after, NOW)).toEqual({
      allowed: false,
      reason: 'removed',
      message: REMOVED_SONG_MESSAGE,
    });
    // Without the period's start (an entitlements loader that does not say), not at all.
    const unknown = { ...NO_ENTITLEMENTS, subscriptionPeriodEnds: new Map([[ARTIST.id, periodEnd.active!]]) };
    expect(decideSongAccess(listener, removed(), unknown, NOW).allowed).toBe(false);
    // A purchase-only song never played for subscribers, removed or not.
    expect(decideSongAccess(listener, removed('purchase-only'), before, NOW).allowed).toBe(false);
  });

  it('is gone for anyone else: a refusal the routes answer as not found', () => {
    for (const viewer of [listener, viewers['other-artist']]) {
      expect(decideSongAccess(viewer, removed(), NO_ENTITLEMENTS, NOW)).toMatchObject({ reason: 'removed' });
    }
  });

  it('is held (shown in lists) only through a purchase or a subscription, never by admin or owner rights', () => {
    const bought = { ...NO_ENTITLEMENTS, purchasedSongIds: new Set([SONG_ID]) };
    expect(holdsSong(decideSongAccess(listener, removed(), bought, NOW))).toBe(true);
    expect(holdsSong(decideSongAccess(viewers.admin, removed(), bought, NOW))).toBe(false);
    expect(holdsSong(decideSongAccess(viewers['artist-owner'], removed(), NO_ENTITLEMENTS, NOW))).toBe(false);
    expect(holdsSong(decideSongAccess(listener, removed(), NO_ENTITLEMENTS, NOW))).toBe(false);
  });
});
