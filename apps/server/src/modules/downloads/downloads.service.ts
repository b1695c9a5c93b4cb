import type {
  DownloadFormat,
  DownloadItemType,
  DownloadLinkResponse,
  DownloadOptionsResponse,
  DownloadPreparingResponse,
} from '@backbeat/contract';
import { AppError, conflict, forbidden, notFound } from '../../platform/errors';
import {
  decideSongAccess,
  decideSongDownload,
  DOWNLOAD_ALBUM_DENIED,
  songFacts,
  type SongDownloadFacts,
  type Viewer,
} from '../access';
import type { RateLimitRule, RateLimitService } from '../auth';
import type { RenditionRepository } from '../renditions';
import {
  albumDownload,
  albumFileName,
  songDownload,
  songFileName,
  type DownloadBody,
  type DownloadFileDeps,
} from './download-files';
import type { DownloadTokenService } from './download-token.service';
import type { DownloadAlbumRow, DownloadSongRow, DownloadsRepository } from './downloads.repository';

/** Downloads started per account and hour (an album counts once). */
export const DOWNLOAD_RATE_LIMIT = {
  name: 'download',
  limit: 60,
  windowMs: 60 * 60 * 1000,
} satisfies RateLimitRule;

/** How long the web client waits before asking again while an MP3 is made. */
export const PREPARING_RETRY_SEC = 3;

export const PROCESSING_MESSAGE = 'This song is still being processed. Try again in a moment.';

/** A signed-in viewer and the session their link is bound to. */
export type DownloadViewer = Viewer & { sessionId: string };
/** Who fetches a link: the request's signed-in account, if it sent a session. */
export type DownloadRequester = () => Promise<{ userId: string; sessionId: string } | null>;

export interface DownloadsServiceDeps {
  repository: DownloadsRepository;
  renditions: RenditionRepository;
  tokens: DownloadTokenService;
  files: DownloadFileDeps;
  rateLimits: RateLimitService;
  sessionIsLive: (sessionId: string) => Promise<boolean>;
  /** Queues a song's MP3 once. */
  queueMp3: (songId: string) => Promise<unknown>;
  clock?: () => Date;
}

/** What a download holds: one song, or an album's songs the viewer may download, in track order. */
interface Resolved {
  itemType: DownloadItemType;
  itemId: string;
  title: string;
  album: DownloadAlbumRow | null;
  songs: DownloadSongRow[];
}

export type LinkOutcome =
  { status: 201; body: DownloadLinkResponse } | { status: 202; body: DownloadPreparingResponse };

const invalidLink = () =>
  forbidden('This download link is invalid or has expired. Ask for a new one.', 'INVALID_DOWNLOAD_LINK');
const notLossless = (itemType: DownloadItemType) =>
  new AppError(
    409,
    'NOT_LOSSLESS',
    `This ${itemType} was not uploaded in a lossless format: download it as MP3 instead.`,
  );

/**
 * Downloads of bought music: who may (the download policy, re-run when the link is used, so a refund ends it),
 * in which formats, signed short-lived links bound to the buyer's session, and the tagged files or album ZIP.
 */
export class DownloadsService {
  private readonly clock: () => Date;

  constructor(private readonly deps: DownloadsServiceDeps) {
    this.clock = deps.clock ?? (() => new Date());
  }

  /** The formats on offer for what the viewer may download. */
  async options(viewer: Viewer, itemType: DownloadItemType, id: string): Promise<DownloadOptionsResponse> {
    const item = await this.resolve(viewer, itemType, id);
    const masters = await this.deps.renditions.listCurrent(
      item.songs.map((song) => song.id),
      ['flac'],
    );
    const lossless = item.songs.every((song) => masters.some((master) => master.songId === song.id));
    return {
      itemType,
      itemId: id,
      title: item.title,
      formats: lossless ? ['mp3', 'flac'] : ['mp3'],
      songCount: item.songs.length,
    };
  }

  /** A signed link (201), or 202 while the MP3s are made (queued once each). */
  async link(
    viewer: DownloadViewer,
    itemType: DownloadItemType,
    id: string,
    format: DownloadFormat,
  ): Promise<LinkOutcome> {
    const item = await this.resolve(viewer, itemType, id);
    const tracks = await this.tracks(item, format);
    if (tracks.missing.length > 0) {
      if (format === 'flac') throw notLossless(itemType);
      for (const song of tracks.missing) await this.deps.queueMp3(song.id);
      return {
        status: 202,
        body: {
          message:
            itemType === 'album'
              ? 'Preparing the album for download. It starts in a moment.'
              : 'Preparing the song for download. It starts in a moment.',
          code: 'DOWNLOAD_PREPARING',
          retryAfterSec: PREPARING_RETRY_SEC,
        },
      };
    }
    const { token, expiresAt } = this.deps.tokens.issue(
      { userId: viewer.id, sessionId: viewer.sessionId, itemType, itemId: id, format },
      this.clock().getTime(),
    );
    return {
      status: 201,
      body: {
        url: `/api/downloads/file?token=${encodeURIComponent(token)}`,
        expiresAt: expiresAt.toISOString(),
        fileName: fileNameOf(item, format),
      },
    };
  }

  /**
   * The file behind a link: the link's MAC and expiry, its account (the request's own, if it sent a session) and
   * session, then the download policy again for that account as it is now; rate-limited, then counted.
   */
  async open(token: string | undefined, requester: DownloadRequester): Promise<DownloadBody> {
    const now = this.clock();
    const claims = this.deps.tokens.verify(token, now.getTime());
    if (!claims) throw invalidLink();
    const asking = await requester();
    if (asking && asking.userId !== claims.userId) {
      throw forbidden('This download link belongs to another account.', 'INVALID_DOWNLOAD_LINK');
    }
    if (asking?.sessionId !== claims.sessionId && !(await this.deps.sessionIsLive(claims.sessionId))) {
      throw invalidLink();
    }
    const role = await this.deps.repository.findRole(claims.userId);
    if (!role) throw invalidLink();
    const item = await this.resolve({ id: claims.userId, role }, claims.itemType, claims.itemId);
    const tracks = await this.tracks(item, claims.format);
    if (tracks.missing.length > 0) {
      throw conflict(
        'This download changed since the link was made. Ask for a new link.',
        'DOWNLOAD_CHANGED',
      );
    }
    await this.deps.rateLimits.consume(DOWNLOAD_RATE_LIMIT, [`user:${claims.userId}`]);
    await this.deps.repository.recordDownload({
      userId: claims.userId,
      itemType: claims.itemType,
      itemId: claims.itemId,
      format: claims.format,
    });
    return item.album
      ? albumDownload(this.deps.files, item.album, tracks.ready, claims.format)
      : songDownload(this.deps.files, tracks.ready[0]!, claims.format);
  }

  /** The item and the songs of it the viewer may download; 404, 409 (not ready) or 403 (the policy's message). */
  private async resolve(viewer: Viewer, itemType: DownloadItemType, id: string): Promise<Resolved> {
    const now = this.clock();
    if (itemType === 'song') {
      const song = await this.deps.repository.findSong(id);
      if (!song) throw notFound('Song not found', 'SONG_NOT_FOUND');
      const entitlements = await this.deps.repository.loadEntitlements(
        viewer.id,
        { songIds: [song.id], albumIds: song.albumId ? [song.albumId] : [], artistIds: [song.artistId] },
        now,
      );
      const play = decideSongAccess(viewer, factsOf(song), entitlements, now);
      // A removed song is not found for those who do not hold it.
      if (!play.allowed && play.reason === 'removed') throw notFound('Song not found', 'SONG_NOT_FOUND');
      const decision = decideSongDownload(viewer, factsOf(song), entitlements, now);
      if (!decision.allowed) throw forbidden(decision.message, 'DOWNLOAD_DENIED');
      if (song.status === 'failed')
        throw new AppError(409, 'SONG_FAILED', 'This song could not be processed.');
      if (song.status !== 'ready' && song.status !== 'removed') {
        throw conflict(PROCESSING_MESSAGE, 'SONG_PROCESSING');
      }
      return { itemType, itemId: id, title: song.title, album: null, songs: [song] };
    }
    const album = await this.deps.repository.findAlbum(id);
    if (!album) throw notFound('Album not found', 'ALBUM_NOT_FOUND');
    const songs = await this.deps.repository.listAlbumSongs(album);
    const entitlements = await this.deps.repository.loadEntitlements(
      viewer.id,
      {
        songIds: songs.map((song) => song.id),
        albumIds: [id],
        artistIds: songs.map((song) => song.artistId),
      },
      now,
    );
    // A deleted album is its buyers' alone.
    if (album.deletedAt && !entitlements.purchasedAlbumIds.has(id)) {
      throw notFound('Album not found', 'ALBUM_NOT_FOUND');
    }
    const allowed = songs.filter(
      (song) => decideSongDownload(viewer, factsOf(song), entitlements, now).allowed,
    );
    if (allowed.length === 0 && songs.length > 0) throw forbidden(DOWNLOAD_ALBUM_DENIED, 'DOWNLOAD_DENIED');
    if (allowed.length === 0) {
      // Nothing ready: only say so to someone who bought it (or may manage it).
      const bought = entitlements.purchasedAlbumIds.has(id) || viewer.role === 'admin';
      if (!bought) throw forbidden(DOWNLOAD_ALBUM_DENIED, 'DOWNLOAD_DENIED');
      throw conflict('This album has no songs ready to download yet.', 'ALBUM_EMPTY');
    }
    return { itemType, itemId: id, title: album.title, album, songs: allowed };
  }

  /** The stored file of each song in `format`, and the songs that have none yet. */
  private async tracks(item: Resolved, format: DownloadFormat) {
    const files = await this.deps.renditions.listCurrent(
      item.songs.map((song) => song.id),
      [format],
    );
    const byId = new Map(files.map((file) => [file.songId, file.mediaKey]));
    return {
      ready: item.songs.flatMap((song) => {
        const mediaKey = byId.get(song.id);
        return mediaKey ? [{ song, mediaKey }] : [];
      }),
      missing: item.songs.filter((song) => !byId.has(song.id)),
    };
  }
}

function factsOf(song: DownloadSongRow): SongDownloadFacts {
  return { ...songFacts(song), artistAllowsSubscriberDownloads: song.artistAllowsSubscriberDownloads };
}

function fileNameOf(item: Resolved, format: DownloadFormat): string {
  return item.album ? albumFileName(item.album) : songFileName(item.songs[0]!, format);
}
