import { createReadStream, createWriteStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
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
import {
  checkedMediaKey,
  MediaStoreUnavailable,
  type MediaEntry,
  type MediaFile,
  type MediaFileInfo,
  type MediaStore,
} from './media-store';
import { etagComputable, normalEtag, s3EtagOf } from './s3-etag';

export interface S3MediaStoreOptions {
  bucket: string;
  /** A configured client (region, endpoint for R2/MinIO/others, credentials from the SDK's default chain). */
  client: S3Client;
  /**
   * Which keys are public (encrypted HLS segments): they are stored under `publicPrefix`, the one prefix a CDN or
   * the bucket's website endpoint serves, so `<SEGMENT_BASE_URL>/<key>` reads them. Everything else (keys, plain
   * audio, masters, originals) stays private, served only by the API after its checks.
   */
  isPublic?: (key: string) => boolean;
  /** Default `public`. */
  publicPrefix?: string;
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

/**
 * The store itself failing (unreachable, a timeout, a 5xx after the SDK's retries), as opposed to a refusal of the
 * request: answered 503 and retried by jobs, never mistaken for a missing file.
 */
function unavailable(error: unknown): boolean {
  if (error instanceof S3ServiceException) return (error.$metadata.httpStatusCode ?? 500) >= 500;
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return (
    ['TimeoutError', 'RequestTimeout', 'AbortError'].includes(error.name) ||
    (typeof code === 'string' &&
      /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH)$/.test(code))
  );
}

const translated = (error: unknown): unknown =>
  unavailable(error) ? new MediaStoreUnavailable(error) : error;

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
  /** The multipart part size of every upload: the ETags of this store's objects follow from it (`etagOf`). */
  readonly partSize = PART_SIZE;
  private readonly bucket: string;
  private readonly client: S3Client;
  private readonly isPublic: (key: string) => boolean;
  readonly publicPrefix: string;

  constructor(options: S3MediaStoreOptions) {
    this.bucket = options.bucket;
    this.client = options.client;
    this.isPublic = options.isPublic ?? (() => false);
    this.publicPrefix = checkedMediaKey(options.publicPrefix ?? 'public');
  }

  /** The object a media key is stored as: public keys under the public prefix, the rest as they are. */
  objectKey(key: string): string {
    const checked = checkedMediaKey(key);
    if (checked === this.publicPrefix || checked.startsWith(`${this.publicPrefix}/`))
      throw new Error(`Media key inside the public prefix: ${key}`);
    return this.isPublic(checked) ? `${this.publicPrefix}/${checked}` : checked;
  }

  /** The object prefixes a media prefix spans: its private objects and its public ones. */
  private objectRoots(prefix: string): string[] {
    const root = checkedMediaKey(prefix);
    return [root, `${this.publicPrefix}/${root}`];
  }

  /** Every call goes through here, so an outage is reported as one (503) wherever it happens. */
  private async call<Output>(request: (client: S3Client) => Promise<Output>): Promise<Output> {
    try {
      return await request(this.client);
    } catch (error) {
      throw translated(error);
    }
  }

  async localCopy(key: string, scratchDir: string): Promise<string> {
    const file = path.join(scratchDir, checkedMediaKey(key).replaceAll('/', '_'));
    const { Body } = await this.call((client) =>
      client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) })),
    );
    try {
      await pipeline(Body as Readable, createWriteStream(file));
    } catch (error) {
      throw translated(error);
    }
    return file;
  }

  async put(key: string, localPath: string): Promise<void> {
    const target = checkedMediaKey(key);
    const info = await stat(localPath);
    if (!info.isDirectory()) return this.upload(this.objectKey(target), localPath);
    const files = await filesUnder(localPath);
    for (let at = 0; at < files.length; at += UPLOAD_CONCURRENCY) {
      await Promise.all(
        files
          .slice(at, at + UPLOAD_CONCURRENCY)
          .map((file) => this.upload(this.objectKey(`${target}/${file}`), path.join(localPath, file))),
      );
    }
  }

  async putStream(key: string, body: Readable): Promise<void> {
    await this.upload(this.objectKey(key), body);
  }

  /** A file or a stream into one object; a failed multipart upload is aborted by lib-storage (nothing visible). */
  private async upload(key: string, file: string | Readable): Promise<void> {
    const body = typeof file === 'string' ? createReadStream(file) : file;
    try {
      await new Upload({
        client: this.client,
        params: { Bucket: this.bucket, Key: key, Body: body },
        partSize: PART_SIZE,
        queueSize: 1,
      }).done();
    } catch (error) {
      body.destroy();
      throw translated(error);
    }
  }

  /** The ETag this store's upload of these bytes gets (to check a copy, or a file against its object). */
  etagOf(body: AsyncIterable<unknown>): Promise<string> {
    return s3EtagOf(body, this.partSize);
  }

  /** Whether `etagOf` can reproduce this object's ETag (it was uploaded with this store's part size). */
  etagComputable(file: { etag?: string; size: number }): file is { etag: string; size: number } {
    return file.etag !== undefined && etagComputable(file.etag, file.size, this.partSize);
  }

  /**
   * Deletes every object under the prefix (private and public), and abandons any multipart upload left under it (a
   * killed worker's).
   */
  async removePrefix(prefix: string): Promise<void> {
    for (const root of this.objectRoots(prefix)) {
      // The objects there: the prefix as a key itself (a single file was put there), or under it as a folder;
      // never a sibling such as `<prefix>x`.
      const keys: string[] = [];
      for await (const object of this.objectsUnder(root))
        if (object.Key === root || object.Key.startsWith(`${root}/`)) keys.push(object.Key);
      for (let at = 0; at < keys.length; at += DELETE_BATCH) {
        await this.call((client) =>
          client.send(
            new DeleteObjectsCommand({
              Bucket: this.bucket,
              Delete: { Objects: keys.slice(at, at + DELETE_BATCH).map((Key) => ({ Key })), Quiet: true },
            }),
          ),
        );
      }
      await this.abortUploads(`${root}/`);
      await this.abortUploads(root);
    }
  }

  /** Every object under an object prefix, page by page. */
  private async *objectsUnder(
    prefix: string,
  ): AsyncGenerator<{ Key: string; LastModified: Date; Size: number; ETag?: string }> {
    let token: string | undefined;
    do {
      const page = await this.call((client) =>
        client.send(
          new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
        ),
      );
      for (const object of page.Contents ?? [])
        if (object.Key && object.LastModified)
          yield {
            Key: object.Key,
            LastModified: object.LastModified,
            Size: object.Size ?? 0,
            ETag: normalEtag(object.ETag),
          };
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  private async abortUploads(prefix: string): Promise<void> {
    for await (const upload of this.uploadsUnder(prefix)) {
      if (upload.Key === prefix || upload.Key.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`)) {
        await this.call((client) =>
          client.send(
            new AbortMultipartUploadCommand({
              Bucket: this.bucket,
              Key: upload.Key,
              UploadId: upload.UploadId,
            }),
          ),
        );
      }
    }
  }

  /** Multipart uploads begun and neither completed nor aborted under an object prefix, page by page. */
  private async *uploadsUnder(
    prefix: string,
  ): AsyncGenerator<{ Key: string; UploadId: string; Initiated: Date }> {
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    do {
      const page = await this.call((client) =>
        client.send(
          new ListMultipartUploadsCommand({
            Bucket: this.bucket,
            Prefix: prefix,
            KeyMarker: keyMarker,
            UploadIdMarker: uploadIdMarker,
          }),
        ),
      );
      for (const upload of page.Uploads ?? [])
        if (upload.Key && upload.UploadId)
          yield { Key: upload.Key, UploadId: upload.UploadId, Initiated: upload.Initiated ?? new Date(0) };
      keyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
      uploadIdMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined;
    } while (keyMarker);
  }

  /**
   * One level under the prefix, like the local folder listing: objects with their LastModified, and sub-folders
   * with the newest LastModified inside them (what the clean-up job's grace period reads).
   */
  async list(prefix: string): Promise<MediaEntry[]> {
    const entries = new Map<string, Date>();
    const see = (root: string, key: string, time: Date) => {
      const name = key.slice(root.length + 1).split('/')[0]!;
      const seen = entries.get(name);
      if (!seen || seen < time) entries.set(name, time);
    };
    for (const root of this.objectRoots(prefix)) {
      for await (const object of this.objectsUnder(`${root}/`)) see(root, object.Key, object.LastModified);
      // An upload a killed process left unfinished is there too, as a partial file is on disk: the clean-up job
      // sees it, and removing its prefix aborts it.
      for await (const upload of this.uploadsUnder(`${root}/`)) see(root, upload.Key, upload.Initiated);
    }
    return [...entries].map(([name, mtime]) => ({ name, mtime }));
  }

  /**
   * Every object under the prefix (private and public), by media key. Objects the store would never read back by
   * that key are skipped with the reason: a folder marker or an unnormalised name, a non-public key under the public
   * prefix, a public key (a segment) outside it.
   */
  async *listFiles(
    prefix?: string,
    options: { onSkipped?: (name: string, reason: string) => void } = {},
  ): AsyncIterable<MediaFile> {
    const roots = prefix === undefined ? [''] : this.objectRoots(prefix).map((root) => `${root}/`);
    const publicRoot = `${this.publicPrefix}/`;
    for (const root of roots) {
      for await (const object of this.objectsUnder(root)) {
        const isPublicObject = object.Key.startsWith(publicRoot);
        const key = isPublicObject ? object.Key.slice(publicRoot.length) : object.Key;
        const skip = (reason: string) => options.onSkipped?.(object.Key, reason);
        let normal: string | null = null;
        try {
          normal = checkedMediaKey(key);
        } catch {
          // not a media key at all
        }
        if (normal !== key) skip('not a media key (a folder marker or an unnormalised name)');
        else if (isPublicObject && !this.isPublic(key))
          skip(`under the public prefix ${publicRoot} but not public media`);
        else if (!isPublicObject && this.isPublic(key))
          skip(`public media outside the public prefix (read from ${publicRoot}${key})`);
        else yield { key, size: object.Size, mtime: object.LastModified, etag: object.ETag };
      }
    }
  }

  async stat(key: string): Promise<MediaFileInfo | null> {
    try {
      const head = await this.call((client) =>
        client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) })),
      );
      return {
        size: head.ContentLength ?? 0,
        mtime: head.LastModified ?? new Date(0),
        etag: normalEtag(head.ETag),
      };
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
      Key: this.objectKey(key),
      ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
    });
    this.call((client) => client.send(command)).then(
      ({ Body }) => {
        const body = Body as Readable;
        body.on('error', (error) => out.destroy(translated(error) as Error));
        body.pipe(out);
      },
      (error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))),
    );
    return out;
  }
}
