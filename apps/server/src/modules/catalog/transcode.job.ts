import { randomBytes, randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { PermanentJobError, type JobHandler } from '../../jobs/job-runner';
import type { MediaStore } from '../../storage/media-store';
import {
  encodeFlacMaster,
  encodeMp3,
  isLosslessCodec,
  MediaError,
  probeAudio,
  transcodeToEncryptedHls,
  type FfmpegTools,
} from '../media';
import { enqueueMp3, enqueuePreview, type RenditionJobDeps } from './rendition.jobs';
import { renditionFolder, type RenditionRepository } from './rendition.repository';
import type { SongRepository } from './song.repository';

/** Durable job that turns an uploaded original into encrypted HLS; payload `{ songId, sourceKey }`. */
export const TRANSCODE_JOB = 'transcode-song';
export const TRANSCODE_MAX_ATTEMPTS = 3;

const Payload = z.object({
  songId: z.string().uuid(),
  sourceKey: z.string().min(1),
  /** The demo seed asks for the fast AAC coder (about 3x faster) so a fresh start stays under 90 s. */
  encoder: z.enum(['quality', 'fast']).default('quality'),
});

/** Media failures that another attempt cannot fix: the upload itself is at fault. */
const PERMANENT_MEDIA_ERRORS = new Set(['UNDECODABLE_AUDIO', 'NO_AUDIO_STREAM', 'INPUT_NOT_FOUND']);

export interface TranscodeJobDeps {
  songs: SongRepository;
  mediaStore: MediaStore;
  ffmpeg: () => Promise<FfmpegTools>;
  /** Scratch space on the same disk as the media store. */
  tmpRoot: string;
  /** Called when a song's status changed: every instance drops its cached lists and totals. */
  onCatalogChange: () => Promise<void>;
  renditions: RenditionRepository;
  jobs: RenditionJobDeps['jobs'];
}

/** Download files kept beside the stream: the lossless master, or the MP3 of a lossy upload. */
const MASTER_FILE = 'master.flac';
const MP3_FILE = 'download.mp3';

/**
 * A file whose header promises more audio than could be decoded was cut short (an interrupted upload or copy).
 * ffmpeg decodes such files "successfully" up to the cut, so the check is ours.
 */
export function assertComplete(declaredSec: number, decodedSec: number) {
  if (declaredSec > 0 && decodedSec < declaredSec * 0.9 && declaredSec - decodedSec > 1) {
    throw new MediaError(
      'UNDECODABLE_AUDIO',
      `The file is incomplete: only ${decodedSec.toFixed(1)} s of its ${declaredSec.toFixed(1)} s could be decoded`,
    );
  }
}

export function transcodeSongHandler(deps: TranscodeJobDeps): JobHandler {
  return async (rawPayload, job) => {
    const parsed = Payload.safeParse(rawPayload);
    if (!parsed.success) throw new PermanentJobError('Invalid transcode payload');
    const { songId, sourceKey, encoder } = parsed.data;
    const song = await deps.songs.findById(songId);
    // Deleted, or superseded by a newer upload: nothing to do.
    if (!song || song.sourceKey !== sourceKey || song.status !== 'processing') return;

    const hlsPrefix = `songs/${songId}/${randomBytes(8).toString('hex')}`;
    const workDir = path.join(deps.tmpRoot, `transcode-${randomUUID()}`);
    try {
      const tools = await deps.ffmpeg();
      const input = deps.mediaStore.localPath(sourceKey);
      const declared = await probeAudio(tools, input);
      if (!declared.hasAudio) throw new MediaError('NO_AUDIO_STREAM', 'The file contains no audio track');
      const result = await transcodeToEncryptedHls(tools, { input, outDir: workDir, encoder });
      assertComplete(declared.durationSec, result.durationSec);
      // The original is deleted below, so what downloads need of it is made now: a lossless upload is kept as
      // FLAC (its MP3 can be made from that later); a lossy one gets its MP3 from the original, not the stream.
      const lossless = isLosslessCodec(declared.codec);
      const download = lossless ? MASTER_FILE : MP3_FILE;
      if (lossless) await encodeFlacMaster(tools, { input, outFile: path.join(workDir, MASTER_FILE) });
      else await encodeMp3(tools, { input, outFile: path.join(workDir, MP3_FILE) });
      await deps.mediaStore.put(hlsPrefix, workDir);
      const applied = await deps.songs.finishProcessing(songId, sourceKey, {
        status: 'ready',
        durationSec: result.durationSec,
        hlsPrefix,
      });
      await deps.onCatalogChange();
      if (!applied) {
        await deps.mediaStore.removePrefix(hlsPrefix);
        return;
      }
      await deps.renditions.record({
        songId,
        kind: lossless ? 'flac' : 'mp3',
        hlsPrefix,
        mediaKey: `${hlsPrefix}/${download}`,
        startSec: 0,
        durationSec: result.durationSec,
      });
      await enqueuePreview(deps, songId, encoder);
      // Real uploads get their MP3 right away; the demo seed leaves it to the first download.
      if (lossless && encoder === 'quality') await enqueueMp3(deps, songId);
      // The original and any earlier version (with the previews and downloads made from it) are no longer needed.
      await deps.mediaStore.removePrefix(sourceKey);
      if (song.hlsPrefix) await deps.mediaStore.removePrefix(song.hlsPrefix);
      for (const stale of await deps.renditions.deleteStale(songId, hlsPrefix)) {
        const folder = renditionFolder(stale);
        if (folder) await deps.mediaStore.removePrefix(folder);
      }
    } catch (error) {
      const permanent =
        error instanceof PermanentJobError ||
        (error instanceof MediaError && PERMANENT_MEDIA_ERRORS.has(error.code));
      const message = error instanceof Error ? error.message : String(error);
      if (permanent || job.attempts >= TRANSCODE_MAX_ATTEMPTS) {
        await deps.songs.finishProcessing(songId, sourceKey, {
          status: 'failed',
          failureReason: permanent ? message : `Processing failed: ${message}`,
        });
      }
      throw permanent ? new PermanentJobError(message) : error;
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
  };
}
