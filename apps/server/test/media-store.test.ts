import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import {
  CreateMultipartUploadCommand,
  ListMultipartUploadsCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isPublicMedia } from '../src/modules/streaming';
import {
  LocalMediaStore,
  MediaStoreUnavailable,
  S3MediaStore,
  type MediaFile,
  type MediaStore,
} from '../src/storage';
import { startLocalS3, type LocalS3 } from './s3-local';

/** Everything `listFiles` yields and skips. */
async function listed(store: MediaStore, prefix?: string) {
  const files: MediaFile[] = [];
  const skipped: Array<{ name: string; reason: string }> = [];
  for await (const file of store.listFiles(prefix, {
    onSkipped: (name, reason) => skipped.push({ name, reason }),
  }))
    files.push(file);
  return { files: files.sort((a, b) => a.key.localeCompare(b.key)), skipped };
}

/** A body that sends `bytes`, then fails as a dropped connection would. */
function failingBody(bytes: Buffer): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (sent) this.destroy(new Error('connection reset by the source'));
      else {
        sent = true;
        this.push(bytes);
      }
    },
  });
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

let work: string;
let s3: LocalS3;
let client: S3Client;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'backbeat-media-store-'));
  s3 = await startLocalS3({ publicPrefixes: ['public/'] });
  client = new S3Client(clientOptions());
  await writeFile(path.join(work, 'one.bin'), 'x');
});

const clientOptions = () => ({
  endpoint: s3.endpoint,
  region: s3.region,
  forcePathStyle: true,
  credentials: s3.credentials,
});

afterAll(async () => {
  client?.destroy();
  await s3?.stop();
  await rm(work, { recursive: true, force: true });
});

/** The same behaviour from both stores: what the app relies on, whichever holds its media. */
const stores: Array<[string, () => MediaStore]> = [
  ['local disk', () => new LocalMediaStore(path.join(work, 'media'))],
  [
    'S3 (local S3 server, SigV4 checked)',
    () => new S3MediaStore({ bucket: s3.bucket, client, isPublic: isPublicMedia }),
  ],
];

describe.each(stores)('media store: %s', (name, makeStore) => {
  let store: MediaStore;
  let source: string;
  const root = `songs/${name.startsWith('local') ? 'l' : 's'}${randomBytes(4).toString('hex')}`;
  const original = randomBytes(64 * 1024 + 17);

  beforeAll(async () => {
    store = makeStore();
    source = await mkdtemp(path.join(work, 'source-'));
    await writeFile(path.join(source, 'original.flac'), original);
    await mkdir(path.join(source, 'hls', 'v1'), { recursive: true });
    await writeFile(path.join(source, 'hls', 'index.m3u8'), '#EXTM3U\n');
    await writeFile(path.join(source, 'hls', 'v1', 'seg_0000.ts'), randomBytes(1000));
  });

  it('stores a file and reads it back whole, by range, and by its size', async () => {
    await store.put(`${root}/original.flac`, path.join(source, 'original.flac'));
    expect((await store.stat(`${root}/original.flac`))?.size).toBe(original.length);
    expect(await bytesOf(store.read(`${root}/original.flac`))).toEqual(original);
    // Ranges are inclusive, as HTTP's are.
    expect(await bytesOf(store.read(`${root}/original.flac`, { start: 10, end: 20 }))).toEqual(
      original.subarray(10, 21),
    );
  });

  it('stores a folder under a prefix and lists one level of it, folders with their newest time', async () => {
    const before = Date.now() - 60_000;
    await store.put(`${root}/hls`, path.join(source, 'hls'));
    const entries = await store.list(`${root}/hls`);
    expect(entries.map((entry) => entry.name).sort()).toEqual(['index.m3u8', 'v1']);
    for (const entry of entries) expect(entry.mtime.getTime()).toBeGreaterThan(before);
    expect((await bytesOf(store.read(`${root}/hls/index.m3u8`))).toString()).toBe('#EXTM3U\n');
    expect((await store.stat(`${root}/hls/v1/seg_0000.ts`))?.size).toBe(1000);
  });

  it('lists every file under a prefix and in the whole store, at any depth, by media key with its size', async () => {
    const { files, skipped } = await listed(store, root);
    expect(files.map(({ key, size }) => ({ key, size }))).toEqual([
      { key: `${root}/hls/index.m3u8`, size: 8 },
      { key: `${root}/hls/v1/seg_0000.ts`, size: 1000 },
      { key: `${root}/original.flac`, size: original.length },
    ]);
    expect(skipped).toEqual([]);
    const whole = (await listed(store)).files.map((file) => file.key);
    expect(whole).toEqual(expect.arrayContaining(files.map((file) => file.key)));
    expect((await listed(store, `${root}/no-such-folder`)).files).toEqual([]);
    // Object storage adds each object's ETag, the one its bytes give (see the S3-only tests).
    for (const file of files) {
      if (store instanceof S3MediaStore) expect(file.etag).toBe(await store.etagOf(store.read(file.key)));
      else expect(file.etag).toBeUndefined();
    }
  });

  it('writes a stream to a key, visible only once whole, and a failing stream leaves the old file', async () => {
    const key = `${root}/streamed/cover.jpg`;
    const first = randomBytes(300_000);
    const body = new PassThrough();
    const writing = store.putStream(key, body);
    body.write(first.subarray(0, 100_000));
    await vi.waitFor(() => expect(body.readableLength).toBe(0)); // the store has taken the first part
    expect(await store.stat(key)).toBeNull();
    body.end(first.subarray(100_000));
    await writing;
    // Buffer.equals: a deep toEqual walks 300 kB byte by byte for seconds.
    expect((await bytesOf(store.read(key))).equals(first)).toBe(true);
    expect((await store.stat(key))?.size).toBe(first.length);

    await expect(store.putStream(key, failingBody(randomBytes(70_000)))).rejects.toThrow(/connection reset/);
    expect((await bytesOf(store.read(key))).equals(first)).toBe(true);
    expect(await listed(store, `${root}/streamed`)).toMatchObject({ files: [{ key }], skipped: [] });
  });

  it('gives tools a local file with the stored bytes', async () => {
    const scratch = await mkdtemp(path.join(work, 'scratch-'));
    const file = await store.localCopy(`${root}/original.flac`, scratch);
    expect(await readFile(file)).toEqual(original);
    await expect(store.localCopy(`${root}/missing.flac`, scratch)).rejects.toThrow();
  });

  it('answers null for what is not there, and a read of it fails', async () => {
    expect(await store.stat(`${root}/missing.ts`)).toBeNull();
    expect(await store.list(`${root}/no-such-folder`)).toEqual([]);
    await expect(bytesOf(store.read(`${root}/missing.ts`))).rejects.toThrow();
  });

  it('streams a file larger than one multipart part and keeps every byte', async () => {
    const big = randomBytes(11 * 1024 * 1024 + 3);
    await writeFile(path.join(source, 'big.wav'), big);
    await store.put(`${root}/big.wav`, path.join(source, 'big.wav'));
    expect((await store.stat(`${root}/big.wav`))?.size).toBe(big.length);
    expect((await bytesOf(store.read(`${root}/big.wav`))).equals(big)).toBe(true);
  });

  it('removes everything under a prefix, and a prefix that is not there is no error', async () => {
    await store.removePrefix(root);
    expect(await store.stat(`${root}/original.flac`)).toBeNull();
    expect(await store.stat(`${root}/hls/v1/seg_0000.ts`)).toBeNull();
    expect(await store.list(root)).toEqual([]);
    await store.removePrefix(`${root}/never-written`);
  });

  it('refuses a key that climbs out of the store before touching anything', async () => {
    for (const key of ['../outside', 'songs/../../outside', '/etc/passwd', '..']) {
      await expect(store.put(key, path.join(source, 'original.flac'))).rejects.toThrow(/escapes the store/);
      expect(() => store.read(key)).toThrow(/escapes the store/);
      await expect(store.stat(key)).rejects.toThrow(/escapes the store/);
      await expect(store.putStream(key, Readable.from([Buffer.from('x')]))).rejects.toThrow(
        /escapes the store/,
      );
      await expect(listed(store, key)).rejects.toThrow(/escapes the store/);
    }
  });
});

describe('media store on S3: what only object storage has', () => {
  it('lists an upload a killed worker left unfinished, for the clean-up job, and removing it aborts it', async () => {
    const store = new S3MediaStore({ bucket: s3.bucket, client });
    const song = `killed-${randomBytes(4).toString('hex')}`;
    const prefix = `uploads/${song}`;
    const before = Date.now() - 60_000;
    await client.send(
      new CreateMultipartUploadCommand({ Bucket: s3.bucket, Key: `${prefix}/original.flac` }),
    );
    const open = async () =>
      (await client.send(new ListMultipartUploadsCommand({ Bucket: s3.bucket, Prefix: prefix }))).Uploads ??
      [];
    expect(await open()).toHaveLength(1);
    // No object exists, yet the clean-up job's listing sees the song's folder and the file, with their age.
    const songs = await store.list('uploads');
    expect(songs.map((entry) => entry.name)).toContain(song);
    const files = await store.list(prefix);
    expect(files.map((entry) => entry.name)).toEqual(['original.flac']);
    expect(files[0]!.mtime.getTime()).toBeGreaterThan(before);
    await store.removePrefix(`${prefix}/original.flac`);
    expect(await open()).toEqual([]);
  });

  it('keeps segments under the public prefix a CDN serves, and the key, playlist and audio private', async () => {
    const store = new S3MediaStore({ bucket: s3.bucket, client, isPublic: isPublicMedia });
    const prefix = `songs/p${randomBytes(4).toString('hex')}/v1`;
    const hls = await mkdtemp(path.join(work, 'hls-'));
    const segment = randomBytes(2000);
    await writeFile(path.join(hls, 'seg_0000.ts'), segment);
    await writeFile(path.join(hls, 'enc.key'), randomBytes(16));
    await writeFile(path.join(hls, 'index.m3u8'), '#EXTM3U\n');
    await store.put(prefix, hls);
    // Anonymous, as a browser through a CDN: the segment under the public prefix, nothing else.
    const anonymous = (key: string) => fetch(`${s3.endpoint}/${s3.bucket}/${key}`);
    const publicSegment = await anonymous(`public/${prefix}/seg_0000.ts`);
    expect(publicSegment.status).toBe(200);
    expect(Buffer.from(await publicSegment.arrayBuffer())).toEqual(segment);
    for (const key of [`${prefix}/enc.key`, `${prefix}/index.m3u8`])
      expect((await anonymous(key)).status).toBe(403);
    // The key never went to the public prefix at all.
    expect((await anonymous(`public/${prefix}/enc.key`)).status).toBe(404);
    // The app reads and lists by media key, wherever the object is.
    expect(await bytesOf(store.read(`${prefix}/seg_0000.ts`))).toEqual(segment);
    expect((await store.list(prefix)).map((entry) => entry.name).sort()).toEqual([
      'enc.key',
      'index.m3u8',
      'seg_0000.ts',
    ]);
    await store.removePrefix(prefix);
    expect((await anonymous(`public/${prefix}/seg_0000.ts`)).status).toBe(404);
    expect(await store.list(prefix)).toEqual([]);
    expect(() => store.read('public/songs/x/seg_0000.ts')).toThrow(/inside the public prefix/);
  });

  it('reports an unreachable store as unavailable (503), not as a missing file, and works again after', async () => {
    const store = new S3MediaStore({
      bucket: s3.bucket,
      client: new S3Client({ ...clientOptions(), maxAttempts: 1 }),
    });
    const key = `songs/u${randomBytes(4).toString('hex')}/original.flac`;
    s3.setAvailable(false);
    try {
      await expect(store.stat(key)).rejects.toBeInstanceOf(MediaStoreUnavailable);
      await expect(store.put(key, path.join(work, 'one.bin'))).rejects.toBeInstanceOf(MediaStoreUnavailable);
      await expect(bytesOf(store.read(key))).rejects.toBeInstanceOf(MediaStoreUnavailable);
      await expect(store.list('songs')).rejects.toBeInstanceOf(MediaStoreUnavailable);
      await expect(listed(store, 'songs')).rejects.toBeInstanceOf(MediaStoreUnavailable);
      await expect(store.putStream(key, Readable.from([Buffer.from('x')]))).rejects.toBeInstanceOf(
        MediaStoreUnavailable,
      );
    } finally {
      s3.setAvailable(true);
    }
    await store.put(key, path.join(work, 'one.bin'));
    expect((await store.stat(key))?.size).toBe(1);
  });
});

describe('media store on S3: ETags and listings', () => {
  it("knows an object's ETag from its bytes: the MD5 up to one part, md5(part MD5s)-N beyond", async () => {
    const store = new S3MediaStore({ bucket: s3.bucket, client });
    const prefix = `songs/e${randomBytes(4).toString('hex')}`;
    const part = store.partSize;
    for (const size of [0, 1, part, part + 1, 2 * part + 5]) {
      const bytes = randomBytes(size);
      const key = `${prefix}/${size}.bin`;
      // In small pieces, so the part boundaries fall inside chunks as they do when reading a file.
      await store.putStream(key, Readable.from(chunked(bytes, 100_003)));
      const expected = await store.etagOf(Readable.from(chunked(bytes, 65_536)));
      const info = await store.stat(key);
      expect({ size, etag: info?.etag }).toEqual({ size, etag: expected });
      expect(store.etagComputable({ size, etag: expected })).toBe(true);
      expect(expected.endsWith(`-${Math.ceil(size / part)}`)).toBe(size > part);
    }
    const files = (await listed(store, prefix)).files;
    expect(files.map((file) => file.etag)).toEqual(
      await Promise.all(files.map((file) => store.stat(file.key).then((info) => info?.etag))),
    );
    // Another tool's parts give another -N: compared by size only.
    expect(store.etagComputable({ size: 3 * part, etag: `${'a'.repeat(32)}-2` })).toBe(false);
    await store.removePrefix(prefix);
  });

  it('skips, with the reason, objects it could never read back by a media key', async () => {
    const store = new S3MediaStore({ bucket: s3.bucket, client, isPublic: isPublicMedia });
    const prefix = `songs/o${randomBytes(4).toString('hex')}`;
    const put = (Key: string) => client.send(new PutObjectCommand({ Bucket: s3.bucket, Key, Body: 'x' }));
    await store.putStream(`${prefix}/v1/seg_0000.ts`, Readable.from([Buffer.from('segment')]));
    await store.putStream(`${prefix}/v1/enc.key`, Readable.from([Buffer.from('key')]));
    await put(`public/${prefix}/v1/enc.key`);
    await put(`${prefix}/v1/seg_0001.ts`);
    // (A folder marker `…/` or a name such as `a//b` is skipped too, as not a media key; s3rver cannot store them.)
    const { files, skipped } = await listed(store, prefix);
    expect(files.map((file) => file.key)).toEqual([`${prefix}/v1/enc.key`, `${prefix}/v1/seg_0000.ts`]);
    expect(skipped.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: `public/${prefix}/v1/enc.key`, reason: 'under the public prefix public/ but not public media' },
      {
        name: `${prefix}/v1/seg_0001.ts`,
        reason: `public media outside the public prefix (read from public/${prefix}/v1/seg_0001.ts)`,
      },
    ]);
  });
});

function* chunked(bytes: Buffer, size: number): Generator<Buffer> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}
