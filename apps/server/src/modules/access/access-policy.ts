import type { AccessType, Role } from '@backbeat/contract';

/** What the policy needs to know about a song. */
export interface SongAccessFacts {
  id: string;
  accessType: AccessType;
  /** The artist lets any signed-in listener stream it in full (absent: not free). */
  freeToStream?: boolean;
  artistId: string;
  artistName: string;
  artistOwnerUserId: string | null;
  album: { id: string; title: string; isPremium: boolean } | null;
  /**
   * When its artist deleted the song after it was sold (status `removed`): it plays only for those who hold it,
   * never for anyone new. Absent or null for songs in the catalogue.
   */
  removedAt?: Date | null;
}

/** A song row joined with its artist and album, as repositories read it: the columns the policies decide on. */
export type SongFactsRow = Omit<SongAccessFacts, 'album' | 'removedAt'> & {
  albumId: string | null;
  albumTitle: string | null;
  albumIsPremium: boolean | null;
  /** When its artist removed it (sold, then deleted); null in the catalogue. */
  removedAt: Date | null;
};

/** The policies' facts of a song row (a song on no album, or an album without a title, has none). */
export function songFacts(row: SongFactsRow): SongAccessFacts {
  return {
    id: row.id,
    accessType: row.accessType,
    freeToStream: row.freeToStream,
    artistId: row.artistId,
    artistName: row.artistName,
    artistOwnerUserId: row.artistOwnerUserId,
    album:
      row.albumId && row.albumTitle !== null
        ? { id: row.albumId, title: row.albumTitle, isPremium: row.albumIsPremium ?? false }
        : null,
    removedAt: row.removedAt,
  };
}

export interface Viewer {
  id: string;
  role: Role;
}

/** The viewer's entitlements, loaded in one batch for all songs in question. */
export interface Entitlements {
  purchasedSongIds: ReadonlySet<string>;
  purchasedAlbumIds: ReadonlySet<string>;
  /** Artist id -> end of the paid period of the viewer's subscription (active, or cancelled but paid through). */
  subscriptionPeriodEnds: ReadonlyMap<string, Date>;
  /**
   * Artist id -> start of that same paid period. A removed song plays for a subscriber only through the period
   * that was running when it was removed; without this map, not at all.
   */
  subscriptionPeriodStarts?: ReadonlyMap<string, Date>;
}

export type DenialReason =
  | 'unauthenticated'
  | 'album_purchase_required'
  | 'subscription_required'
  | 'song_purchase_required'
  /** A removed song, to someone who does not hold it: for them it no longer exists (404 where it is asked for). */
  | 'removed';

export const REMOVED_SONG_MESSAGE = 'This song is no longer available.';

export type AccessDecision =
  | {
      allowed: true;
      via: 'admin' | 'owner' | 'album_purchase' | 'song_purchase' | 'subscription' | 'free';
    }
  | { allowed: false; reason: DenialReason; message: string };

export const NO_ENTITLEMENTS: Entitlements = {
  purchasedSongIds: new Set(),
  purchasedAlbumIds: new Set(),
  subscriptionPeriodEnds: new Map(),
};

/**
 * The one access rule for playing a song (stream URL, key, fallback audio, album stream, `canPlay` in lists):
 * - admins, and the account that owns the song's artist, always;
 * - a bought song plays, whatever happened to its album since (a purchase is forever, until refunded); buying an
 *   album also records each of its tracks as bought, so they stay the buyer's if they leave the album;
 * - a song on a premium album needs the album purchased;
 * - a purchase-only song needs the song or its album purchased;
 * - a subscription song needs a subscription to its artist whose paid period has not ended
 *   (a purchase of the song or its album also unlocks it: bought music stays playable);
 * - a song its artist made free to stream plays for anyone signed in, when nothing above already lets them (so a
 *   buyer's or subscriber's play still names its entitlement: the download policy follows it, never 'free');
 * - a song its artist removed (after it was sold) plays for its buyers, and for subscribers until the end of the
 *   paid period that was running when it was removed; for anyone else it is gone (free to stream or not).
 * The denial messages are the ones SPEC section 8 shows to the listener.
 */
export function decideSongAccess(
  viewer: Viewer | null,
  song: SongAccessFacts,
  entitlements: Entitlements,
  now: Date = new Date(),
): AccessDecision {
  const decision = decideByEntitlement(viewer, song, entitlements, now);
  if (!decision.allowed && viewer && song.freeToStream && !song.removedAt)
    return { allowed: true, via: 'free' };
  return decision;
}

function decideByEntitlement(
  viewer: Viewer | null,
  song: SongAccessFacts,
  entitlements: Entitlements,
  now: Date,
): AccessDecision {
  if (!viewer) {
    return {
      allowed: false,
      reason: 'unauthenticated',
      message: 'Authentication token missing. Please login.',
    };
  }
  if (viewer.role === 'admin') return { allowed: true, via: 'admin' };
  if (song.artistOwnerUserId && song.artistOwnerUserId === viewer.id) return { allowed: true, via: 'owner' };

  // A purchase is forever (until refunded): a bought song plays even if its album became premium later.
  if (entitlements.purchasedSongIds.has(song.id)) return { allowed: true, via: 'song_purchase' };
  const ownsAlbum = song.album !== null && entitlements.purchasedAlbumIds.has(song.album.id);
  if (ownsAlbum) return { allowed: true, via: 'album_purchase' };
  if (song.removedAt) return decideRemovedSong(song, song.removedAt, entitlements, now);
  if (song.album?.isPremium) {
    return {
      allowed: false,
      reason: 'album_purchase_required',
      message: `Purchase the album "${song.album.title}" to play this song.`,
    };
  }

  if (song.accessType === 'subscription') {
    const paidThrough = entitlements.subscriptionPeriodEnds.get(song.artistId);
    if (paidThrough && paidThrough.getTime() > now.getTime()) return { allowed: true, via: 'subscription' };
    return {
      allowed: false,
      reason: 'subscription_required',
      message: `Subscribe to ${song.artistName || 'this artist'} to play this song.`,
    };
  }
  return {
    allowed: false,
    reason: 'song_purchase_required',
    message: 'You need to purchase this song to play it.',
  };
}

/** A removed song, for a viewer who bought neither it nor its album: only a subscription from before the removal. */
function decideRemovedSong(
  song: SongAccessFacts,
  removedAt: Date,
  entitlements: Entitlements,
  now: Date,
): AccessDecision {
  const paidThrough = entitlements.subscriptionPeriodEnds.get(song.artistId);
  const paidFrom = entitlements.subscriptionPeriodStarts?.get(song.artistId);
  const subscribedThen =
    song.accessType === 'subscription' &&
    !song.album?.isPremium &&
    paidThrough !== undefined &&
    paidThrough.getTime() > now.getTime() &&
    paidFrom !== undefined &&
    paidFrom.getTime() <= removedAt.getTime();
  if (subscribedThen) return { allowed: true, via: 'subscription' };
  return { allowed: false, reason: 'removed', message: REMOVED_SONG_MESSAGE };
}

/**
 * Whether the viewer holds the song themselves (bought it or its album, or subscribes): what lets a removed song
 * appear in their lists. Admins and the artist's own account may play it, but it left their catalogue too.
 */
export function holdsSong(decision: AccessDecision): boolean {
  return decision.allowed && decision.via !== 'admin' && decision.via !== 'owner';
}
