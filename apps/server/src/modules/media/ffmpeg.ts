import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';
import { MediaError } from './errors';
import { lastStderrLines, runProcess, type RunOptions } from './process';

export type FfmpegSource = 'config' | 'path' | 'bundled';

export interface FfmpegTools {
  ffmpeg: string;
  /** Null when only ffmpeg is available (the npm package ships no ffprobe); probing then parses `ffmpeg -i`. */
  ffprobe: string | null;
  source: FfmpegSource;
}

const exeSuffix = process.platform === 'win32' ? '.exe' : '';

async function isExecutableFile(file: string): Promise<boolean> {
  try {
    const info = await stat(file);
    if (!info.isFile()) return false;
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function findOnPath(command: string, searchPath: string): Promise<string | null> {
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, command + exeSuffix);
    if (await isExecutableFile(candidate)) return candidate;
  }
  return null;
}

/** ffprobe from the same build, i.e. in the same folder (`ffmpeg-6` -> `ffprobe-6`). */
async function ffprobeBeside(ffmpegFile: string): Promise<string | null> {
  const name = path.basename(ffmpegFile);
  const probeName = /ffmpeg/i.test(name) ? name.replace(/ffmpeg/i, 'ffprobe') : 'ffprobe' + exeSuffix;
  const candidate = path.join(path.dirname(ffmpegFile), probeName);
  return (await isExecutableFile(candidate)) ? candidate : null;
}

async function bundledFfmpeg(): Promise<string | null> {
  try {
    // Optional dependency: absent on some installs, and its index throws (a string) when the platform binary is missing.
    const installer = await import('@ffmpeg-installer/ffmpeg');
    const binary = installer.default.path;
    return (await isExecutableFile(binary)) ? binary : null;
  } catch {
    return null;
  }
}

/** A configured value is a path, or a bare command name looked up on the PATH. */
async function resolveConfigured(configured: string, searchPath: string): Promise<string | null> {
  if (!configured.includes('/') && !configured.includes(path.sep)) return findOnPath(configured, searchPath);
  const file = path.resolve(configured);
  return (await isExecutableFile(file)) ? file : null;
}

/**
 * Finds ffmpeg: the configured path (FFMPEG_PATH), else `ffmpeg` on the PATH, else the optional npm package.
 * A configured path that does not work is an error rather than a silent fallback, so a typo is noticed.
 * `searchPath` defaults to the process PATH; tests pass their own.
 */
export async function locateFfmpeg(
  configuredPath?: string,
  searchPath: string = process.env.PATH ?? '',
): Promise<FfmpegTools> {
  const configured = configuredPath?.trim();
  if (configured) {
    const ffmpeg = await resolveConfigured(configured, searchPath);
    if (!ffmpeg) {
      throw new MediaError(
        'FFMPEG_NOT_FOUND',
        `FFMPEG_PATH is set to "${configured}", but no executable ffmpeg was found there`,
      );
    }
    return { ffmpeg, ffprobe: await ffprobeBeside(ffmpeg), source: 'config' };
  }

  const onPath = await findOnPath('ffmpeg', searchPath);
  if (onPath) return { ffmpeg: onPath, ffprobe: await ffprobeBeside(onPath), source: 'path' };

  const bundled = await bundledFfmpeg();
  if (bundled) return { ffmpeg: bundled, ffprobe: null, source: 'bundled' };

  throw new MediaError(
    'FFMPEG_NOT_FOUND',
    'ffmpeg was not found: set FFMPEG_PATH, install ffmpeg on the PATH (e.g. `apt-get install ffmpeg`), ' +
      'or install the optional npm package @ffmpeg-installer/ffmpeg',
  );
}

/** ffmpeg or ffprobe ran and exited non-zero; `stderr` lets callers turn ffmpeg's reason into a user message. */
export class FfmpegExitError extends MediaError {
  constructor(
    message: string,
    readonly stderr: string,
  ) {
    super('FFMPEG_FAILED', message);
    this.name = 'FfmpegExitError';
  }
}

/**
 * Runs ffmpeg (or ffprobe) and resolves with its output; rejects with an FfmpegExitError whose message ends with
 * the last stderr lines when it exits non-zero.
 */
export async function runFfmpeg(
  bin: string,
  args: readonly string[],
  options: RunOptions = {},
): Promise<{ stdout: string; stderr: string }> {
  const result = await runProcess(bin, args, options);
  if (result.code !== 0) {
    const reason = lastStderrLines(result.stderr).join('\n') || 'no error output';
    throw new FfmpegExitError(
      `${path.basename(bin)} exited with code ${result.code}:\n${reason}`,
      result.stderr,
    );
  }
  return { stdout: result.stdout, stderr: result.stderr };
}
