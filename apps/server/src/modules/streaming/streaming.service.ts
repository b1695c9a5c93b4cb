import type {
  RecentlyPlayedResponse,
  RecordPlayBody,
  StreamAlbumResponse,
  StreamSongResponse,
} from '@backbeat/contract';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../platform/errors';
import {
  type AccessDecision,
  decideSongAccess,
  type EntitlementChange,
  type SongAccessFacts,
  type Viewer,
} from '../access';
import { mediaUrl } from '../../platform/media-url';
import { HLS_FILES, hlsBasePath, SEGMENT_NAME } from './hls-playlist';
import type { MediaFile, StreamMedia } from './stream-media';
import type { StreamTokenService } from './stream-token.service';
import type { SongAccessRow, SongMedia, StreamingRepository } from './streaming.repository';
import { TtlCache } from '../../platform/ttl-cache';

export const ALBUM_DENIED_MESSAGE = 'You need to purchase this album to stream it.';
export const PROCESSING_MESSAGE = 'This song is still being processed. Try again in a moment.';
/** A play may run a little past the end (player clocks, seeking). */
const PLAY_GRACE_SEC = 5;
/**
 * How long an ALLOWED key/audio decision's inputs (song facts + the user's entitlements) are reused. The policy
 * itself still runs on every request against the current time, so a paid period ends to the second; only a
 * revocation (refund, status change) takes up to this long to reach a song being played. Denials are never cached.
 */
export const ACCESS_CACHE_TTL_MS = 5_000;

/**
 * How often one instance writes that a user fetched a song's audio. Short enough that a replay of any song (once its
 * previous play was counted, a song length later) has its fetch written; long enough that a key fetched thousands of
 * times a second costs one write.
 */
export const AUDIO_FETCH_WRITE_EVERY_MS = 5_000;

/** Who is asking for a tokenised media file: their session's user and session, if they sent a session. */
export type Requester = () => Promise<{ userId: string; sessionId: string } | null>;

/** Whether a session (by id) is still live: not logged out, revoked or expired. */
export type SessionLiveness = (sessionId: string) => Promise<boolean>;

/** A signed-in viewer and the session they asked through; stream tokens are bound to that session. */
export type StreamViewer = Viewer & { sessionId: string };

const invalidToken = () => forbidden('This stream link is invalid or has expired.', 'INVALID_STREAM_TOKEN');
const songNotFound = () => notFound('Song not found', 'SONG_NOT_FOUND');

/** The policy's refusal with the facts the web client words its message from (SPEC section 8). */
function accessDenied(
  decision: Extract<AccessDecision, { allowed: false }>,
  facts: SongAccessFacts,
): AppError {
  return forbidden(decision.message, 'ACCESS_DENIED', {
    reason: decision.reason,
    accessType: facts.accessType,
    artistName: facts.artistName,
    albumTitle: facts.album?.title ?? null,
    isPremium: facts.album?.isPremium ?? false,
  });
}

/** A ready song's HLS version plays; so does a removed one's (the policy has decided who may). */
const isPlayable = (media: SongMedia) =>
  (media.status === 'ready' || media.status === 'removed') && Boolean(media.hlsPrefix);

function assertPlayable(media: SongMedia): asserts media is SongMedia & { hlsPrefix: string } {
  if (media.status === 'failed') {
    const reason = media.failureReason ? `: ${media.failureReason}` : '.';
    throw new AppError(409, 'SONG_FAILED', `This song could not be processed${reason}`);
  }
  if (!isPlayable(media)) throw conflict(PROCESSING_MESSAGE, 'SONG_PROCESSING');
}

/** A refusal as the caller gets it: a removed song is not found for those who do not hold it. */
function refusal(decision: Extract<AccessDecision, { allowed: false }>, facts: SongAccessFacts): AppError {
  return decision.reason === 'removed' ? songNotFound() : accessDenied(decision, facts);
}

const holderOf = (viewer: StreamViewer) => ({ userId: viewer.id, sessionId: viewer.sessionId });

export const playlistUrl = (songId: string, token: string) =>
  `${hlsBasePath(songId)}/${HLS_FILES.playlist}?token=${encodeURIComponent(token)}`;
export const audioUrl = (songId: string, token: string) =>
  `/api/stream/audio/${songId}?token=${encodeURIComponent(token)}`;

/**
 * Streaming rules. Every way to hear a song (playlist URL, album list, key, fallback audio, play records) goes
 * through `decideSongAccess`; tokens only prove which user a media request acts for.
 */
export class StreamingService {
  private readonly clock: () => Date;
  /** `${userId}:${songId}` -> the last row that allowed that user to play that song. */
  private readonly allowedAccess: TtlCache<string, SongAccessRow>;
  private readonly sessionIsLive: SessionLiveness;
  /** `${userId}:${songId}` whose audio fetch this instance wrote recently (see noteAudioServed). */
  private readonly fetchesWritten = new TtlCache<string, true>(50_000, AUDIO_FETCH_WRITE_EVERY_MS);

  constructor(
    private readonly repository: StreamingRepository,
    private readonly tokens: StreamTokenService,
    private readonly media: StreamMedia,
    options: { sessionIsLive: SessionLiveness; clock?: () => Date; accessCacheTtlMs?: number },
  ) {
    this.sessionIsLive = options.sessionIsLive;
    this.clock = options.clock ?? (() => new Date());
    this.allowedAccess = new TtlCache(50_000, options.accessCacheTtlMs ?? ACCESS_CACHE_TTL_MS);
  }

  /** Forgets the allowed decisions cached for one account (its entitlements changed), or for everyone. */
  forgetAllowed(change: EntitlementChange): void {
    if ('userId' in change) {
      const prefix = `${change.userId}:`;
      this.allowedAccess.deleteWhere((_row, key) => key.startsWith(prefix));
    } else {
      this.allowedAccess.deleteWhere(() => true);
    }
  }

  async streamSong(viewer: StreamViewer, songId: string): Promise<StreamSongResponse> {
    const row = await this.authorize(viewer, songId);
    assertPlayable(row.media);
    const now = this.clock().getTime();
    // The key request follows within milliseconds: let it reuse this fresh answer.
    this.allowedAccess.set(`${viewer.id}:${songId}`, row, now);
    const token = this.tokens.issue(holderOf(viewer), songId, now);
    return {
      url: playlistUrl(songId, token),
      audioUrl: audioUrl(songId, token),
      firstSegmentUrl: this.media.firstSegmentUrl(songId, row.media.hlsPrefix),
    };
  }

  async streamAlbum(viewer: StreamViewer, albumId: string): Promise<StreamAlbumResponse> {
    const album = await this.repository.findAlbum(albumId);
    if (!album) throw notFound('Album not found', 'ALBUM_NOT_FOUND');
    const now = this.clock();
    const songs = await this.repository.findReadyAlbumSongs(album);
    const entitlements = await this.repository.loadEntitlements(
      viewer.id,
      {
        songIds: songs.map((s) => s.id),
        albumIds: [albumId],
        artistIds: [album.artistId, ...songs.map((s) => s.artistId)],
      },
      now,
    );
    // A deleted album is its buyers' alone; its tracks left it (they hold each of them as bought).
    if (album.deletedAt && !entitlements.purchasedAlbumIds.has(album.id)) {
      throw notFound('Album not found', 'ALBUM_NOT_FOUND');
    }
    const albumFacts = album.deletedAt
      ? null
      : { id: album.id, title: album.title, isPremium: album.isPremium };
    const decisions = songs
      .map((song) => ({
        songId: song.id,
        hlsPrefix: song.hlsPrefix,
        decision: decideSongAccess(viewer, { ...song, album: albumFacts }, entitlements, now),
      }))
      // A removed track the viewer does not hold is not theirs to be told about.
      .filter(({ decision }) => decision.allowed || decision.reason !== 'removed');
    if (songs.length === 0 && album.isPremium && albumFacts) {
      // Nothing ready yet: still answer a premium album by its own rule (a song of it would need the purchase).
      const gate: SongAccessFacts = {
        id: '',
        accessType: 'purchase-only',
        artistId: album.artistId,
        artistName: album.artistName,
        artistOwnerUserId: album.artistOwnerUserId,
        album: albumFacts,
        removedAt: null,
      };
      decisions.push({
        songId: '',
        hlsPrefix: null,
        decision: decideSongAccess(viewer, gate, entitlements, now),
      });
    }
    const allowed = decisions.filter((d) => d.decision.allowed && d.songId && d.hlsPrefix);
    const firstDenial = decisions.find((d) => !d.decision.allowed)?.decision;
    if (allowed.length === 0 && firstDenial && !firstDenial.allowed) {
      throw forbidden(ALBUM_DENIED_MESSAGE, 'ACCESS_DENIED', { reason: firstDenial.reason });
    }
    const issuedAt = now.getTime();
    return {
      urls: allowed.map(({ songId, hlsPrefix }) => ({
        songId,
        url: playlistUrl(songId, this.tokens.issue(holderOf(viewer), songId, issuedAt)),
        firstSegmentUrl: this.media.firstSegmentUrl(songId, hlsPrefix!),
      })),
    };
  }

  /** The rewritten playlist: the token proves who asked; the key endpoint is where the policy is re-checked. */
  async playlist(songId: string, token: string | undefined, requester: Requester): Promise<string> {
    await this.verifyToken(songId, token, requester);
    const prefix = await this.media.readyPrefix(songId);
    if (!prefix) throw songNotFound();
    return (await this.media.playlist(songId, prefix)).render(token!);
  }

  /**
   * The AES-128 key, after the token AND the access policy (a subscription may have ended since). Serving it is
   * what makes the listener's next play of the song countable (see recordPlay).
   */
  async key(songId: string, token: string | undefined, requester: Requester): Promise<Buffer> {
    const { prefix, userId } = await this.authorizeToken(songId, token, requester);
    const key = await this.media.key(prefix);
    await this.noteAudioServed(userId, songId);
    return key;
  }

  /** The plain AAC fallback file, refused exactly like the key, and counted like it. */
  async audioFile(songId: string, token: string | undefined, requester: Requester): Promise<MediaFile> {
    const { prefix, userId } = await this.authorizeToken(songId, token, requester);
    const file = await this.media.file(`${prefix}/${HLS_FILES.audio}`);
    if (!file) throw notFound('Audio not found', 'AUDIO_NOT_FOUND');
    await this.noteAudioServed(userId, songId);
    return file;
  }

  /** An encrypted segment: public, so no token; only names the transcoder writes are looked up. */
  async segmentFile(songId: string, segment: string): Promise<MediaFile> {
    if (!SEGMENT_NAME.test(segment)) throw notFound('Segment not found', 'SEGMENT_NOT_FOUND');
    const prefix = await this.media.readyPrefix(songId);
    const file = prefix ? await this.media.file(`${prefix}/${segment}`) : null;
    if (!file) throw notFound('Segment not found', 'SEGMENT_NOT_FOUND');
    return file;
  }

  /**
   * A full listen, as the player reports it. It is counted (a `plays` row, which the dashboards' rollups follow)
   * only when this listener was served the song's audio (its key or fallback file) since their last counted play
   * of it, and at most once per song length: a flood of posts, or posts for audio never fetched, counts nothing.
   * Returns whether it was counted.
   */
  async recordPlay(viewer: Viewer, play: RecordPlayBody): Promise<boolean> {
    const row = await this.authorize(viewer, play.songId);
    assertPlayable(row.media);
    const max = Math.ceil(row.media.durationSec) + PLAY_GRACE_SEC;
    if (play.secondsListened > max) {
      throw badRequest(
        `secondsListened: must be at most ${max} (the song's duration plus ${PLAY_GRACE_SEC} s)`,
      );
    }
    return this.repository.insertCountedPlay({
      userId: viewer.id,
      songId: play.songId,
      secondsListened: play.secondsListened,
      playedAt: this.clock(),
      windowSec: Math.max(1, row.media.durationSec),
    });
  }

  /**
   * Records that audio of the song went out to the user. The key endpoint is hot (every play start, and far more
   * under load); one write per user and song per AUDIO_FETCH_WRITE_EVERY_MS is enough to know a listen began.
   */
  private async noteAudioServed(userId: string, songId: string): Promise<void> {
    const now = this.clock();
    const key = `${userId}:${songId}`;
    if (this.fetchesWritten.get(key, now.getTime())) return;
    await this.repository.recordAudioFetch(userId, songId, now);
    this.fetchesWritten.set(key, true, now.getTime());
  }

  async recentlyPlayed(viewer: Viewer, limit: number): Promise<RecentlyPlayedResponse> {
    const rows = await this.repository.recentlyPlayed(viewer.id, limit, this.clock());
    return {
      songs: rows.map((row) => ({
        _id: row.id,
        title: row.title,
        singer: row.singer,
        coverImage: mediaUrl(row.coverImage),
        duration: Math.round(row.durationSec * 100) / 100,
        playedAt: row.playedAt.toISOString(),
      })),
    };
  }

  /** Loads the song with the viewer's entitlements (one query) and applies the policy. */
  private async authorize(viewer: Viewer, songId: string): Promise<SongAccessRow> {
    const now = this.clock();
    const row = await this.repository.findSongAccess(songId, viewer.id, now);
    if (!row) throw songNotFound();
    const decision = decideSongAccess(viewer, row.facts, row.entitlements, now);
    if (!decision.allowed) throw refusal(decision, row.facts);
    return row;
  }

  /**
   * Token, then the policy for the token's user with their current role. Returns the song's media prefix from the
   * same cache the playlist and segments use, so the key always belongs to the segments being played.
   * A recent row that allowed this user is re-decided at the current time without a query; a refusal is always
   * confirmed from the database (they may have just paid).
   */
  private async authorizeToken(
    songId: string,
    token: string | undefined,
    requester: Requester,
  ): Promise<{ prefix: string; userId: string }> {
    const userId = await this.verifyToken(songId, token, requester);
    const now = this.clock();
    const cacheKey = `${userId}:${songId}`;
    const cached = this.allowedAccess.get(cacheKey, now.getTime());
    if (cached?.viewerRole && isPlayable(cached.media)) {
      const viewer = { id: userId, role: cached.viewerRole };
      if (decideSongAccess(viewer, cached.facts, cached.entitlements, now).allowed)
        return { prefix: await this.readyPrefix(songId), userId };
    }

    const row = await this.repository.findSongAccess(songId, userId, now);
    if (!row) throw songNotFound();
    if (!row.viewerRole) throw invalidToken(); // The account was deleted after the token was issued.
    const decision = decideSongAccess({ id: userId, role: row.viewerRole }, row.facts, row.entitlements, now);
    if (!decision.allowed) {
      this.allowedAccess.delete(cacheKey);
      throw refusal(decision, row.facts);
    }
    assertPlayable(row.media);
    this.allowedAccess.set(cacheKey, row, now.getTime());
    return { prefix: await this.readyPrefix(songId), userId };
  }

  private async readyPrefix(songId: string): Promise<string> {
    const prefix = await this.media.readyPrefix(songId);
    if (!prefix) throw conflict(PROCESSING_MESSAGE, 'SONG_PROCESSING');
    return prefix;
  }

  /**
   * A genuine, unexpired token for this song, whose session still lives (logout ends its stream links); and when
   * the request also carries a session, it must be the token's user (a link copied into another account is
   * refused). The request's own session, when it is the token's, needs no further check: the auth plugin has just
   * confirmed it. Returns the token's user id.
   */
  private async verifyToken(
    songId: string,
    token: string | undefined,
    requester: Requester,
  ): Promise<string> {
    const claims = this.tokens.verify(token, songId, this.clock().getTime());
    if (!claims) throw invalidToken();
    const asking = await requester();
    if (asking && asking.userId !== claims.userId) {
      throw forbidden('This stream link belongs to another account.', 'INVALID_STREAM_TOKEN');
    }
    if (asking?.sessionId !== claims.sessionId && !(await this.sessionIsLive(claims.sessionId))) {
      throw invalidToken();
    }
    return claims.userId;
  }
}
