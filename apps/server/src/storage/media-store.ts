import { createReadStream, type ReadStream } from 'node:fs';
import { cp, mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';

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
  read(key: string, range?: { start: number; end: number }): ReadStream;
  /** A local path for tools such as ffmpeg; only the disk driver has one. */
  localPath(key: string): string;
}

export interface MediaEntry {
  name: string;
  /** When it was last written. */
  mtime: Date;
}

export class LocalMediaStore implements MediaStore {
  constructor(readonly root: string) {}

  localPath(key: string): string {
    const resolved = path.resolve(this.root, key);
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
    try {
      const info = await stat(this.localPath(key));
      return info.isFile() ? { size: info.size, mtime: info.mtime } : null;
    } catch {
      return null;
    }
  }

  read(key: string, range?: { start: number; end: number }): ReadStream {
    // 64 KiB chunks: the default 16 KiB costs a large share of throughput on segment delivery.
    return createReadStream(this.localPath(key), { ...range, highWaterMark: 64 * 1024 });
  }
}
