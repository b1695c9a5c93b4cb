import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, sql } from '../src/db/client';

/** The embedded database's directory: owner-only, and open in one process at a time. */
const root = mkdtempSync(path.join(tmpdir(), 'backbeat-pglite-dir-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const CHILD = path.join(import.meta.dirname, 'pglite-open.child.ts');
const WRITER = path.join(import.meta.dirname, 'pglite-writer.child.ts');

/** Starts a process opening `dir`; resolves once it holds the database, or with its exit and stderr. */
function openInChild(dir: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dir], {
    cwd: path.join(import.meta.dirname, '..'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const outcome = new Promise<{ open: true } | { open: false; code: number | null; stderr: string }>(
    (resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('open')) resolve({ open: true });
      });
      child.on('exit', (code) => resolve({ open: false, code, stderr }));
    },
  );
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return { child, outcome, exited };
}

/** Every path under `dir` whose mode lets the group or others in. */
function openToOthers(dir: string): string[] {
  const found: string[] = [];
  const walk = (current: string) => {
    if (statSync(current).mode & 0o077) found.push(current);
    if (statSync(current).isDirectory())
      for (const name of readdirSync(current)) walk(path.join(current, name));
  };
  walk(dir);
  return found;
}

describe('PGlite data directory', () => {
  it('is created owner-only (0700), with no file readable by the group or others', async () => {
    const dir = path.join(root, 'private', 'db');
    const database = await openDatabase({ kind: 'pglite', dataDir: dir });
    try {
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect(openToOthers(dir)).toEqual([]);
    } finally {
      await database.close();
    }
  }, 60_000);

  it('refuses a second process with one line naming the directory; the holder keeps working', async () => {
    const dir = path.join(root, 'shared');
    const holder = await openDatabase({ kind: 'pglite', dataDir: dir });
    try {
      const { outcome } = openInChild(dir);
      const result = await outcome;
      expect(result).toMatchObject({ open: false, code: 1 });
      const stderr = (result as { stderr: string }).stderr;
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stderr).toContain(`The database directory ${dir} is already open in another Backbeat process`);
      expect(stderr).toContain(`(pid ${process.pid})`);
      // A second open inside the same process is refused as well.
      await expect(openDatabase({ kind: 'pglite', dataDir: dir })).rejects.toThrow(/already open/);
      expect(await holder.query(sql`select 1 as one`)).toEqual([{ one: 1 }]);
    } finally {
      await holder.close();
    }
    // Closed: the directory is free again.
    const again = await openDatabase({ kind: 'pglite', dataDir: dir });
    await again.close();
  }, 60_000);

  it('is free again after its holder is killed (SIGKILL leaves a stale lock that does not block a restart)', async () => {
    const dir = path.join(root, 'killed');
    const { child, outcome, exited } = openInChild(dir);
    expect(await outcome).toEqual({ open: true });
    await expect(openDatabase({ kind: 'pglite', dataDir: dir })).rejects.toThrow(
      `The database directory ${dir} is already open in another Backbeat process (pid ${child.pid})`,
    );
    child.kill('SIGKILL');
    await exited;
    const reopened = await openDatabase({ kind: 'pglite', dataDir: dir });
    try {
      expect(await reopened.query(sql`select 1 as one`)).toEqual([{ one: 1 }]);
    } finally {
      await reopened.close();
    }
  }, 60_000);

  it('keeps every write it acknowledged when its process is killed mid-stream (SIGKILL), and opens again', async () => {
    const dir = path.join(root, 'acknowledged');
    const writer = spawn(process.execPath, ['--import', 'tsx', WRITER, dir], {
      cwd: path.join(import.meta.dirname, '..'),
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    writer.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const acknowledged: number[] = [];
    const exited = new Promise<void>((resolve) => writer.on('exit', () => resolve()));
    await new Promise<void>((resolve, reject) => {
      writer.on('message', (message: { n: number }) => {
        acknowledged.push(message.n);
        // Killed while it writes: the next insert is already under way when the signal lands.
        if (acknowledged.length === 400) {
          writer.kill('SIGKILL');
          resolve();
        }
      });
      writer.on('exit', (code) => {
        if (acknowledged.length < 400) reject(new Error(`the writer exited (${code}) early: ${stderr}`));
      });
    });
    await exited;
    expect(writer.signalCode).toBe('SIGKILL');

    const reopened = await openDatabase({ kind: 'pglite', dataDir: dir });
    try {
      const rows = await reopened.query<{ n: number; note: string }>(
        sql`select n, note from acked order by n`,
      );
      const stored = new Set(rows.map((row) => row.n));
      expect(acknowledged.filter((n) => !stored.has(n))).toEqual([]);
      // Nothing torn either: every row numbered in sequence, each batch with both of its writes.
      expect(rows.map((row) => row.n)).toEqual(rows.map((_, index) => index + 1));
      const batches = rows.filter((row) => row.note === 'batch');
      expect(batches.length).toBeGreaterThan(0);
      for (const batch of batches) expect(rows[batch.n - 2]!.note.endsWith('+')).toBe(true);
    } finally {
      await reopened.close();
    }
  }, 120_000);
});
