import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** A mkdir lock (atomic on every file system), freed when its owner process is gone. */
export async function withLock(lockDir: string, work: () => Promise<void>) {
  const owner = path.join(lockDir, 'owner');
  const deadline = Date.now() + 15 * 60 * 1000;
  let announced = false;
  // The lock's parent (e2e/.cache) does not exist in a fresh clone.
  mkdirSync(path.dirname(lockDir), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(owner, String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (lockIsStale(lockDir, owner)) {
      rmSync(lockDir, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${lockDir}`);
    if (!announced) console.log(`[e2e] waiting for another run (${path.basename(lockDir)})`);
    announced = true;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  try {
    await work();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

function lockIsStale(lockDir: string, owner: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(owner, 'utf8'));
  } catch {
    // Just created and not yet written, or left behind empty by a crash: judge by age.
    try {
      return Date.now() - statSync(lockDir).mtimeMs > 60_000;
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
