/**
 * The media migration (`npm run media:migrate`) against the local S3 server (s3rver behind a SigV4-checking front,
 * on this machine): a media root of HLS folders and originals into the bucket, the second run (everything already
 * there: listing and ETag checks only), and the restore into an empty root. Prints files/s and MB/s per phase.
 *
 *   npm run bench:media-migrate -w @backbeat/bench
 *   BENCH_SONGS=40 BENCH_SEGMENTS=60 BENCH_ORIGINAL_MB=30 ...   # a bigger root
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import {
  formatBytes,
  LocalMediaStore,
  migrateMedia,
  S3MediaStore,
  type MigrateResult,
} from '@backbeat/server/media';
import { startLocalS3 } from '@backbeat/server/testing';

const SONGS = Number(process.env.BENCH_SONGS ?? 10);
const SEGMENTS = Number(process.env.BENCH_SEGMENTS ?? 60);
const SEGMENT_BYTES = 100 * 1024; // about 6 s of 128 kbit/s AAC
const ORIGINAL_MB = Number(process.env.BENCH_ORIGINAL_MB ?? 30);

const work = await mkdtemp(path.join(tmpdir(), 'backbeat-migrate-bench-'));
const s3 = await startLocalS3({ publicPrefixes: ['public/'] });
const client = new S3Client({
  endpoint: s3.endpoint,
  region: s3.region,
  forcePathStyle: true,
  credentials: s3.credentials,
});
try {
  const root = path.join(work, 'media');
  for (let song = 0; song < SONGS; song++) {
    const dir = path.join(root, 'songs', `s${song}`, 'v1');
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(root, 'songs', `s${song}`, 'original.flac'),
      randomBytes(ORIGINAL_MB * 1024 * 1024),
    );
    await writeFile(path.join(dir, 'index.m3u8'), '#EXTM3U\n'.repeat(SEGMENTS));
    await writeFile(path.join(dir, 'enc.key'), randomBytes(16));
    for (let n = 0; n < SEGMENTS; n++)
      await writeFile(path.join(dir, `seg_${String(n).padStart(4, '0')}.ts`), randomBytes(SEGMENT_BYTES));
  }
  const local = new LocalMediaStore(root);
  const bucket = new S3MediaStore({
    bucket: s3.bucket,
    client,
    isPublic: (key) => /\/seg_\d{4}\.ts$/.test(key),
  });
  const report = (phase: string, result: MigrateResult) => {
    const files = result.copied + result.skipped;
    const bytes = result.bytesCopied + result.bytesSkipped;
    console.log(
      `${phase.padEnd(28)} ${files} files (${formatBytes(bytes)}): copied ${result.copied}, skipped ${result.skipped}, ` +
        `failed ${result.failed.length} in ${result.seconds.toFixed(2)} s = ${(files / result.seconds).toFixed(0)} files/s, ` +
        `${(bytes / 1e6 / result.seconds).toFixed(1)} MB/s`,
    );
  };
  console.log(
    `media root: ${SONGS} songs x (${SEGMENTS} segments of ${formatBytes(SEGMENT_BYTES)}, a ${ORIGINAL_MB} MiB original); ` +
      `load average ${loadavg()[0]!.toFixed(2)}`,
  );
  report('local -> bucket', await migrateMedia({ from: local, to: bucket }));
  report('local -> bucket, again', await migrateMedia({ from: local, to: bucket }));
  report(
    'bucket -> empty local root',
    await migrateMedia({ from: bucket, to: new LocalMediaStore(path.join(work, 'restored')) }),
  );
} finally {
  client.destroy();
  await s3.stop();
  await rm(work, { recursive: true, force: true });
}
