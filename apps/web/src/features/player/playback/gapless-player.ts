/**
 * The gapless player: one MediaSource on the <audio> element for the whole listening session. Songs are laid out
 * back to back on its timeline, each trimmed to its exact samples (gapless-timing.ts), so one song runs into the
 * next without a gap or a click; the next song's key and first segment are fetched while the current one plays.
 * Skipping to a prefetched next song is a seek within the buffer; any other song starts on a fresh stretch of the
 * timeline. Buffering follows SPEC section 9: 30 s ahead, 600 s at most, 60 MB, holes up to 0.5 s jumped.
 */
import { withNoCache } from '../player.rules';
import { ADTS_MIME } from './adts';
import { holeEnd, isBuffered, keepFrom, nextJob, placeFollowing, type Job } from './buffer-policy';
import { segmentPlacement, segmentRange, songTiming, type TimeRange } from './gapless-timing';
import { PlaybackError, SongLoader, type Fetcher } from './song-loader';
import { bufferedRanges, SourceBufferQueue } from './source-buffer-queue';
import { createEntry, dropEntry, entryEnd, type TimelineEntry } from './timeline-entry';

/** A prefetched song's key is asked for again when older than this, before that song sounds. */
export const KEY_FRESH_MS = 60_000;
/** How long before a prefetched song sounds its stale key is asked for again. */
const KEY_RECHECK_LEAD_S = 20;
/** The MediaSource's fixed duration: the timeline only grows, a second or a song at a time. */
const TIMELINE_SECONDS = 1e9;
/** Longest wait for a seek within the buffer before the buffer is changed anyway. */
const SEEK_SETTLE_MAX_MS = 1000;
/** Where a playhead within this of the last song's end counts as its end. */
const END_TOLERANCE_S = 0.25;

export interface SongSource {
  songId: string;
  /** The song's tokenised playlist address (the SPEC's nocache parameter is added per request). */
  url: string;
  /** The address the playlist gives its first segment, to ask for it together with the playlist. */
  firstSegmentUrl?: string | null;
  /** The catalogue's duration, for media transcoded before the gapless tag. */
  durationHint?: number;
}

export interface GaplessPlayerEvents {
  /** The song cannot play this way: the caller shows 'Playback Error: {type}' and plays the fallback file. */
  onFatalError(error: PlaybackError, songId: string): void;
  /** The playhead ran from one song into the queued next one. */
  onJoin(from: SongSource, to: SongSource): void;
  /** The current song's exact duration is known. */
  onDuration(seconds: number): void;
  /** The current song played to its end with nothing queued after it. */
  onEnded(): void;
}

export interface PlayOptions {
  /** Seconds into the song. */
  startPosition: number;
  /** An automatic hand-over: the song follows the current one on the timeline instead of starting at once. */
  continuous: boolean;
}

export class GaplessPlayer {
  /** The songs in play order: maybe one still sounding, the current one, maybe the queued next one. */
  private chain: TimelineEntry[] = [];
  private current: TimelineEntry | null = null;
  private readonly mediaSource = new MediaSource();
  private readonly ready: Promise<SourceBufferQueue>;
  private queue: SourceBufferQueue | null = null;
  private pumping = false;
  private pumpAgain = false;
  private destroyed = false;
  private endedFor: TimelineEntry | null = null;
  private readonly objectUrl: string;
  private readonly removeListeners: () => void;

  constructor(
    private readonly audio: HTMLAudioElement,
    private readonly events: GaplessPlayerEvents,
    private readonly fetcher?: Fetcher,
  ) {
    this.objectUrl = URL.createObjectURL(this.mediaSource);
    this.ready = new Promise<SourceBufferQueue>((resolve) => {
      this.mediaSource.addEventListener(
        'sourceopen',
        () => {
          URL.revokeObjectURL(this.objectUrl);
          if (this.destroyed) return;
          this.mediaSource.duration = TIMELINE_SECONDS;
          const buffer = this.mediaSource.addSourceBuffer(ADTS_MIME);
          // Under quota pressure everything behind the playhead may go.
          this.queue = new SourceBufferQueue(buffer, () => ({ start: 0, end: this.audio.currentTime - 1 }));
          resolve(this.queue);
        },
        { once: true },
      );
    });
    audio.src = this.objectUrl;
    const listeners: Array<[string, () => void]> = [
      ['timeupdate', () => this.onProgress()],
      ['seeking', () => this.onProgress()],
      ['waiting', () => this.onWaiting()],
      ['error', () => this.current && this.fail(this.current, mediaError(this.audio.error?.message ?? ''))],
    ];
    for (const [name, handler] of listeners) audio.addEventListener(name, handler);
    this.removeListeners = () => {
      for (const [name, handler] of listeners) audio.removeEventListener(name, handler);
    };
  }

  get songId(): string | null {
    return this.current?.source.songId ?? null;
  }

  /** Seconds into the current song (0 while the song before it is still sounding). */
  get songTime(): number {
    const entry = this.current;
    return entry?.start != null ? Math.max(0, this.audio.currentTime - entry.start) : 0;
  }

  /** The current song's exact duration, once its playlist is in. */
  get songDuration(): number | null {
    return this.current?.timing?.duration ?? null;
  }

  /** The media time where the current song's time 0 is (tests and tools read song time as currentTime - this). */
  get songOffset(): number {
    return this.current?.start ?? 0;
  }

  play(source: SongSource, options: PlayOptions): void {
    if (this.destroyed) return;
    const index = this.current ? this.chain.indexOf(this.current) : -1;
    let next = this.chain[index + 1];
    if (next && (!sameSource(next.source, source) || next.start === null)) next = undefined;
    if (!next && options.continuous && this.current?.timing && !this.current.failed) {
      this.setNext(source);
      next = this.chain[index + 1];
    }
    if (next?.start === null) next = undefined;
    if (next && !next.failed) {
      this.current = next;
      this.endedFor = null;
      if (!options.continuous || options.startPosition > 0) void this.switchTo(next, options.startPosition);
      else this.pump();
      return;
    }
    this.coldStart(source, options.startPosition);
  }

  /** Restarts or moves within the current song. */
  seek(seconds: number): void {
    const entry = this.current;
    if (!entry || entry.start === null || this.destroyed) return;
    const duration = entry.timing?.duration ?? Number.POSITIVE_INFINITY;
    this.endedFor = null;
    this.audio.currentTime = entry.start + Math.min(Math.max(0, seconds), Math.max(0, duration - 0.01));
    this.pump();
  }

  /** The song to play after the current one (null: none); its key and first segment are fetched now. */
  setNext(source: SongSource | null): void {
    const current = this.current;
    if (!current || this.destroyed) return;
    const index = this.chain.indexOf(current);
    const existing = this.chain[index + 1];
    if (existing && source && sameSource(existing.source, source) && !existing.failed) return;
    for (const dropped of this.chain.splice(index + 1)) this.drop(dropped);
    if (source) {
      const start = current.start !== null && current.timing ? entryEnd(current) : null;
      this.chain.push(createEntry(source, start, (signal) => this.loader(source, signal, true)));
    }
    this.pump();
  }

  /** Silence until the next song: everything in play is dropped, the MediaSource stays for that song. */
  stop(): void {
    if (this.destroyed) return;
    for (const entry of this.chain) dropEntry(entry);
    this.chain = [];
    this.current = null;
    this.audio.pause();
    void this.queue?.removeOutside({ start: 0, end: 0 });
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.removeListeners();
    for (const entry of this.chain) dropEntry(entry);
    this.chain = [];
    this.current = null;
    this.queue?.close();
    if (this.audio.getAttribute('src') === this.objectUrl) {
      this.audio.removeAttribute('src');
      this.audio.load();
    }
  }

  /** `fromStart`: the song plays from its first segment, which is then asked for with the playlist. */
  private loader(source: SongSource, signal: AbortSignal, fromStart: boolean): SongLoader {
    return new SongLoader(withNoCache(source.url, Date.now()), signal, {
      firstSegmentUrl: fromStart ? (source.firstSegmentUrl ?? null) : null,
      fetcher: this.fetcher,
    });
  }

  /** A song that is not queued: a fresh stretch of timeline after everything buffered so far. */
  private coldStart(source: SongSource, startPosition: number): void {
    const known = [...this.chain.map(entryEnd), ...bufferedRanges(this.audio).map((range) => range.end)];
    const start = Math.ceil(Math.max(this.audio.currentTime, ...known.filter(Number.isFinite)) + 1);
    for (const entry of this.chain) this.drop(entry);
    const entry = createEntry(source, start, (signal) => this.loader(source, signal, startPosition < 5));
    this.chain = [entry];
    this.current = entry;
    this.endedFor = null;
    void this.queue?.removeOutside({ start, end: TIMELINE_SECONDS });
    this.audio.currentTime = start + Math.max(0, startPosition);
    this.pump();
  }

  /** A skip to the prefetched next song: its key is asked for again first if it has aged, then a seek. */
  private async switchTo(entry: TimelineEntry, startPosition: number): Promise<void> {
    const stale = performance.now() - entry.loader.keyFetchedAt > KEY_FRESH_MS;
    if (stale) {
      try {
        await entry.loader.refreshKey();
      } catch (error) {
        this.fail(entry, error);
        return;
      }
    }
    if (this.current !== entry || entry.start === null) return;
    const before = this.chain.indexOf(entry);
    for (const dropped of this.chain.splice(0, before)) this.drop(dropped);
    this.audio.currentTime = entry.start + Math.max(0, startPosition);
    this.pump();
  }

  /** Stops the entry's loads; its audio goes too if it lies ahead (what lies behind, eviction removes later). */
  private drop(entry: TimelineEntry): void {
    dropEntry(entry);
    if (entry.start !== null && entry.start >= this.audio.currentTime) {
      void this.queue?.remove({ start: entry.start, end: Math.min(entryEnd(entry), TIMELINE_SECONDS) });
    }
  }

  private fail(entry: TimelineEntry, error: unknown): void {
    if (entry.dropped || this.destroyed) return;
    entry.failed = true;
    const isCurrent = entry === this.current;
    if (!isCurrent) {
      // A prefetch that failed costs nothing: the song is tried again (and reports) when it is played.
      const index = this.chain.indexOf(entry);
      for (const dropped of this.chain.splice(index)) this.drop(dropped);
      return;
    }
    const playbackError =
      error instanceof PlaybackError ? error : new PlaybackError('otherError', String(error));
    this.events.onFatalError(playbackError, entry.source.songId);
  }

  private onProgress(): void {
    const time = this.audio.currentTime;
    // Songs the playhead has left behind go; the one it ran into becomes current if the caller has not moved yet.
    while (this.chain.length > 1 && entryEnd(this.chain[0]!) <= time && this.chain[1]!.start !== null) {
      const left = this.chain.shift()!;
      const entered = this.chain[0]!;
      if (left === this.current) {
        this.current = entered;
        this.events.onJoin(left.source, entered.source);
        if (entered.timing) this.events.onDuration(entered.timing.duration);
      }
      dropEntry(left);
    }
    this.recheckKeys(time);
    this.pump();
  }

  /** A prefetched song whose key has aged is checked again with the server before the playhead reaches it. */
  private recheckKeys(time: number): void {
    for (const entry of this.chain) {
      if (entry.start === null || entry.start <= time || entry.start - time > KEY_RECHECK_LEAD_S) continue;
      if (entry.failed || entry.rechecking) continue;
      if (performance.now() - entry.loader.keyFetchedAt <= KEY_FRESH_MS) continue;
      entry.rechecking = true;
      entry.loader.refreshKey().then(
        () => (entry.rechecking = false),
        (error: unknown) => this.fail(entry, error),
      );
    }
  }

  private onWaiting(): void {
    const time = this.audio.currentTime;
    const hole = holeEnd(bufferedRanges(this.audio), time);
    if (hole !== null) {
      this.audio.currentTime = hole;
      return;
    }
    const last = this.chain.at(-1);
    if (last && last === this.current && last.timing && this.endedFor !== last) {
      if (time >= entryEnd(last) - END_TOLERANCE_S) {
        this.endedFor = last;
        this.events.onEnded();
      }
    }
  }

  /** Loads, one request at a time, whatever the playhead needs next. */
  private pump(): void {
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    void (async () => {
      const queue = await this.ready;
      try {
        for (;;) {
          this.pumpAgain = false;
          const job = this.nextJob();
          if (!job) break;
          await this.runJob(queue, job);
        }
      } finally {
        this.pumping = false;
        if (this.pumpAgain && !this.destroyed) this.pump();
      }
    })();
  }

  private nextJob(): Job | null {
    if (this.destroyed) return null;
    placeFollowing(this.chain);
    return nextJob(this.chain, this.audio.currentTime, bufferedRanges(this.audio));
  }

  private async runJob(queue: SourceBufferQueue, { entry, index }: Job): Promise<void> {
    try {
      if (index === null) {
        entry.playlist = await entry.loader.playlist;
        entry.timing = songTiming(entry.playlist, entry.source.durationHint);
        if (entry === this.current && !entry.dropped) this.events.onDuration(entry.timing.duration);
        return;
      }
      entry.attempts.set(index, (entry.attempts.get(index) ?? 0) + 1);
      const segment = await entry.loader.loadSegment(index);
      if (entry.dropped || entry.start === null || !entry.playlist || !entry.timing) return;
      const placement = segmentPlacement(entry.start, entry.timing, entry.playlist, index);
      await this.seekSettled();
      await queue.append(segment.adts as Uint8Array<ArrayBuffer>, placement);
      entry.appended.set(index, segment.bytes);
      if (this.isBuffered(segmentRange(entry.start, entry.timing, entry.playlist, index))) {
        entry.attempts.delete(index);
      }
      this.evict();
    } catch (error) {
      if (entry.dropped || this.destroyed) return;
      this.fail(entry, error instanceof PlaybackError ? error : mediaError(error));
    }
  }

  /**
   * Resolves once a seek into buffered audio (a skip to the prefetched next song) has completed: changing the buffer
   * meanwhile makes the browser's seek, and so the next song's start, slower.
   */
  private seekSettled(): Promise<void> {
    const time = this.audio.currentTime;
    if (!this.audio.seeking || !this.isBuffered({ start: time, end: time })) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.audio.removeEventListener('seeked', done);
        resolve();
      };
      const timer = setTimeout(done, SEEK_SETTLE_MAX_MS);
      this.audio.addEventListener('seeked', done);
    });
  }

  private isBuffered(range: TimeRange): boolean {
    return isBuffered(bufferedRanges(this.audio), range);
  }

  /** Drops audio the listener has left: more than 30 s behind the playhead, and anything before the songs in play. */
  private evict(): void {
    const from = keepFrom(this.chain, this.audio.currentTime);
    if (!this.queue || from === null) return;
    if (bufferedRanges(this.audio).some((range) => range.start < from - 0.001)) {
      void this.queue.remove({ start: 0, end: from });
    }
  }
}

function sameSource(a: SongSource, b: SongSource): boolean {
  return a.songId === b.songId && a.url === b.url;
}

function mediaError(error: unknown): PlaybackError {
  return new PlaybackError('mediaError', error instanceof Error ? error.message : String(error));
}
