import { readMedia, type MediaStore } from '../../storage';
import {
  buildPlaylistTemplate,
  FIRST_SEGMENT,
  HLS_FILES,
  segmentAddress,
  type PlaylistTemplate,
  type SegmentOrigin,
} from './hls-playlist';
import { TtlCache } from '../../platform/ttl-cache';

export interface MediaFile {
  key: string;
  size: number;
  mtime: Date;
}

/** Files up to this size are served from memory once read (HLS segments are ~150 KB; fallback files stream). */
const HOT_FILE_MAX_BYTES = 2 * 1024 * 1024;
/** Memory the hot-file cache may hold. */
const HOT_CACHE_BYTES = 96 * 1024 * 1024;

/**
 * Least-recently-used buffers bounded by their total size. Segments are immutable and every listener of a song
 * reads the same ones, so a hot segment is answered from memory without opening the file again.
 */
export class ByteBudgetCache {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly maxEntryBytes: number,
  ) {}

  get size(): number {
    return this.bytes;
  }

  get(key: string): Buffer | undefined {
    const value = this.entries.get(key);
    if (value) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: Buffer): void {
    if (value.length > this.maxEntryBytes || value.length > this.maxBytes) return;
    const previous = this.entries.get(key);
    if (previous) {
      this.entries.delete(key);
      this.bytes -= previous.length;
    }
    this.entries.set(key, value);
    this.bytes += value.length;
    for (const [oldest, buffer] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= buffer.length;
    }
  }
}

/** How long a song's media prefix is trusted before the database is asked again (re-uploads, deletions). */
const PREFIX_TTL_MS = 10_000;

/**
 * Reads a song's HLS files from the media store, with in-memory caches: everything under a prefix is immutable
 * (a new upload gets a new prefix), so playlists, keys and file sizes are cached by key without expiry, and only
 * the song -> prefix lookup expires.
 */
export class StreamMedia {
  private readonly prefixes = new TtlCache<string, string | null>(20_000, PREFIX_TTL_MS);
  private readonly playlists = new TtlCache<string, PlaylistTemplate>(2_000);
  private readonly keys = new TtlCache<string, Buffer>(20_000);
  private readonly files = new TtlCache<string, MediaFile | null>(50_000);
  private readonly hot = new ByteBudgetCache(HOT_CACHE_BYTES, HOT_FILE_MAX_BYTES);
  private readonly loadingHot = new Map<string, Promise<Buffer>>();

  constructor(
    private readonly store: MediaStore,
    private readonly findReadyPrefix: (songId: string) => Promise<string | null>,
    /** `SEGMENT_BASE_URL`: segments are served from the media root there instead of by the API. */
    private readonly segmentBaseUrl: string | null = null,
  ) {}

  /** A song was re-uploaded or deleted somewhere (the catalogue changed): ask the database again. */
  forgetPrefixes(): void {
    this.prefixes.deleteWhere(() => true);
  }

  /** The media prefix of a ready song, or null. Misses are not cached, so a song that just became ready plays. */
  readyPrefix(songId: string): Promise<string | null> {
    return this.prefixes.getOrLoad(
      songId,
      () => this.findReadyPrefix(songId),
      (prefix) => prefix !== null,
    );
  }

  /** The address the playlist under `prefix` (served from `base`, the song's HLS path by default) gives its first segment. */
  firstSegmentUrl(songId: string, prefix: string, base?: string): string {
    return segmentAddress(songId, FIRST_SEGMENT, this.segmentOrigin(prefix), base);
  }

  /** The playlist under `prefix`, rewritten to be served from `base` (the song's HLS path by default). */
  async playlist(songId: string, prefix: string, base?: string): Promise<PlaylistTemplate> {
    const cacheKey = `${songId}\n${prefix}`;
    const cached = this.playlists.get(cacheKey);
    if (cached) return cached;
    const text = (await this.readAll(`${prefix}/${HLS_FILES.playlist}`)).toString('utf8');
    const template = buildPlaylistTemplate(text, songId, this.segmentOrigin(prefix), base);
    this.playlists.set(cacheKey, template);
    return template;
  }

  private segmentOrigin(prefix: string): SegmentOrigin | undefined {
    return this.segmentBaseUrl ? { baseUrl: this.segmentBaseUrl, prefix } : undefined;
  }

  async key(prefix: string): Promise<Buffer> {
    const cached = this.keys.get(prefix);
    if (cached) return cached;
    const key = await this.readAll(`${prefix}/${HLS_FILES.key}`);
    if (key.length !== 16)
      throw new Error(`AES-128 key under ${prefix} has ${key.length} bytes, expected 16`);
    this.keys.set(prefix, key);
    return key;
  }

  /** Size and modification time of a file, or null when it does not exist (not cached: it may appear). */
  file(key: string): Promise<MediaFile | null> {
    return this.files.getOrLoad(
      key,
      async () => {
        const info = await this.store.stat(key);
        return info ? { key, size: info.size, mtime: info.mtime } : null;
      },
      (info) => info !== null,
    );
  }

  read(file: MediaFile, range?: { start: number; end: number }) {
    return this.store.read(file.key, range);
  }

  /**
   * A response body for the file: small files (segments) come from the hot cache, read once by concurrent
   * requests; large ones (the fallback audio) are streamed from the store.
   */
  async body(file: MediaFile, range?: { start: number; end: number }) {
    if (file.size > HOT_FILE_MAX_BYTES) return this.read(file, range);
    const cacheKey = `${file.key}\n${file.mtime.getTime()}\n${file.size}`;
    let whole = this.hot.get(cacheKey);
    if (!whole) {
      let loading = this.loadingHot.get(cacheKey);
      if (!loading) {
        loading = this.readAll(file.key).finally(() => this.loadingHot.delete(cacheKey));
        this.loadingHot.set(cacheKey, loading);
      }
      whole = await loading;
      if (whole.length !== file.size) return this.read(file, range); // changed under us: do not cache it
      this.hot.set(cacheKey, whole);
    }
    return range ? whole.subarray(range.start, range.end + 1) : whole;
  }

  private readAll(key: string): Promise<Buffer> {
    return readMedia(this.store, key);
  }
}
