/** SPEC section 8: the texts a listener sees when a song or album stream is refused or fails. */
import type { StreamDeniedResponse } from '@backbeat/contract';
import { errorText } from '../../lib/api';

export const STREAM_MESSAGES = {
  alreadyFetched: 'Already fetched',
  accessDenied: 'Access denied. Unlock to continue.',
  purchaseSong: 'You need to purchase this song to play it.',
  songFailed: 'Failed to fetch streaming URL',
  albumDenied: 'You need to purchase this album to stream it.',
  albumFailed: 'Failed to stream album',
  previewFailed: 'Failed to load the preview',
} as const;

/** What the client knows about a song when wording a refusal (from the song, else from the 403 body). */
export interface SongAccessFacts {
  accessType?: 'subscription' | 'purchase-only';
  artistName?: string | null;
  albumTitle?: string | null;
  isPremium?: boolean;
  /** The server's reason, when it sent one: it decides between the texts below. */
  reason?: StreamDeniedResponse['reason'];
}

const subscribeText = (artistName: string | null | undefined) =>
  `Subscribe to ${artistName?.trim() || 'this artist'} to play this song.`;
const albumText = (albumTitle: string | null | undefined) =>
  `Purchase the album "${albumTitle ?? ''}" to play this song.`;

/**
 * The 403 text for a song. SPEC order: subscription songs ask for a subscription; purchase-only songs on a premium
 * album ask for the album; anything else asks for the song. When the server names its reason, that reason picks
 * the text, so a subscription song on a premium album (the server wants the album bought) is not told to subscribe.
 */
export function songDeniedMessage(facts: SongAccessFacts): string {
  let message: string = STREAM_MESSAGES.accessDenied;
  switch (facts.reason) {
    case 'subscription_required':
      return subscribeText(facts.artistName);
    case 'album_purchase_required':
      return albumText(facts.albumTitle);
    case 'song_purchase_required':
      return STREAM_MESSAGES.purchaseSong;
    default:
      break;
  }
  if (facts.accessType === 'subscription') message = subscribeText(facts.artistName);
  else if (facts.accessType === 'purchase-only' && facts.isPremium) message = albumText(facts.albumTitle);
  else message = STREAM_MESSAGES.purchaseSong;
  return message;
}

function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('status' in error)) return undefined;
  const status = (error as { status: unknown }).status;
  return typeof status === 'number' ? status : undefined;
}

function deniedBody(error: unknown): Partial<StreamDeniedResponse> {
  if (typeof error !== 'object' || error === null || !('body' in error)) return {};
  const body = (error as { body: unknown }).body;
  return typeof body === 'object' && body !== null ? (body as Partial<StreamDeniedResponse>) : {};
}

const reasons = new Set<string>([
  'subscription_required',
  'album_purchase_required',
  'song_purchase_required',
]);

/** The message for a failed GET /stream/song/:id; `song` facts win over the body's. */
export function songStreamErrorMessage(error: unknown, song?: Omit<SongAccessFacts, 'reason'>): string {
  if (statusOf(error) !== 403) return errorText(error, STREAM_MESSAGES.songFailed);
  const body = deniedBody(error);
  const reason = typeof body.reason === 'string' && reasons.has(body.reason) ? body.reason : undefined;
  return songDeniedMessage({
    accessType: song?.accessType ?? body.accessType,
    artistName: song?.artistName ?? body.artistName,
    albumTitle: song?.albumTitle ?? body.albumTitle,
    isPremium: song?.isPremium ?? body.isPremium,
    reason,
  });
}

/** The message for a failed GET /stream/album/:id. */
export function albumStreamErrorMessage(error: unknown): string {
  if (statusOf(error) === 403) return STREAM_MESSAGES.albumDenied;
  return errorText(error, STREAM_MESSAGES.albumFailed);
}
