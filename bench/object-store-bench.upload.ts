import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { artists, hashToken, openDatabase, sessions, users } from '@backbeat/server/db';
import { freePort, servesCatalogue, startThrowawayCluster, type LocalS3 } from '@backbeat/server/testing';

/**
 * The object-store bench's upload part: the real server (`src/main.ts`) as its own process with MEDIA_STORE=s3 and
 * JOBS=off on a throwaway PostgreSQL cluster (the API of the scale-out topology; JOBS=off needs PostgreSQL), so that
 * its resident memory is its own and nothing but the upload runs in it. The audio file is sent
 * from disk (a file-backed Blob in a multipart form: the bench never holds it in memory) while VmRSS of the server
 * process is sampled every 100 ms.
 */
const serverDir = path.dirname(createRequire(import.meta.url).resolve('@backbeat/server/package.json'));
const SAMPLE_MS = 100;

export interface UploadFigures {
  file: string;
  megabytes: number;
  seconds: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  rssAfterMb: number;
  /** Peak RSS of the bench process while it sent the file: the sender, but also the local S3 server and PGlite. */
  benchRssPeakMb: number;
}

/** VmRSS of a process in MB (10^6 bytes), from /proc (Linux). */
async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN);
  return (kb * 1024) / 1e6;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface UploadServer {
  pid: number;
  upload(file: string, title: string): Promise<UploadFigures>;
  stop(): Promise<void>;
}

/** Migrates the database and adds an artist account with a session. */
async function seedArtist(url: string): Promise<string> {
  const database = await openDatabase({ kind: 'postgres', url, max: 2 });
  try {
    await database.migrate();
    const token = randomBytes(32).toString('base64url');
    const [artist] = await database.db
      .insert(users)
      .values({
        name: 'Upload Artist',
        email: `upload-${randomBytes(4).toString('hex')}@bench.local`,
        role: 'artist',
      })
      .returning();
    await database.db.insert(artists).values({ name: 'Upload Artist', ownerUserId: artist!.id });
    await database.db.insert(sessions).values({
      userId: artist!.id,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    return token;
  } finally {
    await database.close();
  }
}

/** Starts `src/main.ts` on the local S3 server (credentials through the SDK's default chain: the environment). */
export async function startUploadServer(s3: LocalS3, dataDir: string): Promise<UploadServer> {
  await mkdir(dataDir, { recursive: true });
  const cluster = await startThrowawayCluster();
  const session = await seedArtist(cluster.url);
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: origin,
      SMTP_URL: 'smtp://127.0.0.1:25',
      SECRET_KEY: randomBytes(48).toString('base64url'),
      DATA_DIR: dataDir,
      DATABASE_URL: cluster.url,
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      JOBS: 'off',
      MEDIA_STORE: 's3',
      S3_BUCKET: s3.bucket,
      S3_REGION: s3.region,
      S3_ENDPOINT: s3.endpoint,
      AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 120_000;
  while (!(await servesCatalogue(origin))) {
    const failure =
      child.exitCode !== null
        ? `server exited with ${child.exitCode}`
        : Date.now() > deadline
          ? 'server did not start'
          : null;
    if (failure) {
      child.kill('SIGKILL');
      cluster.stop();
      throw new Error(`${failure}:\n${output}`);
    }
    await pause(100);
  }
  const pid = child.pid!;
  await pause(1000); // start-up work settles before the first reading

  return {
    pid,
    async upload(file, title) {
      const bytes = (await stat(file)).size;
      const rssBeforeMb = await rssMb(pid);
      let rssPeakMb = rssBeforeMb;
      let benchRssPeakMb = process.memoryUsage().rss / 1e6;
      const sampler = setInterval(() => {
        benchRssPeakMb = Math.max(benchRssPeakMb, process.memoryUsage().rss / 1e6);
        void rssMb(pid).then(
          (mb) => (rssPeakMb = Math.max(rssPeakMb, mb)),
          () => undefined,
        );
      }, SAMPLE_MS);
      const started = performance.now();
      try {
        const form = new FormData();
        form.append('title', title);
        // A file-backed Blob: fetch reads it from disk as it sends.
        form.append('audio', await openAsBlob(file, { type: 'audio/wav' }), path.basename(file));
        const res = await fetch(`${origin}/api/songs`, {
          method: 'POST',
          headers: { authorization: `Bearer ${session}` },
          body: form,
        });
        if (res.status !== 201)
          throw new Error(`upload answered ${res.status}: ${await res.text()}\n${output}`);
        await res.arrayBuffer();
      } finally {
        clearInterval(sampler);
      }
      const seconds = (performance.now() - started) / 1000;
      await pause(1000);
      return {
        file: path.basename(file),
        megabytes: bytes / 1e6,
        seconds,
        rssBeforeMb,
        rssPeakMb: Math.max(rssPeakMb, await rssMb(pid)),
        rssAfterMb: await rssMb(pid),
        benchRssPeakMb,
      };
    },
    async stop() {
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
      cluster.stop();
    },
  };
}
