/**
 * Fetches one song's encrypted HLS for the gapless player: the playlist, the key (one attempt: SPEC section 9, a
 * refused key is the access policy's final word) and segments, decrypted and unwrapped to AAC frames.
 */
import { summarizeAdts, AdtsError } from './adts';
import { keyAddressFor } from './key-prefetch';
import { parseMediaPlaylist, PlaylistError, type MediaPlaylist } from './media-playlist';
import { demuxAudio, TransportStreamError } from './mpeg-ts';
import { decryptSegment, importSegmentKey, sequenceIv, SegmentDecryptError } from './segment-crypto';

/** hls.js's error types, so the listener sees the same 'Playback Error: {type}' whichever player failed. */
export type PlaybackErrorType = 'networkError' | 'mediaError' | 'otherError';

export class PlaybackError extends Error {
  override name = 'PlaybackError';
  constructor(
    readonly type: PlaybackErrorType,
    message: string,
    /** The HTTP status of a refused request. */
    readonly status?: number,
  ) {
    super(message);
  }
}

/** hls.js's defaults for playlists and fragments; the key's are the player's key-load policy (hls-loader.ts). */
const POLICY = {
  playlist: { timeoutMs: 20_000, retries: 2 },
  segment: { timeoutMs: 60_000, retries: 3 },
  key: { timeoutMs: 20_000, retries: 0 },
} as const;
const RETRY_DELAY_MS = 250;

export type Fetcher = (url: string, init: RequestInit) => Promise<Response>;

export interface LoadedSegment {
  index: number;
  /** The segment's AAC frames in ADTS framing. */
  adts: Uint8Array;
  frames: number;
  /** Encrypted bytes fetched. */
  bytes: number;
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

/** Waits `ms`, or rejects at once when `signal` aborts. */
function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });
}

export class SongLoader {
  readonly playlist: Promise<MediaPlaylist>;
  private readonly fetcher: Fetcher;
  private key: Promise<CryptoKey>;
  private keyUrl: string | null;
  /** performance.now() of the last key answer the server gave (or of the request, while it is on its way). */
  keyFetchedAt: number;
  /** The first segment, asked for with the playlist (the server names it up front) to save a round trip. */
  private firstSegment: Promise<ArrayBuffer> | null;
  private readonly firstSegmentUrl: string | null;

  constructor(
    readonly playlistUrl: string,
    private readonly signal: AbortSignal,
    options: { firstSegmentUrl: string | null; fetcher?: Fetcher },
  ) {
    this.fetcher = options.fetcher ?? ((url, init) => fetch(url, init));
    this.keyUrl = keyAddressFor(playlistUrl, window.location.href);
    this.keyFetchedAt = performance.now();
    this.key = this.keyUrl ? this.loadKey(this.keyUrl) : Promise.reject(new PlaybackError('otherError', ''));
    this.key.catch(() => undefined);
    this.firstSegmentUrl = options.firstSegmentUrl
      ? new URL(options.firstSegmentUrl, window.location.href).href
      : null;
    this.firstSegment = this.firstSegmentUrl ? this.fetchBytes(this.firstSegmentUrl, 'segment') : null;
    this.firstSegment?.catch(() => undefined);
    this.playlist = this.loadPlaylist();
    this.playlist.catch(() => undefined);
  }

  /** Asks the server for the key again (it re-runs the access policy); a refusal rejects. */
  refreshKey(): Promise<CryptoKey> {
    const url = this.keyUrl;
    if (!url) return this.key;
    this.keyFetchedAt = performance.now();
    this.key = this.loadKey(url);
    return this.key;
  }

  /** Resolves once the current key request is answered, rejecting when it was refused. */
  keyReady(): Promise<CryptoKey> {
    return this.key;
  }

  async loadSegment(index: number): Promise<LoadedSegment> {
    const playlist = await this.playlist;
    const segment = playlist.segments[index];
    if (!segment) throw new PlaybackError('otherError', `no segment ${index}`);
    const early = index === 0 && segment.uri === this.firstSegmentUrl ? this.firstSegment : null;
    if (index === 0) this.firstSegment = null;
    const encrypted = early ? await early : await this.fetchBytes(segment.uri, 'segment');
    const key = await this.key;
    try {
      const plain = await decryptSegment(encrypted, key, playlist.key.iv ?? sequenceIv(segment.sequence));
      const { adts } = demuxAudio(plain);
      const { frames } = summarizeAdts(adts);
      return { index, adts, frames, bytes: encrypted.byteLength };
    } catch (error) {
      if (
        error instanceof SegmentDecryptError ||
        error instanceof TransportStreamError ||
        error instanceof AdtsError
      ) {
        throw new PlaybackError('mediaError', `segment ${index}: ${error.message}`);
      }
      throw error;
    }
  }

  private async loadPlaylist(): Promise<MediaPlaylist> {
    const response = await this.request(this.playlistUrl, 'playlist', { cache: 'no-store' });
    const text = await response.text();
    try {
      const playlist = parseMediaPlaylist(text, new URL(this.playlistUrl, window.location.href).href);
      // The key the playlist names is the one asked for up front, unless the server wrote another.
      if (playlist.key.uri !== this.keyUrl) {
        this.keyUrl = playlist.key.uri;
        this.refreshKey().catch(() => undefined);
      }
      return playlist;
    } catch (error) {
      if (error instanceof PlaylistError) throw new PlaybackError('mediaError', error.message);
      throw error;
    }
  }

  private async loadKey(url: string): Promise<CryptoKey> {
    const response = await this.request(url, 'key', { cache: 'no-store' });
    const raw = await response.arrayBuffer();
    this.keyFetchedAt = performance.now();
    try {
      return await importSegmentKey(raw);
    } catch (error) {
      throw new PlaybackError('mediaError', error instanceof Error ? error.message : String(error));
    }
  }

  private async fetchBytes(url: string, kind: 'segment'): Promise<ArrayBuffer> {
    return (await this.request(url, kind, {})).arrayBuffer();
  }

  /**
   * One request with the kind's timeout and retries (network failures and 5xx only: a 4xx is an answer).
   * Rejects with a PlaybackError('networkError'), or the abort reason when the song was dropped.
   */
  private async request(url: string, kind: keyof typeof POLICY, init: RequestInit): Promise<Response> {
    const { timeoutMs, retries } = POLICY[kind];
    for (let attempt = 0; ; attempt += 1) {
      if (this.signal.aborted) throw this.signal.reason as Error;
      let failure: PlaybackError;
      try {
        const signal = AbortSignal.any([this.signal, AbortSignal.timeout(timeoutMs)]);
        const response = await this.fetcher(url, { ...init, credentials: 'same-origin', signal });
        if (response.ok) return response;
        failure = new PlaybackError('networkError', `${kind} answered ${response.status}`, response.status);
        if (response.status < 500) throw failure;
      } catch (error) {
        if (this.signal.aborted) throw this.signal.reason as Error;
        if (error instanceof PlaybackError) throw error;
        failure = new PlaybackError(
          'networkError',
          isAbort(error) ? `${kind} timed out` : `${kind} could not be loaded`,
        );
      }
      if (attempt >= retries) throw failure;
      await delay(RETRY_DELAY_MS * 2 ** attempt, this.signal);
    }
  }
}
