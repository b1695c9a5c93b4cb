import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { previewWindow } from '@backbeat/contract';
import { PermanentJobError, type JobHandler } from '../../jobs/job-runner';
import type { MediaStore } from '../../storage';
import { CHILD_PID_FILE, createScratchDir } from '../../storage';
import { cutPreviewClip, encodeMp3, MediaError, transcodeToEncryptedHls, type FfmpegTools } from '../media';
import { renditionFolder, type RenditionRepository, type RenditionSong } from './rendition.repository';

/** Makes a song's preview: a separately keyed encrypted HLS of its preview window. Payload `{ songId }`. */
export const PREVIEW_JOB = 'song-preview';
/** Makes a song's MP3 download (320 kbit/s) from its lossless master, or its stream for older uploads. */
export const MP3_JOB = 'song-mp3';
/** Queues previews for ready songs that have none (songs transcoded before previews existed). */
export const PREVIEW_BACKFILL_JOB = 'preview-backfill';

export const previewJobKey = (songId: string) => `${PREVIEW_JOB}:${songId}`;
export const mp3JobKey = (songId: string) => `${MP3_JOB}:${songId}`;

const SongPayload = z.object({
  songId: z.string().uuid(),
  /** The demo seed asks for the fast AAC coder, as for its transcodes. */
  encoder: z.enum(['quality', 'fast']).default('quality'),
});

export interface RenditionJobDeps {
  renditions: RenditionRepository;
  mediaStore: MediaStore;
  ffmpeg: () => Promise<FfmpegTools>;
  tmpRoot: string;
  jobs: {
    enqueue(
      type: string,
      payload: Record<string, unknown>,
      options?: { maxAttempts?: number; dedupeKey?: string },
    ): Promise<string | null>;
  };
  /**
   * Called before a replaced rendition's files go (a preview remade from a new start): every instance drops the
   * preview prefixes it cached, so none still points at the deleted folder.
   */
  onReplaced?: () => Promise<void>;
}

/** Queues a song's preview once (a job already waiting for it is enough). */
export function enqueuePreview(deps: Pick<RenditionJobDeps, 'jobs'>, songId: string, encoder = 'quality') {
  return deps.jobs.enqueue(PREVIEW_JOB, { songId, encoder }, { dedupeKey: previewJobKey(songId) });
}

/** Queues a song's MP3 download file once. */
export function enqueueMp3(deps: Pick<RenditionJobDeps, 'jobs'>, songId: string) {
  return deps.jobs.enqueue(MP3_JOB, { songId }, { dedupeKey: mp3JobKey(songId) });
}

/**
 * The best audio a rendition can be made from: the lossless master when the upload was lossless, else the
 * stream's AAC file (the original of a lossy upload is not kept).
 */
async function bestSource(deps: RenditionJobDeps, song: RenditionSong, scratchDir: string): Promise<string> {
  const master = await deps.renditions.findCurrent(song.id, 'flac');
  const source = master?.mediaKey ?? `${song.hlsPrefix}/audio.m4a`;
  // Gone from the store (removed by hand, a restore without media): retrying cannot bring it back.
  if (!(await deps.mediaStore.stat(source)))
    throw new MediaError('INPUT_NOT_FOUND', `The song's audio is missing (${source})`);
  return deps.mediaStore.localCopy(source, scratchDir);
}

function parse(rawPayload: Record<string, unknown>) {
  const parsed = SongPayload.safeParse(rawPayload);
  if (!parsed.success) throw new PermanentJobError('Invalid rendition payload');
  return parsed.data;
}

/** Runs `work` in a scratch folder that is always removed; media failures of the input itself are permanent. */
async function inWorkDir(tmpRoot: string, work: (dir: string) => Promise<void>): Promise<void> {
  // Owned by this process, so a start after a crash (or the media clean-up) removes it and stops its ffmpeg.
  const dir = await createScratchDir(tmpRoot, 'rendition');
  try {
    await work(dir);
  } catch (error) {
    if (
      error instanceof MediaError &&
      (error.code === 'INPUT_NOT_FOUND' || error.code === 'UNDECODABLE_AUDIO')
    )
      throw new PermanentJobError(error.message);
    throw error;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Stores a finished rendition folder, records it, and deletes whatever it replaced (or itself, if stale). */
async function store(
  deps: RenditionJobDeps,
  folder: { local: string; key: string },
  record: () => ReturnType<RenditionRepository['record']>,
): Promise<void> {
  await deps.mediaStore.put(folder.key, folder.local);
  const replaced = await record();
  if (replaced === 'stale') {
    await deps.mediaStore.removePrefix(folder.key);
    return;
  }
  const old = replaced ? renditionFolder(replaced) : null;
  if (old && old !== folder.key) {
    await deps.onReplaced?.();
    await deps.mediaStore.removePrefix(old);
  }
}

export function previewHandler(deps: RenditionJobDeps): JobHandler {
  return async (rawPayload) => {
    const { songId, encoder } = parse(rawPayload);
    const song = await deps.renditions.findReadySong(songId);
    if (!song) return; // deleted, failed, or re-uploaded: its next transcode queues a new preview
    const window = previewWindow(song.durationSec, song.previewStartSec);
    if (!(window.durationSec > 0)) throw new PermanentJobError('The song is too short to preview');
    const current = await deps.renditions.findCurrent(songId, 'preview');
    if (current && current.startSec === window.startSec && current.durationSec === window.durationSec) return;

    await inWorkDir(deps.tmpRoot, async (dir) => {
      const tools = await deps.ffmpeg();
      const clip = path.join(dir, 'clip.flac');
      const pidFile = path.join(dir, CHILD_PID_FILE);
      await cutPreviewClip(tools, {
        input: await bestSource(deps, song, dir),
        outFile: clip,
        pidFile,
        ...window,
      });
      const hls = path.join(dir, 'hls');
      await transcodeToEncryptedHls(tools, { input: clip, outDir: hls, encoder, pidFile });
      // Letters and digits only, like an HLS version: nginx serves `songs/<id>/<version>/seg_NNNN.ts` alone.
      const key = `songs/${songId}/p${randomBytes(8).toString('hex')}`;
      await store(deps, { local: hls, key }, () =>
        deps.renditions.record(
          { songId, kind: 'preview', hlsPrefix: song.hlsPrefix, mediaKey: key, ...window },
          // The artist may have moved the preview while this one was made: then the job queued by that edit
          // makes the right one, and this one is dropped.
          (now) => {
            const wanted = previewWindow(now.durationSec, now.previewStartSec);
            return wanted.startSec === window.startSec && wanted.durationSec === window.durationSec;
          },
        ),
      );
    });
  };
}

export function mp3Handler(deps: RenditionJobDeps): JobHandler {
  return async (rawPayload) => {
    const { songId } = parse(rawPayload);
    const song = await deps.renditions.findReadySong(songId);
    if (!song) return;
    if (await deps.renditions.findCurrent(songId, 'mp3')) return;

    await inWorkDir(deps.tmpRoot, async (dir) => {
      const folder = path.join(dir, 'out');
      await mkdir(folder);
      await encodeMp3(await deps.ffmpeg(), {
        input: await bestSource(deps, song, dir),
        outFile: path.join(folder, 'download.mp3'),
        pidFile: path.join(dir, CHILD_PID_FILE),
      });
      const key = `songs/${songId}/m${randomBytes(8).toString('hex')}`;
      await store(deps, { local: folder, key }, () =>
        deps.renditions.record({
          songId,
          kind: 'mp3',
          hlsPrefix: song.hlsPrefix,
          mediaKey: `${key}/download.mp3`,
          startSec: 0,
          durationSec: song.durationSec,
        }),
      );
    });
  };
}

/** How many previews one backfill run queues; a catalogue bigger than this is covered by later starts. */
const BACKFILL_BATCH = 5_000;

export function previewBackfillHandler(deps: RenditionJobDeps): JobHandler {
  return async () => {
    for (const songId of await deps.renditions.listSongsWithoutPreview(BACKFILL_BATCH)) {
      await enqueuePreview(deps, songId);
    }
  };
}
