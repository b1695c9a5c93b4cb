import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import {
  AbortMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { checkedMediaKey, type MediaEntry, type MediaStore } from './media-store';

export interface S3MediaStoreOptions {
  bucket: string;
  /** A configured client (region, endpoint for R2/MinIO/others, credentials from the SDK's default chain). */
  client: S3Client;
}

/** Files uploaded at once when a folder (an HLS rendition: a playlist, a key and its segments) goes in. */
const UPLOAD_CONCURRENCY = 4;
/** Multipart parts: S3's minimum, so a large original streams through in small pieces (RSS stays flat). */
const PART_SIZE = 5 * 1024 * 1024;
/** DeleteObjects takes at most 1,000 keys per request. */
const DELETE_BATCH = 1000;

const isNotFound = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.name === 'NotFound' || error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404);

/** Every file under a local folder, as paths relative to it with forward slashes. */
async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

/**
 * Media in an S3-compatible bucket through the official AWS SDK v3. Keys are the same relative paths the local store
 * uses; a "folder" is a key prefix ending in `/`. Uploads stream through multipart uploads (lib-storage), never
 * buffered whole; reads stream the object's body, with HTTP ranges.
 */
export class S3MediaStore implements MediaStore {
  private readonly bucket: string;
  private readonly client: S3Client;

  constructor(options: S3MediaStoreOptions) {
    this.bucket = options.bucket;
    this.client = options.client;
  }

  localPath(key: string): string {
    throw new Error(`Media on object storage has no local path (${checkedMediaKey(key)})`);
  }

  async put(key: string, localPath: string): Promise<void> {
    const target = checkedMediaKey(key);
    const info = await stat(localPath);
    if (!info.isDirectory()) return this.upload(target, localPath);
    const files = await filesUnder(localPath);
    for (let at = 0; at < files.length; at += UPLOAD_CONCURRENCY) {
      await Promise.all(
        files
          .slice(at, at + UPLOAD_CONCURRENCY)
          .map((file) => this.upload(`${target}/${file}`, path.join(localPath, file))),
      );
    }
  }

  private async upload(key: string, file: string): Promise<void> {
    await new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: createReadStream(file) },
      partSize: PART_SIZE,
      queueSize: 1,
    }).done();
  }

  /** Deletes every object under the prefix, and abandons any multipart upload left under it (a killed worker's). */
  async removePrefix(prefix: string): Promise<void> {
    const root = checkedMediaKey(prefix);
    const keys = [root];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: `${root}/`, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    for (let at = 0; at < keys.length; at += DELETE_BATCH) {
      await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: keys.slice(at, at + DELETE_BATCH).map((Key) => ({ Key })), Quiet: true },
        }),
      );
    }
    await this.abortUploads(`${root}/`);
    await this.abortUploads(root);
  }

  private async abortUploads(prefix: string): Promise<void> {
    const open = await this.client.send(
      new ListMultipartUploadsCommand({ Bucket: this.bucket, Prefix: prefix }),
    );
    for (const upload of open.Uploads ?? []) {
      if (upload.Key === prefix || upload.Key?.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`)) {
        await this.client.send(
          new AbortMultipartUploadCommand({
            Bucket: this.bucket,
            Key: upload.Key,
            UploadId: upload.UploadId,
          }),
        );
      }
    }
  }

  /**
   * One level under the prefix, like the local folder listing: objects with their LastModified, and sub-folders
   * with the newest LastModified inside them (what the clean-up job's grace period reads).
   */
  async list(prefix: string): Promise<MediaEntry[]> {
    const root = `${checkedMediaKey(prefix)}/`;
    const entries = new Map<string, Date>();
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: root, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        if (!object.Key || !object.LastModified) continue;
        const name = object.Key.slice(root.length).split('/')[0]!;
        const seen = entries.get(name);
        if (!seen || seen < object.LastModified) entries.set(name, object.LastModified);
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return [...entries].map(([name, mtime]) => ({ name, mtime }));
  }

  async stat(key: string): Promise<{ size: number; mtime: Date } | null> {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: checkedMediaKey(key) }),
      );
      return { size: head.ContentLength ?? 0, mtime: head.LastModified ?? new Date(0) };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  /** The object's bytes (inclusive range, as the local store reads), streamed as they arrive. */
  read(key: string, range?: { start: number; end: number }): Readable {
    const out = new PassThrough({ highWaterMark: 64 * 1024 });
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: checkedMediaKey(key),
      ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
    });
    this.client.send(command).then(
      ({ Body }) => {
        const body = Body as Readable;
        body.on('error', (error) => out.destroy(error));
        body.pipe(out);
      },
      (error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))),
    );
    return out;
  }
}
