import type { StreamPreviewResponse } from '@backbeat/contract';
import { addressSubject } from '../../platform/address-group';
import { AppError, conflict, forbidden, notFound } from '../../platform/errors';
import { TtlCache } from '../../platform/ttl-cache';
import type { RateLimitRule, RateLimitService } from '../auth';
import { HLS_FILES, previewBasePath, SEGMENT_NAME } from './hls-playlist';
import type { MediaFile, StreamMedia } from './stream-media';
import { GUEST_HOLDER, isGuestHolder, type StreamTokenService } from './stream-token.service';
import type { StreamingRepository } from './streaming.repository';
import type { Requester, SessionLiveness, StreamViewer } from './streaming.service';
import { PROCESSING_MESSAGE } from './streaming.service';

/** A preview token is short-lived: it opens 30 seconds of audio, not a listening session. */
export const PREVIEW_TOKEN_TTL_MS = 60 * 60 * 1000;

const HOUR = 60 * 60 * 1000;
/** Previews started per hour: guests by address, listeners by account (several tabs, a long browse). */
export const PREVIEW_RATE_LIMITS = {
  guest: { name: 'preview-guest', limit: 30, windowMs: HOUR },
  listener: { name: 'preview-listener', limit: 300, windowMs: HOUR },
} satisfies Record<string, RateLimitRule>;

export const PREVIEW_PREPARING_MESSAGE = 'The preview of this song is being prepared. Try again in a moment.';

export const previewPlaylistUrl = (songId: string, token: string) =>
  `${previewBasePath(songId)}/${HLS_FILES.playlist}?token=${encodeURIComponent(token)}`;
export const previewAudioUrl = (songId: string, token: string) =>
  `${previewBasePath(songId)}/audio?token=${encodeURIComponent(token)}`;

const invalidToken = () => forbidden('This preview link is invalid or has expired.', 'INVALID_PREVIEW_TOKEN');
const songNotFound = () => notFound('Song not found', 'SONG_NOT_FOUND');
const noPreview = () => notFound('This song has no preview', 'PREVIEW_NOT_FOUND');

export interface PreviewServiceDeps {
  repository: StreamingRepository;
  /** Preview tokens: their own MAC key, so they never pass as a stream token (and the reverse). */
  tokens: StreamTokenService;
  /** The preview files (a StreamMedia whose prefixes are the songs' current previews). */
  media: StreamMedia;
  rateLimits: RateLimitService;
  sessionIsLive: SessionLiveness;
  /** Queues the song's preview once (songs made before previews existed, or whose preview is being remade). */
  queuePreview: (songId: string) => Promise<unknown>;
  clock?: () => Date;
}

/**
 * Previews of songs the listener may not play: a separately encrypted rendition of a 30-second window, with its
 * own key, playlist and segments, so nothing served here decodes any other second of the song. No purchase is
 * needed; guests may preview too, rate-limited by address. The song's own stream, key and fallback file keep
 * refusing exactly as before (SPEC section 8): the preview is an extra offer.
 */
export class PreviewService {
  private readonly clock: () => Date;
  /** Preview tokens whose play was counted (a preview counts once, when its audio is first fetched). */
  private readonly counted = new TtlCache<string, true>(100_000, PREVIEW_TOKEN_TTL_MS);

  constructor(private readonly deps: PreviewServiceDeps) {
    this.clock = deps.clock ?? (() => new Date());
  }

  /** GET /stream/song/:id/preview: signed addresses of the preview, after the rate limit. */
  async previewAddress(
    viewer: StreamViewer | null,
    songId: string,
    address: string,
  ): Promise<StreamPreviewResponse> {
    await this.deps.rateLimits.consume(viewer ? PREVIEW_RATE_LIMITS.listener : PREVIEW_RATE_LIMITS.guest, [
      viewer ? `user:${viewer.id}` : addressSubject(address),
    ]);
    const row = await this.deps.repository.findPreview(songId);
    // A removed song is offered to no one new: its buyers play it whole.
    if (!row || row.media.status === 'removed') throw songNotFound();
    if (row.media.status === 'failed')
      throw new AppError(409, 'SONG_FAILED', 'This song could not be processed.');
    if (row.media.status !== 'ready') throw conflict(PROCESSING_MESSAGE, 'SONG_PROCESSING');
    if (!row.preview) {
      await this.deps.queuePreview(songId);
      throw new AppError(409, 'PREVIEW_PREPARING', PREVIEW_PREPARING_MESSAGE);
    }
    const holder = viewer ? { userId: viewer.id, sessionId: viewer.sessionId } : GUEST_HOLDER;
    const token = this.deps.tokens.issue(holder, songId, this.clock().getTime());
    return {
      url: previewPlaylistUrl(songId, token),
      audioUrl: previewAudioUrl(songId, token),
      firstSegmentUrl: this.deps.media.firstSegmentUrl(songId, row.preview.prefix, previewBasePath(songId)),
      startSec: row.preview.startSec,
      durationSec: row.preview.durationSec,
    };
  }

  /** The preview's playlist, its key URI pointing at the preview key with the same token. */
  async playlist(songId: string, token: string | undefined, requester: Requester): Promise<string> {
    await this.verify(songId, token, requester);
    const prefix = await this.prefix(songId);
    return (await this.deps.media.playlist(songId, prefix, previewBasePath(songId))).render(token!);
  }

  /** The preview's AES-128 key: a preview token is all it needs. The preview play is counted here. */
  async key(songId: string, token: string | undefined, requester: Requester): Promise<Buffer> {
    const userId = await this.verify(songId, token, requester);
    const key = await this.deps.media.key(await this.prefix(songId));
    await this.countPlay(token!, songId, userId);
    return key;
  }

  /** The preview's plain AAC fallback (for players without HLS), counted like the key. */
  async audioFile(songId: string, token: string | undefined, requester: Requester): Promise<MediaFile> {
    const userId = await this.verify(songId, token, requester);
    const file = await this.deps.media.file(`${await this.prefix(songId)}/${HLS_FILES.audio}`);
    if (!file) throw noPreview();
    await this.countPlay(token!, songId, userId);
    return file;
  }

  /** An encrypted preview segment: public like the song's (ciphertext under the preview's own key). */
  async segmentFile(songId: string, segment: string): Promise<MediaFile> {
    if (!SEGMENT_NAME.test(segment)) throw notFound('Segment not found', 'SEGMENT_NOT_FOUND');
    const prefix = await this.deps.media.readyPrefix(songId);
    const file = prefix ? await this.deps.media.file(`${prefix}/${segment}`) : null;
    if (!file) throw notFound('Segment not found', 'SEGMENT_NOT_FOUND');
    return file;
  }

  private async prefix(songId: string): Promise<string> {
    const prefix = await this.deps.media.readyPrefix(songId);
    if (!prefix) throw noPreview();
    return prefix;
  }

  /**
   * A genuine, unexpired preview token for this song. A listener's token lives only as long as its session and
   * only for that account; a guest's token belongs to no one. Returns the listener's id (null for a guest).
   */
  private async verify(
    songId: string,
    token: string | undefined,
    requester: Requester,
  ): Promise<string | null> {
    const claims = this.deps.tokens.verify(token, songId, this.clock().getTime());
    if (!claims) throw invalidToken();
    if (isGuestHolder(claims)) return null;
    const asking = await requester();
    if (asking && asking.userId !== claims.userId) {
      throw forbidden('This preview link belongs to another account.', 'INVALID_PREVIEW_TOKEN');
    }
    if (asking?.sessionId !== claims.sessionId && !(await this.deps.sessionIsLive(claims.sessionId))) {
      throw invalidToken();
    }
    return claims.userId;
  }

  /**
   * One preview play per token, when its audio is first fetched (guests included). Its listening time is not
   * measured: dashboards count preview plays, and listening time from full plays only.
   */
  private async countPlay(token: string, songId: string, userId: string | null): Promise<void> {
    const playedAt = this.clock();
    const now = playedAt.getTime();
    if (this.counted.get(token, now)) return;
    this.counted.set(token, true, now);
    await this.deps.repository.insertPlay({ userId, songId, secondsListened: 0, kind: 'preview', playedAt });
  }
}
