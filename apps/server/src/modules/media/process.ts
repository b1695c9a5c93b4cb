import { spawn, spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { MediaError } from './errors';

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  timeoutMs?: number;
  cwd?: string;
  /** Receives stdout as it arrives instead of it being kept (then `stdout` in the result is empty). */
  onStdout?: (chunk: Buffer) => void;
  /**
   * Writes the child's pid here once it runs, so that whoever clears up after a killed server can stop a child
   * that outlived it (where the parent-death signal below is not available).
   */
  pidFile?: string;
}

let setprivPath: string | null | undefined;

/**
 * util-linux's `setpriv --pdeathsig KILL`, where it exists (Linux; util-linux is essential on Debian): it asks the
 * kernel to kill the child when the server dies, even by SIGKILL, then runs the program in its place. Node has no
 * PR_SET_PDEATHSIG of its own, and an ffmpeg left behind would keep a core busy for minutes on a dead job.
 */
function parentDeathWrapper(): string | null {
  if (setprivPath !== undefined) return setprivPath;
  setprivPath = null;
  if (process.platform !== 'linux') return null;
  for (const candidate of ['/usr/bin/setpriv', '/bin/setpriv']) {
    const probe = spawnSync(candidate, ['--pdeathsig', 'KILL', '--', 'true'], { stdio: 'ignore' });
    if (probe.status === 0) {
      setprivPath = candidate;
      break;
    }
  }
  return setprivPath;
}

/** The command line that runs `bin` so that it dies with this process where the system allows it. */
export function tiedToParent(bin: string, args: readonly string[]): [string, string[]] {
  const setpriv = parentDeathWrapper();
  return setpriv ? [setpriv, ['--pdeathsig', 'KILL', '--', bin, ...args]] : [bin, [...args]];
}

const DEFAULT_TIMEOUT_MS = 10 * 60_000;
// ffmpeg can log a line per packet when something is wrong; only the tail matters for error messages.
const STDERR_KEEP_CHARS = 64 * 1024;

/**
 * Runs a program without a shell (arguments are never interpreted) and resolves with its exit code and output,
 * whatever the exit code. Rejects only when the program cannot start or exceeds the timeout.
 */
export function runProcess(
  bin: string,
  args: readonly string[],
  options: RunOptions = {},
): Promise<ProcessResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    // stdin ignored: ffmpeg otherwise reads the terminal for interactive commands and can stall in the background.
    const [command, commandArgs] = tiedToParent(bin, args);
    const child = spawn(command, commandArgs, {
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    // setpriv execs the program in its own place: the pid is the program's.
    if (options.pidFile && child.pid)
      void writeFile(options.pidFile, String(child.pid)).catch(() => undefined);
    const stdout: Buffer[] = [];
    let stderr = '';
    let timedOut = false;

    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);

    const { onStdout } = options;
    child.stdout.on('data', (chunk: Buffer) => (onStdout ? onStdout(chunk) : stdout.push(chunk)));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
      if (stderr.length > STDERR_KEEP_CHARS * 2) stderr = stderr.slice(-STDERR_KEEP_CHARS);
    });

    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      const code = error.code === 'ENOENT' || error.code === 'EACCES' ? 'FFMPEG_NOT_FOUND' : 'FFMPEG_FAILED';
      reject(
        new MediaError(code, `Could not start ${path.basename(bin)}: ${error.message}`, { cause: error }),
      );
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (timedOut) {
        reject(
          new MediaError(
            'FFMPEG_TIMEOUT',
            `${path.basename(bin)} took longer than ${Math.round(timeoutMs / 1000)} s and was stopped`,
          ),
        );
        return;
      }
      // The wrapper could not run the program (126: not executable, 127: not found): as if spawn had failed.
      if (command !== bin && (code === 126 || code === 127) && stderr.startsWith('setpriv:')) {
        reject(new MediaError('FFMPEG_NOT_FOUND', `Could not start ${path.basename(bin)}: ${stderr.trim()}`));
        return;
      }
      resolve({ code, stdout: Buffer.concat(stdout).toString('utf8'), stderr });
    });
  });
}

/** The last few meaningful stderr lines, without ffmpeg's `[mp3 @ 0x55...]` context prefixes. */
export function lastStderrLines(stderr: string, count = 5): string[] {
  return stderr
    .split(/\r?\n|\r/)
    .map((line) => line.replace(/^\[[^\]]+ @ 0x[0-9a-f]+\]\s*/i, '').trim())
    .filter((line) => line.length > 0 && !line.startsWith('size=') && !line.startsWith('frame='))
    .slice(-count);
}
