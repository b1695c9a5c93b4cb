import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { locateFfmpeg, transcodeToEncryptedHls } from '../src/modules/media';
import type { MediaStore } from '../src/storage/media-store';

const run = promisify(execFile);

/** Real media: an 8 s stereo sine, transcoded by the media module into encrypted HLS + audio.m4a. */
export interface TranscodedMedia {
  ffmpeg: string;
  dir: string;
  durationSec: number;
  segmentCount: number;
  /** Copies the transcoded files into the store under `prefix`. */
  install(store: MediaStore, prefix: string): Promise<void>;
  cleanup(): Promise<void>;
}

export async function transcodeTestSong(seconds = 8): Promise<TranscodedMedia> {
  const tools = await locateFfmpeg();
  const work = await mkdtemp(path.join(tmpdir(), 'backbeat-stream-'));
  const wav = path.join(work, 'sine.wav');
  await run(tools.ffmpeg, [
    ...['-hide_banner', '-nostdin', '-v', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`, '-ac', '2', wav],
  ]);
  const dir = path.join(work, 'hls');
  const result = await transcodeToEncryptedHls(tools, { input: wav, outDir: dir, encoder: 'fast' });
  return {
    ffmpeg: tools.ffmpeg,
    dir,
    durationSec: result.durationSec,
    segmentCount: result.segmentCount,
    install: (store, prefix) => store.put(prefix, dir),
    cleanup: () => rm(work, { recursive: true, force: true }),
  };
}
