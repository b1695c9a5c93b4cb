import {
  decideSongAccess,
  type AccessDecision,
  type Entitlements,
  type SongAccessFacts,
  type Viewer,
} from './access-policy';

/** What the download rule needs besides the play facts: whether the artist lets subscribers download. */
export interface SongDownloadFacts extends SongAccessFacts {
  artistAllowsSubscriberDownloads: boolean;
}

export type DownloadDecision =
  | { allowed: true; via: Exclude<Extract<AccessDecision, { allowed: true }>['via'], 'free'> }
  | { allowed: false; message: string };

export const DOWNLOAD_SONG_DENIED = 'You need to purchase this song to download it.';
export const DOWNLOAD_ALBUM_DENIED = 'You need to purchase this album to download it.';

/**
 * The one rule for downloading a song, built on the play rule: whoever may play a song because they bought it
 * (the song, or its album), the artist's own account and admins may download it; a subscriber may only when the
 * artist allows subscriber downloads. A song free to stream is not free to download: playing it for free gives no
 * download (buying it does). A refund revokes the purchase, and with it the download.
 */
export function decideSongDownload(
  viewer: Viewer | null,
  song: SongDownloadFacts,
  entitlements: Entitlements,
  now: Date = new Date(),
): DownloadDecision {
  const play = decideSongAccess(viewer, song, entitlements, now);
  if (
    play.allowed &&
    play.via !== 'free' &&
    (play.via !== 'subscription' || song.artistAllowsSubscriberDownloads)
  ) {
    return { allowed: true, via: play.via };
  }
  if (song.album?.isPremium && !play.allowed) {
    return { allowed: false, message: `Purchase the album "${song.album.title}" to download this song.` };
  }
  return { allowed: false, message: DOWNLOAD_SONG_DENIED };
}
