import {
  chmodSync,
  closeSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { processStartTime } from '../platform/process-identity';

/**
 * The embedded database's directory: private to the server's account, and open in one process at a time (two
 * PGlite instances writing the same files corrupt them; PGlite itself does not lock).
 */

const LOCK_FILE = 'backbeat.lock';

export class DataDirInUseError extends Error {}

/** Lock files this process holds, so a second open in the same process is refused too. */
const heldLocks = new Set<string>();
let exitHookInstalled = false;

/** Creates the directory owner-only (0700), tightening an existing one. */
export function preparePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/**
 * Takes the group and world bits off everything under `dir`. PGlite creates its files 0666 whatever the umask; the
 * 0700 directory already shuts others out, this keeps copies and backups of the files private too.
 */
export function restrictTree(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    const mode = lstatSync(full).mode & 0o777;
    if (mode & 0o077) chmodSync(full, mode & 0o700);
    if (entry.isDirectory()) restrictTree(full);
  }
}

interface LockHolder {
  pid: number;
  /** The holder's start time (Linux /proc), to tell a live holder from a new process that reused its pid. */
  started: string | null;
}

function readHolder(file: string): LockHolder | null {
  try {
    const holder = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockHolder>;
    if (typeof holder.pid !== 'number' || !Number.isInteger(holder.pid) || holder.pid <= 0) return null;
    return { pid: holder.pid, started: typeof holder.started === 'string' ? holder.started : null };
  } catch {
    return null; // Unreadable or half-written by a process that died: stale.
  }
}

function holderIsAlive(holder: LockHolder, file: string): boolean {
  // Our own pid: held only if this process took it (a restarted container often gets the same pid again).
  if (holder.pid === process.pid) return heldLocks.has(file);
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false; // ESRCH: no such process.
  }
  const started = processStartTime(holder.pid);
  return !(holder.started && started && holder.started !== started);
}

function inUse(dir: string, holder: LockHolder): DataDirInUseError {
  return new DataDirInUseError(
    `The database directory ${dir} is already open in another Backbeat process (pid ${holder.pid}); ` +
      'stop that process first (one process per PGlite directory; use DATABASE_URL to run several)',
  );
}

/**
 * Takes the directory's lock file (`backbeat.lock`, holding the pid) or throws DataDirInUseError naming the
 * directory. A lock left by a process that is gone (killed, crashed) is taken over. Returns the release function.
 */
export function lockDataDir(dir: string): () => void {
  const file = path.join(dir, LOCK_FILE);
  const me: LockHolder = { pid: process.pid, started: processStartTime(process.pid) };
  for (let attempt = 0; attempt < 3; attempt++) {
    // Written aside and hard-linked into place: the lock appears atomically, complete, or not at all.
    const draft = `${file}.${process.pid}.${attempt}`;
    const fd = openSync(draft, 'w', 0o600);
    try {
      writeSync(fd, JSON.stringify(me));
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(draft, file);
      heldLocks.add(file);
      installExitHook();
      return () => releaseLock(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      rmSync(draft, { force: true });
    }
    const holder = readHolder(file);
    if (holder && holderIsAlive(holder, file)) throw inUse(dir, holder);
    // Stale: the holder is gone. (Two processes taking over the same stale lock at the same instant is not guarded.)
    rmSync(file, { force: true });
  }
  throw inUse(dir, readHolder(file) ?? { pid: 0, started: null });
}

function releaseLock(file: string): void {
  if (!heldLocks.delete(file)) return;
  if (readHolder(file)?.pid === process.pid) rmSync(file, { force: true });
}

/** A process that exits without closing the database (process.exit) leaves no lock behind. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const file of [...heldLocks]) releaseLock(file);
  });
}
