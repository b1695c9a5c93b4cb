import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { promisify } from 'node:util';
import { S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicMedia } from '../src/modules/streaming';
import { migrateMedia, type MigrateResult } from '../src/ops/media-migrate';
import { LocalMediaStore, S3MediaStore } from '../src/storage';
import { startLocalS3, type LocalS3 } from './s3-local';

/**
 * The media migration (`npm run media:migrate`) between a local media root and a bucket on the local S3 server
 * (SigV4 checked, Amazon's multipart ETags): resumable, verified, never touching the source.
 */

let work: string;
let s3: LocalS3;
let client: S3Client;
/** The local media root being migrated: a realistic layout (see `beforeAll`). */
let root: string;
let local: LocalMediaStore;
let bucket: S3MediaStore;
const song = `songs/${randomBytes(6).toString('hex')}`;
const PART = 5 * 1024 * 1024;

const clientOptions = () => ({
  endpoint: s3.endpoint,
  region: s3.region,
  forcePathStyle: true,
  credentials: s3.credentials,
});

/** Every file under a local root, by key, with its bytes. */
async function filesOf(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) {
      const file = path.join(entry.parentPath, entry.name);
      files.set(path.relative(dir, file).split(path.sep).join('/'), await readFile(file));
    }
  return files;
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const counts = (result: MigrateResult) => ({
  copied: result.copied,
  skipped: result.skipped,
  failed: result.failed.length,
});

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'backbeat-media-migrate-'));
  s3 = await startLocalS3({ publicPrefixes: ['public/'] });
  // One attempt per request: an outage fails at once instead of after the SDK's back-off.
  client = new S3Client({ ...clientOptions(), maxAttempts: 1 });
  root = path.join(work, 'data', 'media');
  local = new LocalMediaStore(root);
  bucket = new S3MediaStore({ bucket: s3.bucket, client, isPublic: isPublicMedia });
  const files: Record<string, Buffer> = {
    [`${song}/original.flac`]: randomBytes(PART + 100_003), // two multipart parts: an md5-2 ETag
    [`${song}/v1/index.m3u8`]: Buffer.from('#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI="enc.key"\nseg_0000.ts\n'),
    [`${song}/v1/enc.key`]: randomBytes(16),
    [`${song}/v1/seg_0000.ts`]: randomBytes(40_000),
    [`${song}/v1/seg_0001.ts`]: randomBytes(40_000),
    [`${song}/v1/seg_0002.ts`]: randomBytes(12_345),
    'images/cover/0a1b2c3d/512.webp': randomBytes(9_000),
  };
  for (const [key, bytes] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, key)), { recursive: true });
    await writeFile(path.join(root, key), bytes);
  }
});

afterAll(async () => {
  client?.destroy();
  await s3?.stop();
  await rm(work, { recursive: true, force: true });
});

describe('media migration, local root -> bucket -> local root', () => {
  it('copies a local root into the bucket: segments under the public prefix, keys private, sizes and ETags checked', async () => {
    const lines: string[] = [];
    const result = await migrateMedia({ from: local, to: bucket, log: (line) => lines.push(line) });
    expect(counts(result)).toEqual({ copied: 7, skipped: 0, failed: 0 });
    expect(result.bytesCopied).toBe(
      [...(await filesOf(root)).values()].reduce((sum, b) => sum + b.length, 0),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(new RegExp(`^\\d/7 copied ${song}/v1/seg_0002.ts \\(12.1 KiB\\)$`)),
    );
    expect(lines[0]).toMatch(/^7 files \(.+\) at the source, 0 files at the destination$/);
    expect(lines.at(-1)).toMatch(/^7\/7 copied /);

    // Every byte, by media key, and the multipart ETag S3 gives a two-part upload.
    for (const [key, bytes] of await filesOf(root))
      expect((await bytesOf(bucket.read(key))).equals(bytes), key).toBe(true);
    expect((await bucket.stat(`${song}/original.flac`))?.etag).toMatch(/^[0-9a-f]{32}-2$/);

    // Anonymous, as a CDN: the segments, and nothing else.
    const anonymous = (key: string) => fetch(`${s3.endpoint}/${s3.bucket}/${key}`);
    const segment = await anonymous(`public/${song}/v1/seg_0001.ts`);
    expect(segment.status).toBe(200);
    expect(
      Buffer.from(await segment.arrayBuffer()).equals(
        await readFile(path.join(root, song, 'v1/seg_0001.ts')),
      ),
    ).toBe(true);
    expect((await anonymous(`${song}/v1/enc.key`)).status).toBe(403);
    expect((await anonymous(`public/${song}/v1/enc.key`)).status).toBe(404);
    expect((await anonymous(`${song}/original.flac`)).status).toBe(403);
  });

  it('a second run copies nothing: every file is there with its size and ETag', async () => {
    const before = s3.log.filter((request) => request.method === 'PUT').length;
    const result = await migrateMedia({ from: local, to: bucket });
    expect(counts(result)).toEqual({ copied: 0, skipped: 7, failed: 0 });
    expect(s3.log.filter((request) => request.method === 'PUT').length).toBe(before);
  });

  it('copies again a destination file with another size, or the same size and other bytes (ETag)', async () => {
    await bucket.putStream(`${song}/v1/seg_0000.ts`, bucket.read(`${song}/v1/seg_0002.ts`)); // other size
    const sameSize = randomBytes(PART + 100_003);
    await writeFile(path.join(work, 'other.flac'), sameSize);
    await bucket.put(`${song}/original.flac`, path.join(work, 'other.flac')); // same size, other bytes
    const lines: string[] = [];
    const dry = await migrateMedia({
      from: local,
      to: bucket,
      dryRun: true,
      log: (line) => lines.push(line),
    });
    expect(counts(dry)).toEqual({ copied: 2, skipped: 5, failed: 0 });
    expect(lines.filter((line) => line.includes('would copy')).length).toBe(2);
    expect((await bucket.stat(`${song}/v1/seg_0000.ts`))?.size).toBe(12_345); // the dry run wrote nothing

    const result = await migrateMedia({ from: local, to: bucket });
    expect(counts(result)).toEqual({ copied: 2, skipped: 5, failed: 0 });
    for (const key of [`${song}/v1/seg_0000.ts`, `${song}/original.flac`])
      expect((await bytesOf(bucket.read(key))).equals(await readFile(path.join(root, key)))).toBe(true);
  });

  it('an interrupted run (the bucket goes down part-way) fails without losing anything, and the next run completes it', async () => {
    const added = `songs/${randomBytes(6).toString('hex')}/v1`;
    for (let n = 0; n < 12; n++) {
      await mkdir(path.join(root, added), { recursive: true });
      await writeFile(
        path.join(root, added, `seg_${String(n).padStart(4, '0')}.ts`),
        randomBytes(20_000 + n),
      );
    }
    let copies = 0;
    const interrupted = await migrateMedia({
      from: local,
      to: bucket,
      concurrency: 2,
      log: (line) => {
        if (line.includes(' copied ') && ++copies === 3) s3.setAvailable(false);
      },
    });
    s3.setAvailable(true);
    expect(interrupted.copied).toBeGreaterThanOrEqual(3);
    expect(interrupted.copied).toBeLessThan(12);
    expect(interrupted.failed.length).toBeGreaterThan(0);
    expect(interrupted.failed[0]!.reason).toMatch(/Media storage is unavailable/);
    expect(interrupted.notAttempted).toBeGreaterThan(0);

    const resumed = await migrateMedia({ from: local, to: bucket });
    expect(resumed.failed).toEqual([]);
    // A copy in flight when the bucket went down may have landed before its check after writing failed: the next
    // run finds it whole and skips it. So what is copied again is between the files never written and those that
    // did not copy.
    expect(resumed.copied + resumed.skipped).toBe(12 + 7);
    expect(resumed.copied).toBeLessThanOrEqual(12 - interrupted.copied);
    expect(resumed.copied).toBeGreaterThanOrEqual(12 - interrupted.copied - interrupted.failed.length);
    const listed = new Map<string, number>();
    for await (const file of bucket.listFiles()) listed.set(file.key, file.size);
    for (const [key, bytes] of await filesOf(root)) expect(listed.get(key), key).toBe(bytes.length);
  });

  it('restores the bucket into an empty root byte for byte, and never touches the source', async () => {
    const restoredRoot = path.join(work, 'restored', 'media');
    const before = (await bucket.stat(`${song}/original.flac`))!;
    const result = await migrateMedia({ from: bucket, to: new LocalMediaStore(restoredRoot) });
    const original = await filesOf(root);
    expect(counts(result)).toEqual({ copied: original.size, skipped: 0, failed: 0 });
    const restored = await filesOf(restoredRoot);
    expect([...restored.keys()].sort()).toEqual([...original.keys()].sort());
    for (const [key, bytes] of original) expect(restored.get(key)!.equals(bytes), key).toBe(true);
    expect(await bucket.stat(`${song}/original.flac`)).toEqual(before);

    const again = await migrateMedia({ from: bucket, to: new LocalMediaStore(restoredRoot) });
    expect(counts(again)).toEqual({ copied: 0, skipped: original.size, failed: 0 });
  });

  it('reports a copy whose bytes arrive changed (ETag) as failed, naming the file', async () => {
    /** A disk that flips one byte of everything written to it. */
    class FlippingDisk extends LocalMediaStore {
      override putStream(key: string, body: Readable) {
        let first = true;
        const flip = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            if (first && chunk.length) {
              chunk = Buffer.from(chunk);
              chunk[0] = chunk[0]! ^ 0xff;
              first = false;
            }
            done(null, chunk);
          },
        });
        return super.putStream(key, body.pipe(flip));
      }
    }
    const result = await migrateMedia({
      from: bucket,
      to: new FlippingDisk(path.join(work, 'flipped')),
      prefix: `${song}/v1`,
    });
    expect(result.copied).toBe(0);
    expect(result.failed.map((failure) => failure.key).sort()).toEqual(
      ['enc.key', 'index.m3u8', 'seg_0000.ts', 'seg_0001.ts', 'seg_0002.ts'].map(
        (name) => `${song}/v1/${name}`,
      ),
    );
    expect(result.failed[0]!.reason).toMatch(/^ETag [0-9a-f]{32} at the destination, expected [0-9a-f]{32}$/);
  });
});

describe('npm run media:migrate (the command)', () => {
  const run = async (args: string[], env: Record<string, string>) => {
    try {
      const { stdout, stderr } = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', 'src/ops/media-migrate.ts', ...args],
        { cwd: path.join(import.meta.dirname, '..'), env: { PATH: process.env.PATH ?? '', ...env } },
      );
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  };
  const environment = (dataDir: string) => ({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    SECRET_KEY: 'x'.repeat(48),
    S3_BUCKET: s3.bucket,
    S3_REGION: s3.region,
    S3_ENDPOINT: s3.endpoint,
    AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
    AWS_EC2_METADATA_DISABLED: 'true',
  });

  it('restores the bucket into DATA_DIR/media, prints the summary and exits 0', async () => {
    const dataDir = path.join(work, 'cli-data');
    const { code, stdout } = await run(['--to', 'local', '--prefix', song], environment(dataDir));
    expect(code).toBe(0);
    expect(stdout).toContain(`Copying bucket ${s3.bucket} into ${path.join(dataDir, 'media')}`);
    expect(stdout).toMatch(
      /Copied 6 files \([\d.]+ MiB\), skipped 0 already there \(0 B\), failed 0, in [\d.]+ s\./,
    );
    const restored = await filesOf(path.join(dataDir, 'media'));
    expect([...restored.keys()].every((key) => key.startsWith(`${song}/`))).toBe(true);
    expect(restored.size).toBe(6);
    for (const [key, bytes] of restored)
      expect(bytes.equals(await readFile(path.join(root, key))), key).toBe(true);
  });

  it('refuses misuse with a clear message and a non-zero exit, no stack trace', async () => {
    const { S3_BUCKET: _bucket, ...noBucket } = environment(path.join(work, 'cli-misuse'));
    const missing = await run(['--to', 's3'], noBucket);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(
      /^media:migrate: --to s3 needs S3_BUCKET .*\nusage: npm run media:migrate -- --to s3\|local/,
    );
    const unknown = await run(['--to', 's3', '--delete'], environment(path.join(work, 'cli-misuse')));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^media:migrate: Unknown option '--delete'/);
    const prefix = await run(
      ['--to', 'local', '--prefix', '../etc'],
      environment(path.join(work, 'cli-misuse')),
    );
    expect(prefix.code).toBe(2);
    expect(prefix.stderr).toMatch(
      /^media:migrate: --prefix must be a media prefix such as songs\/<id> \(got \.\.\/etc\)/,
    );
    for (const output of [missing, unknown, prefix]) expect(output.stderr).not.toMatch(/\n\s+at /);
  });
});
