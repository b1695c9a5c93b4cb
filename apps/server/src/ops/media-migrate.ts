import { existsSync } from 'node:fs';
import path from 'node:path';
import { Transform } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config';
import {
  checkedMediaKey,
  createMediaStore,
  LocalMediaStore,
  MediaStoreUnavailable,
  S3EtagHash,
  S3MediaStore,
  type MediaFile,
  type MediaStore,
} from '../storage';

/**
 * Copies every media file from one store into another: a local media root into a bucket when moving to object
 * storage, a bucket into a local root to restore it.
 *
 *   npm run media:migrate -- --to s3 [--dry-run] [--prefix songs]     # DATA_DIR/media -> S3_BUCKET
 *   npm run media:migrate -- --to local [--dry-run] [--prefix songs]  # S3_BUCKET -> DATA_DIR/media
 *
 * Resumable: a file already at the destination with the same size (and, between disk and bucket, the same S3 ETag,
 * recomputed from the bytes with the store's part size) is skipped; any other is copied again. Every copy is
 * verified the same way. Nothing is ever deleted at the source (or at the destination).
 */

export interface MigrateOptions {
  from: MediaStore;
  to: MediaStore;
  /** Only report what would be copied. */
  dryRun?: boolean;
  /** Only the files under this media prefix (default: the whole store). */
  prefix?: string;
  /** Progress lines. */
  log?: (line: string) => void;
  /** Files copied at once (default 4: object storage is latency-bound on small files). */
  concurrency?: number;
}

export interface MigrateResult {
  dryRun: boolean;
  /** Files copied and verified (in a dry run: that would be copied). */
  copied: number;
  bytesCopied: number;
  /** Already at the destination, the same. */
  skipped: number;
  bytesSkipped: number;
  failed: Array<{ key: string; reason: string }>;
  /** Not tried because the run stopped (a store became unavailable): a second run picks them up. */
  notAttempted: number;
  /** What the source holds outside the media layout (not copied), with the reason. */
  outside: Array<{ name: string; reason: string }>;
  seconds: number;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

export async function migrateMedia(options: MigrateOptions): Promise<MigrateResult> {
  const { from, to, prefix } = options;
  const log = options.log ?? (() => {});
  const started = performance.now();
  const result: MigrateResult = {
    dryRun: options.dryRun ?? false,
    copied: 0,
    bytesCopied: 0,
    skipped: 0,
    bytesSkipped: 0,
    failed: [],
    notAttempted: 0,
    outside: [],
    seconds: 0,
  };
  // The one bucket whose ETags are compared with the bytes on the other side (disk <-> bucket).
  const bucket = to instanceof S3MediaStore ? to : from instanceof S3MediaStore ? from : null;

  const sources: MediaFile[] = [];
  for await (const file of from.listFiles(prefix, {
    onSkipped: (name, reason) => {
      result.outside.push({ name, reason });
      log(`not copied: ${name} (${reason})`);
    },
  }))
    sources.push(file);
  const existing = new Map<string, MediaFile>();
  for await (const file of to.listFiles(prefix)) existing.set(file.key, file);
  const total = sources.reduce((sum, file) => sum + file.size, 0);
  log(
    `${sources.length} files (${formatBytes(total)}) at the source, ${existing.size} files at the destination` +
      (result.dryRun ? ' (dry run: nothing is written)' : ''),
  );

  /** The ETag a file's bytes give, read from the store unless the store reports it. */
  const etagOf = async (store: MediaStore, file: MediaFile) =>
    file.etag ?? (await bucket!.etagOf(store.read(file.key)));
  /** Whether the bucket's side of the pair has an ETag these bytes can be checked against. */
  const comparable = (bucketSide: MediaFile | { size: number; etag?: string }) =>
    bucket !== null && bucket.etagComputable(bucketSide);

  async function alreadyThere(source: MediaFile, target: MediaFile | undefined): Promise<boolean> {
    if (!target || target.size !== source.size) return false;
    if (!comparable(to === bucket ? target : source)) return true; // size only
    return (await etagOf(from, source)) === (await etagOf(to, target));
  }

  /** Copies one file and checks what arrived; the reason it is wrong, or null. */
  async function copy(source: MediaFile): Promise<string | null> {
    // Between disk and bucket, the bytes sent are hashed on the way (the disk side's fingerprint).
    const sent = bucket ? new S3EtagHash(bucket.partSize) : null;
    const read = from.read(source.key);
    const body = read.pipe(
      new Transform({
        transform(chunk: Buffer, _encoding, done) {
          sent?.update(chunk);
          done(null, chunk);
        },
      }),
    );
    // A failing read fails the write (which then leaves nothing behind), not a stream left hanging.
    read.on('error', (error) => body.destroy(error));
    await to.putStream(source.key, body);
    const after = await to.stat(source.key);
    if (!after) return 'not at the destination after the copy';
    if (after.size !== source.size) return `size ${after.size} at the destination, expected ${source.size}`;
    if (!bucket || !sent) return null;
    const target = { key: source.key, ...after };
    if (!comparable(to === bucket ? target : source)) return null;
    const sourceEtag = from === bucket ? source.etag! : sent.digest();
    const targetEtag = to === bucket ? after.etag : await etagOf(to, target);
    return targetEtag === sourceEtag
      ? null
      : `ETag ${targetEtag ?? 'missing'} at the destination, expected ${sourceEtag}`;
  }

  let next = 0;
  let finished = 0;
  let stopped: string | null = null;
  /** `n/total` as files finish (several are copied at once). */
  const place = () => `${++finished}/${sources.length}`;
  const worker = async () => {
    while (stopped === null && next < sources.length) {
      const source = sources[next++]!;
      try {
        if (await alreadyThere(source, existing.get(source.key))) {
          result.skipped += 1;
          result.bytesSkipped += source.size;
          const at = place();
          if (finished % 1000 === 0) log(`${at} checked`);
          continue;
        }
        if (result.dryRun) {
          log(`${place()} would copy ${source.key} (${formatBytes(source.size)})`);
        } else {
          const wrong = await copy(source);
          if (wrong) {
            result.failed.push({ key: source.key, reason: wrong });
            log(`${place()} FAILED ${source.key}: ${wrong}`);
            continue;
          }
          log(`${place()} copied ${source.key} (${formatBytes(source.size)})`);
        }
        result.copied += 1;
        result.bytesCopied += source.size;
      } catch (error) {
        result.failed.push({ key: source.key, reason: errorText(error) });
        log(`${place()} FAILED ${source.key}: ${errorText(error)}`);
        // An outage fails every file after it: stop and let a second run resume.
        if (error instanceof MediaStoreUnavailable) stopped = errorText(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
  result.notAttempted = sources.length - next;
  if (stopped) log(`stopped: ${stopped} (${result.notAttempted} files not tried; run again to resume)`);
  result.seconds = (performance.now() - started) / 1000;
  return result;
}

/** The closing lines: counts, bytes, time, and every failure. */
export function formatSummary(result: MigrateResult): string[] {
  const lines = [
    `${result.dryRun ? 'Dry run: would copy' : 'Copied'} ${result.copied} files (${formatBytes(result.bytesCopied)}), ` +
      `skipped ${result.skipped} already there (${formatBytes(result.bytesSkipped)}), ` +
      `failed ${result.failed.length}` +
      (result.notAttempted ? `, not tried ${result.notAttempted}` : '') +
      `, in ${result.seconds.toFixed(1)} s.`,
  ];
  if (result.outside.length)
    lines.push(`${result.outside.length} objects outside the media layout were not copied (listed above).`);
  for (const failure of result.failed) lines.push(`failed: ${failure.key}: ${failure.reason}`);
  if (result.failed.length || result.notAttempted) lines.push('Run the same command again to resume.');
  return lines;
}

const USAGE =
  'usage: npm run media:migrate -- --to s3|local [--dry-run] [--prefix <media prefix>]\n' +
  '  --to s3     copy the local media root (DATA_DIR/media) into the bucket (S3_BUCKET, S3_REGION, S3_ENDPOINT)\n' +
  '  --to local  copy the bucket into the local media root (a restore)';

class UsageError extends Error {}

async function cli(args: string[], log: (line: string) => void): Promise<number> {
  let values: { to?: string; 'dry-run'?: boolean; prefix?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        to: { type: 'string' },
        'dry-run': { type: 'boolean' },
        prefix: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(errorText(error));
  }
  if (values.help) {
    log(USAGE);
    return 0;
  }
  if (values.to !== 's3' && values.to !== 'local')
    throw new UsageError(
      values.to ? `--to must be s3 or local (got ${values.to})` : '--to s3 or --to local is required',
    );
  if (!process.env.S3_BUCKET)
    throw new UsageError(
      `--to ${values.to} needs S3_BUCKET (with S3_REGION, S3_ENDPOINT as the servers use them): the bucket to copy ` +
        (values.to === 's3' ? 'into' : 'from'),
    );
  if (values.prefix !== undefined) {
    try {
      values.prefix = checkedMediaKey(values.prefix);
    } catch {
      throw new UsageError(`--prefix must be a media prefix such as songs/<id> (got ${values.prefix})`);
    }
  }
  // The servers' own settings; MEDIA_STORE is forced to s3 so the bucket is read whatever the servers use now.
  const config = loadConfig({ ...process.env, MEDIA_STORE: 's3' });
  const local = new LocalMediaStore(config.mediaDir);
  // Loaded only for a real run: the streaming module brings much of the app with it (seconds), misuse answers at once.
  const { isPublicMedia } = await import('../modules/streaming');
  const bucket = createMediaStore(config.mediaStore, isPublicMedia);
  if (values.to === 's3' && !existsSync(config.mediaDir))
    throw new UsageError(`the local media root ${config.mediaDir} does not exist (check DATA_DIR)`);
  const [from, to] = values.to === 's3' ? [local, bucket] : [bucket, local];
  const where = config.mediaStore.kind === 's3' ? `bucket ${config.mediaStore.bucket}` : 'the bucket';
  log(
    values.to === 's3'
      ? `Copying ${config.mediaDir} into ${where}`
      : `Copying ${where} into ${config.mediaDir}`,
  );
  const result = await migrateMedia({ from, to, dryRun: values['dry-run'], prefix: values.prefix, log });
  for (const line of formatSummary(result)) log(line);
  return result.failed.length || result.notAttempted ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const log = (line: string) => console.log(line);
  cli(process.argv.slice(2), log).then(
    (code) => process.exit(code),
    (error: unknown) => {
      // Misuse (2) is told apart from a store that could not be listed (1, like a failed copy).
      if (error instanceof UsageError) console.error(`media:migrate: ${error.message}\n${USAGE}`);
      else console.error(`media:migrate: ${errorText(error)}`);
      process.exit(error instanceof UsageError || error instanceof ConfigError ? 2 : 1);
    },
  );
}
