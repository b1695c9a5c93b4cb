import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { access, cp, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../platform/errors';

/**
 * Where media files live. Keys are relative, slash-separated paths such as `songs/<id>/<version>/index.m3u8`.
 * Files are written once and never changed (a new upload gets a new version prefix), so they can be cached forever.
 */
export interface MediaStore {
  /** Copies a local file or folder into the store under `key`. */
  put(key: string, localPath: string): Promise<void>;
  /**
   * Writes a stream's bytes to `key` without a local copy first. Readers see the previous file or the whole new
   * one, never part of it; a failing body leaves nothing behind.
   */
  putStream(key: string, body: Readable): Promise<void>;
  removePrefix(prefix: string): Promise<void>;
  /** The entries directly under `prefix` (one level, like a delimited object listing), for the clean-up job. */
  list(prefix: string): Promise<MediaEntry[]>;
  /**
   * Every file under `prefix` (the whole store when omitted), at any depth, by media key. What the store holds but
   * could never read back by a key (an unfinished write, an object outside its layout) is not listed: it is named
   * to `onSkipped` with the reason.
   */
  listFiles(
    prefix?: string,
    options?: { onSkipped?: (name: string, reason: string) => void },
  ): AsyncIterable<MediaFile>;
  stat(key: string): Promise<MediaFileInfo | null>;
  /** The file's bytes, or an inclusive byte range of them; a missing key fails the stream. */
  read(key: string, range?: { start: number; end: number }): Readable;
  /**
   * A local file with the key's bytes, for tools such as ffmpeg: the stored file itself on local disk, or a copy
   * downloaded into `scratchDir` (which the caller removes) from object storage.
   */
  localCopy(key: string, scratchDir: string): Promise<string>;
}

export interface MediaFileInfo {
  size: number;
  mtime: Date;
  /** Object storage only: the object's ETag (lower-case, no quotes; see `s3-etag.ts`). */
  etag?: string;
}

export interface MediaFile extends MediaFileInfo {
  key: string;
}

export interface MediaEntry {
  name: string;
  /** When it was last written. */
  mtime: Date;
}

/**
 * A key as both stores read it: relative, slash-separated, normalised; one that climbs out of the store (`..`) or
 * starts at a root is a programming error, refused before any file or object is touched.
 */
export function checkedMediaKey(key: string): string {
  const normal = path.posix.normalize(key.replaceAll('\\', '/')).replace(/\/+$/, '');
  if (!normal || normal === '.' || normal === '..' || normal.startsWith('../') || normal.startsWith('/'))
    throw new Error(`Media key escapes the store: ${key}`);
  return normal;
}

/** What a listener or an artist reads when the object store cannot be reached; jobs retry later. */
export const MEDIA_STORE_UNAVAILABLE = {
  status: 503,
  code: 'MEDIA_STORE_UNAVAILABLE',
  message: 'Media storage is unavailable right now. Nothing was lost; please try again in a minute.',
  retryAfterSec: 30,
} as const;

/** The media store could not be reached or answered with a server error: the server's condition, answered 503. */
export class MediaStoreUnavailable extends AppError {
  override readonly retryAfterSeconds = MEDIA_STORE_UNAVAILABLE.retryAfterSec;

  constructor(cause: unknown) {
    super(MEDIA_STORE_UNAVAILABLE.status, MEDIA_STORE_UNAVAILABLE.code, MEDIA_STORE_UNAVAILABLE.message);
    this.cause = cause;
  }
}

/** A stored file's bytes, whole (playlists, keys, segments, covers: small files). */
export async function readMedia(store: MediaStore, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of store.read(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The suffix of a file `putStream` is still writing (hidden, renamed over the target when complete). */
const PARTIAL_SUFFIX = '.partial';

export class LocalMediaStore implements MediaStore {
  constructor(readonly root: string) {}

  /** The file's path under the media root (tests and the migration read the disk layout through it). */
  localPath(key: string): string {
    const resolved = path.resolve(this.root, checkedMediaKey(key));
    if (!resolved.startsWith(path.resolve(this.root) + path.sep))
      throw new Error(`Media key escapes the store: ${key}`);
    return resolved;
  }

  async localCopy(key: string): Promise<string> {
    const file = this.localPath(key);
    await access(file); // a missing file fails here, with ENOENT, as a download from a bucket would
    return file;
  }

  async put(key: string, localPath: string): Promise<void> {
    const target = this.localPath(key);
    await mkdir(path.dirname(target), { recursive: true });
    await cp(localPath, target, { recursive: true, force: true });
  }

  /** Written to a hidden file beside the target, flushed, then renamed over it (one atomic step). */
  async putStream(key: string, body: Readable): Promise<void> {
    const target = this.localPath(key);
    await mkdir(path.dirname(target), { recursive: true });
    const partial = path.join(
      path.dirname(target),
      `.${path.basename(target)}.${randomBytes(6).toString('hex')}${PARTIAL_SUFFIX}`,
    );
    try {
      await pipeline(body, createWriteStream(partial, { flags: 'wx', flush: true }));
      await rename(partial, target);
    } catch (error) {
      body.destroy();
      await rm(partial, { force: true });
      throw error;
    }
  }

  async removePrefix(prefix: string): Promise<void> {
    await rm(this.localPath(prefix), { recursive: true, force: true });
  }

  async *listFiles(
    prefix?: string,
    options: { onSkipped?: (name: string, reason: string) => void } = {},
  ): AsyncIterable<MediaFile> {
    const dir = prefix === undefined ? path.resolve(this.root) : this.localPath(prefix);
    const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch((error: unknown) => {
      if ((error as { code?: unknown }).code === 'ENOENT' || (error as { code?: unknown }).code === 'ENOTDIR')
        return [];
      throw error;
    });
    const base = path.resolve(this.root);
    for (const entry of entries) {
      if (entry.isDirectory()) continue;
      const file = path.join(entry.parentPath, entry.name);
      const key = path.relative(base, file).split(path.sep).join('/');
      if (!entry.isFile()) options.onSkipped?.(key, 'not a regular file');
      else if (entry.name.startsWith('.') && entry.name.endsWith(PARTIAL_SUFFIX))
        options.onSkipped?.(key, 'an unfinished write');
      else {
        const info = await stat(file).catch(() => null); // gone since the listing: not there any more
        if (info) yield { key, size: info.size, mtime: info.mtime };
      }
    }
  }

  async list(prefix: string): Promise<MediaEntry[]> {
    const dir = this.localPath(prefix);
    const names = await readdir(dir).catch(() => [] as string[]);
    const entries = await Promise.all(
      names.map(async (name) => {
        const info = await stat(path.join(dir, name)).catch(() => null);
        return info ? { name, mtime: info.mtime } : null;
      }),
    );
    return entries.filter((entry): entry is MediaEntry => entry !== null);
  }

  async stat(key: string): Promise<MediaFileInfo | null> {
    const file = this.localPath(key);
    try {
      const info = await stat(file);
      return info.isFile() ? { size: info.size, mtime: info.mtime } : null;
    } catch {
      return null;
    }
  }

  read(key: string, range?: { start: number; end: number }): Readable {
    // 64 KiB chunks: the default 16 KiB costs a large share of throughput on segment delivery.
    return createReadStream(this.localPath(key), { ...range, highWaterMark: 64 * 1024 });
  }
}
