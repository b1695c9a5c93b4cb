/**
 * What plays on the one <audio> element, whichever way it plays: the gapless player where the browser has Media
 * Source Extensions for AAC and Web Crypto, else hls.js, else the browser's own HLS; and for a song whose stream
 * failed, its plain audio file (SPEC section 4). The React hook drives this and turns its events into state.
 */
import { withNoCache } from '../player.rules';
import { attachFile, attachStream, detachMedia, type AttachedSource } from './audio-source';
import type { GaplessPlayer, SongSource } from './gapless-player';
import { gaplessSupported, loadGapless, type GaplessModule } from './gapless-support';

export interface SongRequest {
  songId: string;
  /** The tokenised HLS playlist address. */
  url: string;
  /** The plain audio address, when the song endpoint gave one. */
  fallbackUrl: string | null;
  /** The first segment's address, when the server gave it. */
  firstSegmentUrl?: string | null;
  /** The catalogue's duration. */
  durationHint?: number;
}

export interface PlaybackEvents {
  /** The current song's duration is known. */
  onDuration(seconds: number): void;
  /** The current song played to its end (and nothing follows it on the timeline). */
  onEnded(): void;
  /** The playhead ran from one song into the queued next one (gapless only). */
  onJoin(fromSongId: string, toSongId: string): void;
  /** A stream failed: the caller shows 'Playback Error: {type}'; the song continues from its file, if any. */
  onStreamError(type: string): void;
  /** The song has no plain audio address to fall back to: the caller fetches the song's own addresses. */
  onFallbackMissing(songId: string): void;
  /** The plain audio file failed as well (or a native source failed): the caller pauses. */
  onSourceFailed(songId: string): void;
  /** A source attached after the selection (hls.js loads asynchronously; a fallback file replaces a stream). */
  onSourceAttached(): void;
}

type Mode = 'none' | 'gapless' | 'hls' | 'native' | 'file';

export class PlaybackController {
  private mode: Mode = 'none';
  private gapless: GaplessPlayer | null = null;
  /** The gapless player's code, once loaded (it is not part of the first route's JavaScript). */
  private gaplessCode: GaplessModule | null = null;
  private source: AttachedSource | null = null;
  private song: SongRequest | null = null;
  /** Songs whose stream failed: they play their plain file from then on. */
  private readonly streamFailed = new Set<string>();
  /** Bumped by every selection, so a slow hls.js attach for an older one is dropped. */
  private attachment = 0;
  private readonly removeListeners: () => void;
  private destroyed = false;

  constructor(
    private readonly audio: HTMLAudioElement,
    private readonly events: PlaybackEvents,
    private useGapless: boolean = gaplessSupported(),
  ) {
    const onDuration = () => {
      // Only a source this controller attached reports the element's length: the gapless player reports its
      // songs' own, and with no source (e.g. the gapless MediaSource warmed up before the first song, 1e9 s long)
      // the element's duration is nobody's song.
      if (this.mode !== 'gapless' && this.mode !== 'none' && Number.isFinite(audio.duration)) {
        events.onDuration(audio.duration);
      }
    };
    const onEnded = () => {
      if (this.mode !== 'gapless') events.onEnded();
    };
    const onError = () => {
      // hls.js and the gapless player report their own errors; this is a native or fallback source failing.
      if ((this.mode === 'native' || this.mode === 'file') && audio.error && this.song) {
        events.onSourceFailed(this.song.songId);
      }
    };
    const listeners: Array<[string, () => void]> = [
      ['durationchange', onDuration],
      ['loadedmetadata', onDuration],
      ['ended', onEnded],
      ['error', onError],
    ];
    for (const [name, handler] of listeners) audio.addEventListener(name, handler);
    this.removeListeners = () => {
      for (const [name, handler] of listeners) audio.removeEventListener(name, handler);
    };
  }

  /** Loads and creates the gapless player ahead of the first song, so a first click finds its MediaSource open. */
  warm(): void {
    if (!this.useGapless) return;
    loadGapless().then(
      (code) => {
        this.gaplessCode = code;
        if (!this.gapless && this.mode === 'none' && !this.destroyed) this.gaplessPlayer();
      },
      () => undefined, // the first song tries again, and falls back to hls.js
    );
  }

  /**
   * Plays `song` from `startPosition`. `continuous`: an automatic hand-over, where the song follows the current one
   * on the gapless timeline instead of cutting it.
   */
  select(song: SongRequest, options: { startPosition: number; continuous: boolean }): void {
    this.attachment += 1;
    this.song = song;
    if (this.streamFailed.has(song.songId)) {
      this.playFallback(song, options.startPosition);
      return;
    }
    if (this.useGapless) {
      this.detachOther('gapless');
      this.mode = 'gapless';
      if (this.gaplessCode) {
        this.gaplessPlayer().play(toSource(song), options);
        return;
      }
      const attachment = this.attachment;
      loadGapless().then(
        (code) => {
          this.gaplessCode = code;
          if (this.attachment !== attachment) return;
          this.gaplessPlayer().play(toSource(song), options);
          this.events.onSourceAttached();
        },
        () => {
          if (this.attachment !== attachment) return;
          this.useGapless = false; // its code could not be loaded: hls.js plays instead
          this.mode = 'none';
          void this.attachHls(song, options.startPosition, attachment);
        },
      );
      return;
    }
    this.detachOther('none');
    void this.attachHls(song, options.startPosition, this.attachment);
  }

  /** Silence: a song without an address yet, or none selected. The gapless player's MediaSource stays open. */
  clear(): void {
    this.attachment += 1;
    this.song = null;
    if (this.mode === 'gapless' && this.gapless) {
      this.gapless.stop();
      return;
    }
    this.detachOther('none');
    this.mode = 'none';
    detachMedia(this.audio);
  }

  /** The song that follows the current one, prefetched and joined without a gap (gapless only). */
  setNext(song: SongRequest | null): void {
    if (this.mode !== 'gapless' || !this.gapless) return;
    this.gapless.setNext(song && !this.streamFailed.has(song.songId) ? toSource(song) : null);
  }

  seek(seconds: number): void {
    if (this.mode === 'gapless') this.gapless?.seek(seconds);
    else if (this.mode !== 'none') this.audio.currentTime = seconds;
  }

  /** Seconds into the current song. */
  get songTime(): number {
    return this.mode === 'gapless' && this.gapless ? this.gapless.songTime : this.audio.currentTime;
  }

  /** The media time of the current song's second 0 (0 except on the gapless timeline). */
  get songOffset(): number {
    return this.mode === 'gapless' && this.gapless ? this.gapless.songOffset : 0;
  }

  get songDuration(): number | null {
    if (this.mode === 'gapless') return this.gapless?.songDuration ?? null;
    return Number.isFinite(this.audio.duration) ? this.audio.duration : null;
  }

  /** Songs follow each other on one gapless timeline (what setNext feeds). */
  get joinsSongs(): boolean {
    return this.mode === 'gapless';
  }

  get hasSource(): boolean {
    return this.mode === 'gapless' ? this.gapless !== null : this.mode !== 'none';
  }

  destroy(): void {
    this.destroyed = true;
    this.removeListeners();
    this.attachment += 1;
    this.detachOther('none');
    this.mode = 'none';
    detachMedia(this.audio);
  }

  private gaplessPlayer(): GaplessPlayer {
    this.gapless ??= new this.gaplessCode!.GaplessPlayer(this.audio, {
      onFatalError: (error, songId) => this.streamFailure(songId, error.type),
      onJoin: (from, to) => this.events.onJoin(from.songId, to.songId),
      onDuration: (seconds) => this.events.onDuration(seconds),
      onEnded: () => this.events.onEnded(),
    });
    return this.gapless;
  }

  /** Tears down every way of playing but `keep`. */
  private detachOther(keep: Mode): void {
    this.source?.destroy();
    this.source = null;
    if (keep !== 'gapless' && this.gapless) {
      this.gapless.destroy();
      this.gapless = null;
    }
    if (keep !== 'gapless' && this.mode !== 'none') detachMedia(this.audio);
  }

  private async attachHls(song: SongRequest, startPosition: number, attachment: number): Promise<void> {
    let source: AttachedSource | null = null;
    try {
      source = await attachStream(this.audio, {
        url: withNoCache(song.url, Date.now()),
        startPosition,
        onFatalError: (type) => {
          if (this.attachment !== attachment) return;
          this.source = null;
          this.streamFailure(song.songId, type);
        },
      });
    } catch {
      source = null; // hls.js could not be loaded: the fallback file still plays.
    }
    if (this.attachment !== attachment) {
      source?.destroy();
      return;
    }
    if (source) {
      this.source = source;
      this.mode = source.kind;
      this.events.onSourceAttached();
    } else {
      this.streamFailed.add(song.songId);
      this.playFallback(song, startPosition);
    }
  }

  /** 'Playback Error: {type}', the stream torn down, and the song continues from its plain file. */
  private streamFailure(songId: string, type: string): void {
    const song = this.song;
    if (!song || songId !== song.songId) return;
    const position = this.songTime;
    this.events.onStreamError(type);
    this.streamFailed.add(songId);
    this.attachment += 1;
    this.playFallback(song, position > 0 ? position : 0);
  }

  private playFallback(song: SongRequest, startPosition: number): void {
    this.detachOther('none');
    this.gapless?.destroy();
    this.gapless = null;
    if (!song.fallbackUrl) {
      this.mode = 'none';
      this.events.onFallbackMissing(song.songId);
      return;
    }
    this.source = attachFile(this.audio, song.fallbackUrl, startPosition);
    this.mode = 'file';
    this.events.onSourceAttached();
  }
}

function toSource(song: SongRequest): SongSource {
  return {
    songId: song.songId,
    url: song.url,
    firstSegmentUrl: song.firstSegmentUrl ?? null,
    durationHint: song.durationHint,
  };
}
