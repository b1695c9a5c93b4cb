import { readFileSync, readlinkSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { currentProcess, formatIdentity, parseIdentity, processState } from '../platform/process-identity';

/**
 * Scratch folders under `DATA_DIR/tmp` (uploads while they stream in, transcodes while ffmpeg writes). Each one
 * names the process that made it (`.owner`); a process killed with SIGKILL cannot remove its own, so the next
 * start (and the periodic clean-up) removes the folders of owners that are gone, and stops a child program that
 * outlived its owner (`child.pid`).
 */
const OWNER_FILE = '.owner';
export const CHILD_PID_FILE = 'child.pid';

/** A folder without a readable owner (its creator died between the two steps, or an older version made it). */
const UNOWNED_MAX_AGE_MS = 60 * 60 * 1000;
/** A folder of a process on another machine (a shared DATA_DIR): it cannot be seen, so only age decides. */
const FOREIGN_MAX_AGE_MS = 24 * 60 * 60 * 1000;

export async function createScratchDir(tmpRoot: string, kind: string): Promise<string> {
  await mkdir(tmpRoot, { recursive: true });
  const dir = await mkdtemp(path.join(tmpRoot, `${kind}-`));
  try {
    await writeFile(path.join(dir, OWNER_FILE), formatIdentity(currentProcess()), { mode: 0o600 });
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return dir;
}

/** The child recorded in `dir`, killed if it still runs inside that folder (its working directory proves it). */
function killLeftoverChild(dir: string): number | null {
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(dir, CHILD_PID_FILE), 'utf8').trim());
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    const cwd = readlinkSync(`/proc/${pid}/cwd`);
    if (cwd !== dir && !cwd.startsWith(dir + path.sep)) return null; // the pid now belongs to someone else
    process.kill(pid, 'SIGKILL');
    return pid;
  } catch {
    return null; // gone already, or no /proc to prove it is ours
  }
}

export interface ScratchSweep {
  removed: string[];
  killed: number[];
}

/** Removes the scratch folders whose owner is gone; returns what it removed and which leftover children it killed. */
export async function sweepScratchSpace(tmpRoot: string, now = Date.now()): Promise<ScratchSweep> {
  const result: ScratchSweep = { removed: [], killed: [] };
  let names: string[];
  try {
    names = await readdir(tmpRoot);
  } catch {
    return result; // nothing was ever written
  }
  for (const name of names) {
    const dir = path.join(tmpRoot, name);
    const info = await stat(dir).catch(() => null);
    if (!info) continue;
    const age = now - info.mtimeMs;
    const owner = info.isDirectory()
      ? parseIdentity(await readFile(path.join(dir, OWNER_FILE), 'utf8').catch(() => null))
      : null;
    const state = owner ? processState(owner) : null;
    const gone =
      state === 'dead' ||
      (state === 'unknown' && age > FOREIGN_MAX_AGE_MS) ||
      (state === null && age > UNOWNED_MAX_AGE_MS);
    if (!gone) continue;
    if (info.isDirectory()) {
      const killed = killLeftoverChild(dir);
      if (killed) result.killed.push(killed);
    }
    await rm(dir, { recursive: true, force: true });
    result.removed.push(name);
  }
  return result;
}
