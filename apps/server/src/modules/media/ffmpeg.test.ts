import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { MediaError } from './errors';
import { FfmpegExitError, locateFfmpeg, runFfmpeg } from './ffmpeg';

function bundledPackageInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve('@ffmpeg-installer/ffmpeg');
    return true;
  } catch {
    return false;
  }
}

describe('locateFfmpeg', () => {
  it('uses the configured path and finds ffprobe beside it', async () => {
    expect(await locateFfmpeg('/usr/bin/ffmpeg')).toEqual({
      ffmpeg: '/usr/bin/ffmpeg',
      ffprobe: '/usr/bin/ffprobe',
      source: 'config',
    });
  });

  it('refuses a configured path that does not exist instead of silently using another ffmpeg', async () => {
    await expect(locateFfmpeg('/nowhere/ffmpeg')).rejects.toThrow(
      /FFMPEG_PATH is set to "\/nowhere\/ffmpeg"/,
    );
  });

  it('falls back to ffmpeg on the PATH', async () => {
    expect(await locateFfmpeg(undefined, '/nowhere:/usr/bin')).toEqual({
      ffmpeg: '/usr/bin/ffmpeg',
      ffprobe: '/usr/bin/ffprobe',
      source: 'path',
    });
  });

  it('falls back to the optional npm package, which has no ffprobe, or explains how to install ffmpeg', async () => {
    const located = locateFfmpeg(undefined, '/nowhere');
    if (bundledPackageInstalled()) {
      await expect(located).resolves.toMatchObject({ ffprobe: null, source: 'bundled' });
    } else {
      await expect(located).rejects.toThrow(/ffmpeg was not found: set FFMPEG_PATH/);
    }
  });
});

describe('runFfmpeg', () => {
  it('resolves with the output of a successful run', async () => {
    const { stdout } = await runFfmpeg('/usr/bin/ffmpeg', ['-hide_banner', '-version']);
    expect(stdout).toMatch(/^ffmpeg version/);
  });

  it('rejects with the last stderr lines when ffmpeg fails', async () => {
    const failure = runFfmpeg('/usr/bin/ffmpeg', [
      '-hide_banner',
      '-nostdin',
      '-i',
      '/nowhere/in.wav',
      '-f',
      'null',
      '-',
    ]);
    await expect(failure).rejects.toBeInstanceOf(FfmpegExitError);
    await expect(failure).rejects.toThrow(/exited with code 1:\n.*No such file or directory/);
  });

  it('kills a run that exceeds its timeout', async () => {
    const endless = ['-hide_banner', '-nostdin', '-re', '-f', 'lavfi', '-i', 'anullsrc', '-f', 'null', '-'];
    const failure = runFfmpeg('/usr/bin/ffmpeg', endless, { timeoutMs: 300 });
    await expect(failure).rejects.toMatchObject({ code: 'FFMPEG_TIMEOUT' });
  });

  it('reports a missing binary as FFMPEG_NOT_FOUND', async () => {
    const failure = runFfmpeg('/nowhere/ffmpeg', ['-version']);
    await expect(failure).rejects.toBeInstanceOf(MediaError);
    await expect(failure).rejects.toMatchObject({ code: 'FFMPEG_NOT_FOUND' });
  });
});
