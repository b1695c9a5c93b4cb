import { z } from 'zod';
import { AccessType } from './catalog';
import { ErrorResponse, Id, MessageResponse } from './common';

/** Why the access policy refused a song (SPEC section 8 picks the listener's message from these facts). */
export const DenialReason = z.enum([
  'unauthenticated',
  'album_purchase_required',
  'subscription_required',
  'song_purchase_required',
]);
export type DenialReason = z.infer<typeof DenialReason>;

export const StreamSongParams = z.object({ id: Id });
export type StreamSongParams = z.infer<typeof StreamSongParams>;

/**
 * GET /stream/song/:id. `url` is the HLS playlist, `audioUrl` the plain AAC fallback; both carry the same signed
 * token, bound to the signed-in user and this song, valid for a few hours. `firstSegmentUrl` is the address the
 * playlist gives its first segment (public ciphertext, no token), so a player can ask for it together with the
 * playlist and the key rather than after the playlist.
 */
export const StreamSongResponse = z.object({
  url: z.string(),
  audioUrl: z.string(),
  firstSegmentUrl: z.string(),
});
export type StreamSongResponse = z.infer<typeof StreamSongResponse>;

/** 403 from GET /stream/song/:id (and the key and audio endpoints): the policy's message plus its facts. */
export const StreamDeniedResponse = z.object({
  message: z.string(),
  code: z.literal('ACCESS_DENIED'),
  reason: DenialReason,
  accessType: AccessType,
  artistName: z.string(),
  albumTitle: z.string().nullable(),
  isPremium: z.boolean(),
});
export type StreamDeniedResponse = z.infer<typeof StreamDeniedResponse>;

/**
 * 403 from the key and fallback audio endpoints and POST /stream/plays: the policy's refusal (as above), or a plain
 * `{ message, code }` (INVALID_STREAM_TOKEN for a bad, expired or ended token; CSRF for a cross-site cookie POST).
 */
export const StreamRefusedResponse = z.union([StreamDeniedResponse, ErrorResponse]);
export type StreamRefusedResponse = z.infer<typeof StreamRefusedResponse>;

/**
 * The raw bytes of a media answer (HLS playlist text, AES key, MPEG-TS segment, AAC audio). Documentation only:
 * such answers are strings, Buffers or streams, which Fastify never passes through a response serializer.
 */
export const MediaBytes = z.string().meta({ format: 'binary' });

/** GET /stream/album/:id: the album's ready songs the viewer may play, in track order. */
export const StreamAlbumResponse = z.object({
  urls: z.array(z.object({ songId: z.string(), url: z.string(), firstSegmentUrl: z.string() })),
});
export type StreamAlbumResponse = z.infer<typeof StreamAlbumResponse>;

/** 403 from GET /stream/album/:id: 'You need to purchase this album to stream it.' */
export const StreamAlbumDeniedResponse = z.object({
  message: z.string(),
  code: z.literal('ACCESS_DENIED'),
  reason: DenialReason,
});
export type StreamAlbumDeniedResponse = z.infer<typeof StreamAlbumDeniedResponse>;

/** The signed stream token; a missing token is refused like a bad one (403). */
export const StreamTokenQuery = z.object({ token: z.string().max(512).optional() });
export type StreamTokenQuery = z.infer<typeof StreamTokenQuery>;

export const HlsParams = z.object({ songId: Id });
export type HlsParams = z.infer<typeof HlsParams>;
export const HlsSegmentParams = z.object({ songId: Id, segment: z.string().max(64) });
export type HlsSegmentParams = z.infer<typeof HlsSegmentParams>;

/** POST /stream/plays: one listen, at most the song's duration plus 5 seconds. */
export const RecordPlayBody = z.object({
  songId: Id,
  secondsListened: z
    .number({ error: 'must be a number of seconds' })
    .min(0, 'must be at least 0')
    .max(24 * 60 * 60, 'must be at most 86400'),
});
export type RecordPlayBody = z.infer<typeof RecordPlayBody>;
export const RecordPlayResponse = MessageResponse;
export type RecordPlayResponse = z.infer<typeof RecordPlayResponse>;

export const RecentlyPlayedQuery = z.object({
  limit: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(100, 'must be at most 100')
    .default(20),
});
export type RecentlyPlayedQuery = z.infer<typeof RecentlyPlayedQuery>;

export const RecentlyPlayedSong = z.object({
  _id: z.string(),
  title: z.string(),
  singer: z.string(),
  coverImage: z.string().nullable(),
  duration: z.number(),
  /** ISO time of the latest play of this song. */
  playedAt: z.string(),
});
export type RecentlyPlayedSong = z.infer<typeof RecentlyPlayedSong>;

/** GET /users/me/recently-played: distinct songs, latest play first. */
export const RecentlyPlayedResponse = z.object({ songs: z.array(RecentlyPlayedSong) });
export type RecentlyPlayedResponse = z.infer<typeof RecentlyPlayedResponse>;

// ---------------------------------------------------------------------------------------------------------------
// Previews: a separately encrypted rendition of a short window of a song, playable without a purchase.

/** Length of a preview, in seconds. */
export const PREVIEW_SECONDS = 30;
/** Where a preview starts when the artist picked nothing. */
export const PREVIEW_DEFAULT_START_SEC = 30;

/**
 * The window a song previews, from its duration and the artist's pick (null = the default): 30 s, starting at the
 * pick but early enough to end with the song (so a song under 60 s with the default start previews its last
 * 30 s). A song shorter than 30 s previews its first half: a preview is never the whole song.
 */
export function previewWindow(
  durationSec: number,
  startSec: number | null,
): { startSec: number; durationSec: number } {
  const duration = Number.isFinite(durationSec) && durationSec > 0 ? durationSec : 0;
  if (duration < PREVIEW_SECONDS) {
    return { startSec: 0, durationSec: Math.floor((duration / 2) * 100) / 100 };
  }
  const wanted = startSec ?? PREVIEW_DEFAULT_START_SEC;
  const start = Math.min(Math.max(0, wanted), duration - PREVIEW_SECONDS);
  return { startSec: Math.floor(start * 100) / 100, durationSec: PREVIEW_SECONDS };
}

/**
 * GET /stream/song/:id/preview: the preview's HLS playlist and plain AAC fallback, both carrying a preview token
 * (good for the preview files only, never the song's), and the window they cover.
 */
export const StreamPreviewResponse = z.object({
  url: z.string(),
  audioUrl: z.string(),
  /** The address the preview's playlist gives its first segment (the API, or SEGMENT_BASE_URL's nginx/CDN). */
  firstSegmentUrl: z.string(),
  startSec: z.number(),
  durationSec: z.number(),
});
export type StreamPreviewResponse = z.infer<typeof StreamPreviewResponse>;
