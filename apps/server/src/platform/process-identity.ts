import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * Who holds something (a job's lease, a scratch folder): a process on a machine. Several processes share a job
 * table and a DATA_DIR, and any of them may be killed with SIGKILL; the survivors, or the next start, decide from
 * this whether the holder is gone and its work can be taken over at once instead of after a timeout.
 */
export interface ProcessIdentity {
  /**
   * The machine as the process sees it: hostname plus, on Linux, the kernel's boot id and the pid namespace, so
   * that two containers that happen to share a hostname (or a machine that rebooted) are never taken for one.
   */
  machine: string;
  pid: number;
  /** Start time in clock ticks since boot (Linux /proc), telling a live holder from a process that reused its pid. */
  started: string | null;
}

/** A process's start time in clock ticks since boot (Linux); null where /proc is not available. */
export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22; the command name (field 2) may hold spaces and parentheses, so count from its closing parenthesis.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function readOrNull(read: () => string): string | null {
  try {
    return read().trim();
  } catch {
    return null;
  }
}

let machine: string | null = null;

function currentMachine(): string {
  machine ??= [
    hostname(),
    readOrNull(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8')),
    readOrNull(() => readlinkSync('/proc/self/ns/pid')),
  ]
    .filter(Boolean)
    .join('/');
  return machine;
}

export function currentProcess(): ProcessIdentity {
  return { machine: currentMachine(), pid: process.pid, started: processStartTime(process.pid) };
}

/**
 * Whether the process is still running: `dead` only when that is certain (same machine, and the pid is gone or
 * now belongs to a process that started later); `unknown` for another machine, whose processes cannot be seen.
 */
export function processState(holder: ProcessIdentity): 'alive' | 'dead' | 'unknown' {
  if (holder.machine !== currentMachine()) return 'unknown';
  if (holder.pid === process.pid) {
    const started = processStartTime(process.pid);
    return holder.started && started && holder.started !== started ? 'dead' : 'alive';
  }
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return 'dead'; // ESRCH: no such process.
  }
  const started = processStartTime(holder.pid);
  return holder.started && started && holder.started !== started ? 'dead' : 'alive';
}

/** A compact, parseable form for a text column or a file. */
export function formatIdentity(identity: ProcessIdentity): string {
  return JSON.stringify(identity);
}

export function parseIdentity(text: string | null | undefined): ProcessIdentity | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<ProcessIdentity>;
    if (typeof value.machine !== 'string' || !Number.isInteger(value.pid) || (value.pid ?? 0) <= 0)
      return null;
    return {
      machine: value.machine,
      pid: value.pid!,
      started: typeof value.started === 'string' ? value.started : null,
    };
  } catch {
    return null;
  }
}
