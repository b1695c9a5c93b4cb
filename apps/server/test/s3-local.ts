/**
 * A local S3-compatible object store for tests and benches: s3rver (the most complete S3 server the npm registry
 * offers; its own files on disk, real S3 REST and XML) behind a front that does what s3rver leaves out and Amazon
 * S3 does not: it checks every request's AWS Signature Version 4 (header or presigned query) against the one
 * access key it knows, refuses a date more than 15 minutes off and an expired presigned URL, checks a signed
 * payload hash against the body, and serves anonymous reads only under the prefixes made public (the bucket
 * policy a CDN origin needs). The unmodified AWS SDK talks to it as to S3.
 *
 * s3rver 3.7 also gives a multipart object the MD5 of its whole content as ETag; Amazon S3 gives
 * `md5(concat(part MD5s))-N`, which tools (the media migration) recompute, so the store is patched to do the same.
 *
 * s3rver 3.7 accepts any V4 signature ("Signature version 4 calculation is unimplemented" in its source), which is
 * why this front exists. `setAvailable(false)` makes every request fail with 503, as an outage would.
 *
 * With `cors`, the bucket carries a CORS configuration (s3rver applies it as S3 does): a browser on another origin
 * may read the public prefix, and its preflights (OPTIONS, never signed) are answered from the rules.
 */
// The declaration of s3rver (it ships none) travels with this file: e2e and bench compile it through
// `@backbeat/server/testing` without the server's tsconfig, and an import cannot name a declaration file.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./s3rver.d.ts" />
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { S3Refusal, sendError, sigV4Gate } from './s3-sigv4';

export { NodeSha256 } from './s3-sigv4';

export interface LocalS3 {
  endpoint: string;
  region: string;
  bucket: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** Every request (method and path) the front refused or passed, for tests that look at the traffic. */
  readonly log: Array<{ method: string; path: string; status: number }>;
  /** While false, every request answers 503 ServiceUnavailable (an outage of the store). */
  setAvailable(available: boolean): void;
  stop(): Promise<void>;
}

export interface LocalS3Options {
  bucket?: string;
  region?: string;
  /** Key prefixes anyone may GET or HEAD without signing (the bucket policy of a CDN origin). */
  publicPrefixes?: string[];
  /** A bucket CORS configuration (one rule), as a bucket behind a CDN or read by browsers directly has. */
  cors?: LocalS3Cors;
}

export interface LocalS3Cors {
  /** Default `['*']`. */
  allowedOrigins?: string[];
  /** Default `['GET', 'HEAD']`. */
  allowedMethods?: Array<'GET' | 'HEAD' | 'PUT' | 'POST' | 'DELETE'>;
  /** Request headers a preflight may name; default `['*']`. */
  allowedHeaders?: string[];
  /** Response headers scripts may read; default none. */
  exposeHeaders?: string[];
  /** How long a browser may keep a preflight's answer; default 3000. */
  maxAgeSeconds?: number;
}

/** The `<CORSConfiguration>` document S3's PutBucketCors takes. */
export function corsConfigurationXml(cors: LocalS3Cors): string {
  const escape = (text: string) =>
    text.replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c]!);
  const each = (tag: string, values: string[]) =>
    values.map((value) => `<${tag}>${escape(value)}</${tag}>`).join('');
  return (
    `<CORSConfiguration><CORSRule>` +
    each('AllowedOrigin', cors.allowedOrigins ?? ['*']) +
    each('AllowedMethod', cors.allowedMethods ?? ['GET', 'HEAD']) +
    each('AllowedHeader', cors.allowedHeaders ?? ['*']) +
    each('ExposeHeader', cors.exposeHeaders ?? []) +
    `<MaxAgeSeconds>${cors.maxAgeSeconds ?? 3000}</MaxAgeSeconds>` +
    `</CORSRule></CORSConfiguration>`
  );
}

/**
 * s3rver deletes a DeleteObjects batch concurrently and races itself removing the folders it emptied (its own
 * files on disk; `rmdir` of a folder another delete just removed fails, and the batch answers 500). Amazon S3 has
 * no folders and no such failure, so the deletions are run one at a time.
 */
function serializeDeletes(backend: S3rver): void {
  const store = (
    backend as unknown as { store: { deleteObject(bucket: string, key: string): Promise<void> } }
  ).store;
  const deleteObject = store.deleteObject.bind(store);
  let queue: Promise<unknown> = Promise.resolve();
  store.deleteObject = (bucket, key) => {
    const run = queue.then(() => deleteObject(bucket, key));
    queue = run.catch(() => undefined);
    return run;
  };
}

export async function startLocalS3(options: LocalS3Options = {}): Promise<LocalS3> {
  const bucket = options.bucket ?? 'backbeat-media';
  const region = options.region ?? 'us-east-1';
  const credentials = {
    accessKeyId: `AKIA${randomBytes(8).toString('hex').toUpperCase()}`,
    secretAccessKey: randomBytes(30).toString('base64'),
  };
  const publicPrefixes = (options.publicPrefixes ?? []).map((prefix) => `/${bucket}/${prefix}`);
  const directory = await mkdtemp(path.join(tmpdir(), 'backbeat-s3-'));
  const backend = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: options.cors ? [corsConfigurationXml(options.cors)] : [] }],
  });
  multipartEtags(backend);
  const { port: backendPort } = await backend.run();
  serializeDeletes(backend);
  let available = true;
  const log: LocalS3['log'] = [];

  const authenticate = sigV4Gate({ credentials, region, publicPrefixes });
  /** Passes the request on to s3rver; a signed literal payload hash is checked before any byte reaches it. */
  async function forward(
    req: IncomingMessage,
    res: ServerResponse,
    payloadHash: string | null,
    keepBody: boolean,
  ): Promise<{ status: number; body: string }> {
    let body: Buffer | null = null;
    if (payloadHash) {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      body = Buffer.concat(chunks);
      if (createHash('sha256').update(body).digest('hex') !== payloadHash)
        throw new S3Refusal(
          400,
          'XAmzContentSHA256Mismatch',
          "The provided 'x-amz-content-sha256' header does not match what was computed.",
        );
    }
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      // Checked here, so s3rver (which knows none of this store's keys) gets the request without its credentials.
      const { authorization: _checked, ...headers } = req.headers;
      const forwarded = new URL(req.url ?? '/', 'http://127.0.0.1');
      for (const name of [...forwarded.searchParams.keys()])
        if (name.startsWith('X-Amz-')) forwarded.searchParams.delete(name);
      const upstream = http.request(
        {
          host: '127.0.0.1',
          port: backendPort,
          method: req.method,
          path: `${(req.url ?? '/').split('?')[0]}${forwarded.search}`,
          headers,
        },
        (answer) => {
          const status = answer.statusCode ?? 502;
          res.writeHead(status, answer.headers);
          const kept: Buffer[] = [];
          if (keepBody) answer.on('data', (chunk: Buffer) => kept.push(chunk));
          answer.pipe(res);
          answer.on('end', () => resolve({ status, body: Buffer.concat(kept).toString() }));
          answer.on('error', reject);
        },
      );
      upstream.on('error', reject);
      if (body) upstream.end(body);
      else req.pipe(upstream);
    });
  }

  /**
   * Multipart uploads in progress. s3rver stores parts and completes uploads but cannot list or abort them
   * (ListMultipartUploads, AbortMultipartUpload: "NotImplemented"), which clean-up after a killed worker needs; the
   * front answers those two from what it saw initiated, and refuses parts for an upload that no longer exists.
   */
  const uploads = new Map<string, { key: string; initiated: Date }>();
  const objectKey = (url: URL) => decodeURIComponent(url.pathname.slice(bucket.length + 2));

  /** Answers the multipart calls s3rver lacks; false when the request is s3rver's to serve. */
  function multipart(req: IncomingMessage, res: ServerResponse, url: URL): boolean {
    const uploadId = url.searchParams.get('uploadId');
    if (uploadId !== null && !uploads.has(uploadId))
      throw new S3Refusal(404, 'NoSuchUpload', 'The specified upload does not exist.');
    if (req.method === 'DELETE' && uploadId !== null) {
      uploads.delete(uploadId);
      req.resume();
      res.writeHead(204).end();
      return true;
    }
    if (
      req.method === 'GET' &&
      url.pathname.replace(/\/$/, '') === `/${bucket}` &&
      url.searchParams.has('uploads')
    ) {
      const prefix = url.searchParams.get('prefix') ?? '';
      const open = [...uploads].filter(([, upload]) => upload.key.startsWith(prefix));
      const xml = (text: string) =>
        text.replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c]!);
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.end(
        `<?xml version="1.0" encoding="UTF-8"?>\n<ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">` +
          `<Bucket>${bucket}</Bucket><KeyMarker></KeyMarker><UploadIdMarker></UploadIdMarker><Prefix>${xml(prefix)}</Prefix>` +
          `<MaxUploads>1000</MaxUploads><IsTruncated>false</IsTruncated>` +
          open
            .map(
              ([id, upload]) =>
                `<Upload><Key>${xml(upload.key)}</Key><UploadId>${id}</UploadId>` +
                `<Initiated>${upload.initiated.toISOString()}</Initiated><StorageClass>STANDARD</StorageClass></Upload>`,
            )
            .join('') +
          `</ListMultipartUploadsResult>`,
      );
      return true;
    }
    return false;
  }

  const front = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const record = (status: number) => log.push({ method: req.method ?? '', path: url.pathname, status });
    void (async () => {
      if (!available) throw new S3Refusal(503, 'ServiceUnavailable', 'Please reduce your request rate.');
      const payloadHash = await authenticate(req, url);
      if (multipart(req, res, url)) return record(res.statusCode);
      const initiating = req.method === 'POST' && url.searchParams.has('uploads');
      const completing = req.method === 'POST' ? url.searchParams.get('uploadId') : null;
      const { status, body } = await forward(req, res, payloadHash, initiating);
      const started =
        initiating && status === 200 ? /<UploadId>([^<]+)<\/UploadId>/.exec(body)?.[1] : undefined;
      if (started) uploads.set(started, { key: objectKey(url), initiated: new Date() });
      if (completing && status === 200) uploads.delete(completing);
      record(status);
    })().catch((error: unknown) => {
      const refusal = error instanceof S3Refusal ? error : new S3Refusal(500, 'InternalError', String(error));
      record(refusal.status);
      req.resume();
      if (!res.headersSent) sendError(res, refusal);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;

  return {
    endpoint,
    region,
    bucket,
    credentials,
    log,
    setAvailable(value) {
      available = value;
    },
    async stop() {
      front.closeAllConnections();
      await new Promise<void>((resolve) => front.close(() => resolve()));
      await backend.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** What of s3rver's filesystem store `multipartEtags` patches (s3rver ships no types). */
interface S3rverStore {
  getResourcePath(bucket: string, key: string | undefined, resource: string): string;
  putObjectMultipart(
    bucket: string,
    uploadId: string,
    parts: Array<{ number: number; etag: string }>,
  ): Promise<{ md5: string; size: number }>;
}

/**
 * Completed multipart uploads get Amazon S3's ETag, `md5(concat(part MD5s))-N`, in listings, HEAD, GET and the
 * completion answer (s3rver stores the object's ETag in an `.md5` file beside it and reads it from there).
 */
function multipartEtags(backend: S3rver) {
  const store = (backend as unknown as { store: S3rverStore }).store;
  const complete = store.putObjectMultipart.bind(store);
  store.putObjectMultipart = async (bucketName, uploadId, parts) => {
    const uploadDir = path.join(store.getResourcePath(bucketName, undefined, 'uploads'), uploadId);
    const key = (await readFile(path.join(uploadDir, 'key'))).toString();
    const result = await complete(bucketName, uploadId, parts);
    const digests = [...parts]
      .sort((a, b) => a.number - b.number)
      .map((part) => Buffer.from(part.etag, 'hex'));
    const etag = `${createHash('md5').update(Buffer.concat(digests)).digest('hex')}-${parts.length}`;
    await writeFile(store.getResourcePath(bucketName, key, 'object.md5'), etag);
    return { ...result, md5: etag };
  };
}
