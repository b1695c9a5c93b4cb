import { createReadStream } from 'node:fs';
import { cp, mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Where media files live. Keys are relative, slash-separated paths such as `songs/<id>/<version>/index.m3u8`.
 * Files are written once and never changed (a new upload gets a new version prefix), so they can be cached forever.
 */
export interface MediaStore {
  /** Copies a local file or folder into the store under `key`. */
  put(key: string, localPath: string): Promise<void>;
  removePrefix(prefix: string): Promise<void>;
  /** The entries directly under `prefix` (one level, like a delimited object listing), for the clean-up job. */
  list(prefix: string): Promise<MediaEntry[]>;
  stat(key: string): Promise<{ size: number; mtime: Date } | null>;
  /** The file's bytes, or an inclusive byte range of them; a missing key fails the stream. */
  read(key: string, range?: { start: number; end: number }): Readable;
  /** A local path for tools such as ffmpeg; only the disk driver has one. */
  localPath(key: string): string;
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

export class LocalMediaStore implements MediaStore {
  constructor(readonly root: string) {}

  localPath(key: string): string {
    const resolved = path.resolve(this.root, checkedMediaKey(key));
    if (!resolved.startsWith(path.resolve(this.root) + path.sep))
      throw new Error(`Media key escapes the store: ${key}`);
    return resolved;
  }

  async put(key: string, localPath: string): Promise<void> {
    const target = this.localPath(key);
    await mkdir(path.dirname(target), { recursive: true });
    await cp(localPath, target, { recursive: true, force: true });
  }

  async removePrefix(prefix: string): Promise<void> {
    await rm(this.localPath(prefix), { recursive: true, force: true });
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

  async stat(key: string) {
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
