/** Helpers for this module's tests (not part of the public API). */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { runFfmpeg } from './ffmpeg';
import { lastStderrLines, runProcess } from './process';

/**
 * A fresh folder under the OS temp dir, removed after the test file. Call at the top level of the file: hooks
 * registered from inside another hook are never run.
 */
export function useTempDir(prefix: string): () => string {
  let dir: string | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), `backbeat-media-${prefix}-`));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  return () => {
    if (!dir) throw new Error('The temp dir exists only while the tests run');
    return dir;
  };
}

/** Runs a short ffmpeg command line (quiet, overwrite). */
export function ffmpegQuiet(ffmpeg: string, args: string[]): Promise<unknown> {
  return runFfmpeg(ffmpeg, ['-hide_banner', '-nostdin', '-v', 'error', '-y', ...args], { timeoutMs: 30_000 });
}

/** Mean volume in dB from ffmpeg's volumedetect filter (-91 means digital silence). */
export async function meanVolumeDb(ffmpeg: string, file: string): Promise<number> {
  const { stderr } = await runProcess(ffmpeg, [
    '-hide_banner',
    '-nostdin',
    '-i',
    file,
    '-af',
    'volumedetect',
    '-f',
    'null',
    '-',
  ]);
  const match = /mean_volume:\s*(-?[\d.]+) dB/.exec(stderr);
  if (!match) throw new Error(`volumedetect printed no mean volume: ${lastStderrLines(stderr).join(' ')}`);
  return Number(match[1]);
}
