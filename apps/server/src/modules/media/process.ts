import { spawn } from 'node:child_process';
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
    const child = spawn(bin, args, {
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
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
