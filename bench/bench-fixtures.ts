import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  artists,
  type Database,
  hashToken,
  openDatabase,
  sessions,
  songs,
  subscriptions,
  users,
} from '@backbeat/server/db';
import { locateFfmpeg, transcodeToEncryptedHls } from '@backbeat/server/media';
import { startThrowawayCluster, type ThrowawayCluster } from '@backbeat/server/testing';

/** Database and streaming fixtures shared by the benchmarks. */

const run = promisify(execFile);

export async function openBenchDatabase(
  work: string,
  usePostgres: boolean,
): Promise<{ database: Database; cluster: ThrowawayCluster | null }> {
  if (!usePostgres)
    return {
      database: await openDatabase({ kind: 'pglite', dataDir: path.join(work, 'db') }),
      cluster: null,
    };
  const cluster = await startThrowawayCluster();
  return { database: await openDatabase({ kind: 'postgres', url: cluster.url, max: 10 }), cluster };
}

/** One listener with a session and an active subscription, one ready song with real encrypted HLS. */
export async function seedStreamingListener(
  database: Database,
  mediaStore: { put(key: string, dir: string): Promise<void> },
  work: string,
) {
  const tools = await locateFfmpeg();
  const wav = path.join(work, 'sine.wav');
  await run(tools.ffmpeg, [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=20',
    '-ac',
    '2',
    wav,
  ]);
  const hlsDir = path.join(work, 'hls');
  const transcoded = await transcodeToEncryptedHls(tools, { input: wav, outDir: hlsDir, encoder: 'fast' });

  const db = database.db;
  const [userId, artistId, songId] = [randomUUID(), randomUUID(), randomUUID()];
  const prefix = `songs/${songId}/v1`;
  const session = randomBytes(32).toString('base64url');
  await db.insert(users).values({ id: userId, name: 'Bench Listener', email: `${userId}@bench.local` });
  await db
    .insert(sessions)
    .values({ userId, tokenHash: hashToken(session), expiresAt: new Date(Date.now() + 86_400_000) });
  await db.insert(artists).values({ id: artistId, name: 'Bench Artist' });
  await db.insert(songs).values({
    id: songId,
    artistId,
    title: 'Sine',
    singer: 'Bench Artist',
    status: 'ready',
    hlsPrefix: prefix,
    durationSec: transcoded.durationSec,
  });
  await db.insert(subscriptions).values({
    userId,
    artistId,
    status: 'active',
    gateway: 'sandbox',
    externalId: `bench_${userId}`,
    currentPeriodEnd: new Date(Date.now() + 30 * 86_400_000),
  });
  await mediaStore.put(prefix, hlsDir);
  return { userId, songId, prefix, session };
}
