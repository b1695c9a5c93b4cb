import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { openDatabase } from '../src/db/client';
import { locateFfmpeg, type FfmpegTools } from '../src/modules/media';
import { catalogFixtures } from './catalog-fixtures';
import { findPostgresBinaries } from './postgres-cluster';
import { startApi, type ApiProcess } from './server-processes';

/**
 * The backup and restore of docs/deploy.md, run once for real: a song is uploaded and transcoded, `pg_dump -Fc`
 * runs while the server is up and the media root is archived after it; then the database and the media root are
 * wiped, restored (`pg_restore` into a new, empty database, the archive unpacked) and a new server started on
 * them: the song's playlist, key and segments decode to the end through HTTP. PostgreSQL tier only.
 */
const run = promisify(execFile);
let adminUrl: string;
let dbName: string;
let dbUrl: string;
let dataDir: string;
let work: string;
let bin: string;
let tools: FfmpegTools;
let server: ApiProcess | null = null;

async function admin(statement: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  const testDb = inject('testDb');
  if (testDb.kind !== 'postgres')
    throw new Error('backup-restore.pg.test.ts runs in the PostgreSQL tier only');
  adminUrl = testDb.adminUrl;
  bin = findPostgresBinaries()!;
  dbName = `backup_${randomBytes(5).toString('hex')}`;
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  dbUrl = url.toString();
  await admin(`CREATE DATABASE ${dbName}`);
  dataDir = mkdtempSync(path.join(tmpdir(), 'backbeat-backup-data-'));
  work = mkdtempSync(path.join(tmpdir(), 'backbeat-backup-'));
  tools = await locateFfmpeg();
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

/** Decodes the song through the server's playlist and key over HTTP; returns the seconds ffmpeg reached. */
async function decodedSeconds(base: string, songId: string, headers: Record<string, string>) {
  const res = await fetch(`${base}/api/stream/song/${songId}`, { headers });
  expect(res.status).toBe(200);
  const { url } = (await res.json()) as { url: string };
  const { stderr } = await run(
    tools.ffmpeg,
    ['-hide_banner', '-nostdin', '-i', `${base}${url}`, '-f', 'null', '-'],
    {
      timeout: 60_000,
    },
  );
  expect(stderr).not.toMatch(/error|Unable to open key/i);
  const times = [...stderr.matchAll(/time=(\d+):(\d+):([\d.]+)/g)].map(
    ([, h, m, s]) => Number(h) * 3600 + Number(m) * 60 + Number(s),
  );
  return times.at(-1) ?? 0;
}

it('dump, wipe, restore: the song plays from the restored database and media root', async () => {
  const env = { DATABASE_URL: dbUrl, DATA_DIR: dataDir };
  server = await startApi(env);
  const database = await openDatabase({ kind: 'postgres', url: dbUrl, max: 1 });
  const f = catalogFixtures(database);
  const owner = await f.user('admin');
  const artist = await f.artist({ name: 'Cold Storage' });
  await database.close();

  const wav = path.join(work, 'tone.wav');
  await run(tools.ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=523:duration=5', wav]);
  const form = new FormData();
  form.append('title', 'Kept Safe');
  form.append('artist', artist.id);
  form.append('audio', new Blob([new Uint8Array(readFileSync(wav))]), 'tone.wav');
  const uploaded = await fetch(`${server.baseUrl}/api/songs`, {
    method: 'POST',
    headers: owner.headers,
    body: form,
  });
  expect(uploaded.status).toBe(201);
  const songId = ((await uploaded.json()) as { song: { _id: string } }).song._id;
  await expect
    .poll(
      async () =>
        (
          (await (
            await fetch(`${server!.baseUrl}/api/songs/${songId}/status`, { headers: owner.headers })
          ).json()) as { status: string }
        ).status,
      { timeout: 60_000, interval: 200 },
    )
    .toBe('ready');
  expect(await decodedSeconds(server.baseUrl, songId, owner.headers)).toBeGreaterThan(4.5);

  // Backup, while the server runs: the database first, then the media root (docs/deploy.md, "Backups").
  const dump = path.join(work, 'backbeat.dump');
  const media = path.join(work, 'media.tar');
  await run(path.join(bin, 'pg_dump'), ['--format=custom', `--file=${dump}`, dbUrl]);
  await run('tar', ['-C', dataDir, '-cf', media, 'media']);
  await server.stop();
  server = null;

  // Lose everything.
  await admin(`DROP DATABASE ${dbName} WITH (FORCE)`);
  rmSync(path.join(dataDir, 'media'), { recursive: true, force: true });
  expect(existsSync(path.join(dataDir, 'media'))).toBe(false);

  // Restore into a new, empty database and unpack the media root (docs/deploy.md, "Restore").
  await admin(`CREATE DATABASE ${dbName}`);
  await run(path.join(bin, 'pg_restore'), ['--no-owner', '--exit-on-error', `--dbname=${dbUrl}`, dump]);
  await run('tar', ['-C', dataDir, '-xf', media]);

  server = await startApi(env);
  // The session, the song and its files all came back: it decodes to the end again.
  expect(await decodedSeconds(server.baseUrl, songId, owner.headers)).toBeGreaterThan(4.5);
  const listed = (await (await fetch(`${server.baseUrl}/api/songs`)).json()) as {
    songs: Array<{ _id: string }>;
  };
  expect(listed.songs.map((song) => song._id)).toEqual([songId]);
}, 180_000);
