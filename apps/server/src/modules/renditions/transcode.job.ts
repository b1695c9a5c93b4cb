import { rm } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { PermanentJobError, type JobHandler, type JobTypeOptions } from '../../jobs/job-runner';
import { isStorageFull } from '../../platform/storage-full';
import type { MediaStore } from '../../storage';
import { CHILD_PID_FILE, createScratchDir } from '../../storage';
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
import type { SongMediaRepository } from './song-media.repository';

/** Durable job that turns an uploaded original into encrypted HLS; payload `{ songId, sourceKey }`. */
export const TRANSCODE_JOB = 'transcode-song';
export const TRANSCODE_MAX_ATTEMPTS = 3;

const Payload = z.object({
  songId: z.string().uuid(),
  sourceKey: z.string().min(1),
  /** The demo seed asks for the fast AAC coder (about 3x faster) so a fresh start stays under 90 s. */
  encoder: z.enum(['quality', 'fast']).default('quality'),
});

/**
 * Each attempt writes its own HLS version, `songs/<song>/<job id, hex>v<attempt>`: an attempt cut short (its worker
 * killed) leaves a partial folder that the next attempt removes once it has succeeded, and that the media clean-up
 * can tell from a live one (its job is still queued or running). Letters and digits only: the shipped nginx site
 * serves `songs/<uuid>/[0-9A-Za-z]{1,64}/seg_NNNN.ts` and nothing else.
 */
export const hlsVersionName = (jobId: string, attempt: number) => `${jobId.replaceAll('-', '')}v${attempt}`;
const HLS_VERSION = /^([0-9a-f]{8})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{12})v(\d+)$/;
export function parseHlsVersion(name: string): { jobId: string; attempt: number } | null {
  const match = HLS_VERSION.exec(name);
  return match ? { jobId: match.slice(1, 6).join('-'), attempt: Number(match[6]) } : null;
}

const STORAGE_FULL_WHILE_PROCESSING = "The server's storage is full, so the audio could not be processed";

/** Media failures that another attempt cannot fix: the upload itself is at fault. */
const PERMANENT_MEDIA_ERRORS = new Set([
  'UNDECODABLE_AUDIO',
  'NO_AUDIO_STREAM',
  'INPUT_NOT_FOUND',
  'AUDIO_TOO_LONG',
]);

export interface TranscodeJobDeps {
  songs: SongMediaRepository;
  mediaStore: MediaStore;
  ffmpeg: () => Promise<FfmpegTools>;
  /** Scratch space on the same disk as the media store. */
  tmpRoot: string;
  /** Called when a song's status changed: every instance drops its cached lists and totals. */
  onCatalogChange: () => Promise<void>;
  renditions: RenditionRepository;
  jobs: RenditionJobDeps['jobs'];
  /** Longest audio transcoded (UPLOAD_MAX_AUDIO_MINUTES): a longer input fails instead of burning CPU on it. */
  maxAudioSeconds?: number;
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
    const song = await deps.songs.findUpload(songId);
    // Deleted, or superseded by a newer upload: nothing to do.
    if (!song || song.sourceKey !== sourceKey || song.status !== 'processing') return;

    const hlsPrefix = `songs/${songId}/${hlsVersionName(job.id, job.attempts)}`;
    let scratch: string | null = null;
    let applied = false;
    try {
      scratch = await createScratchDir(deps.tmpRoot, 'transcode');
      const outDir = path.join(scratch, 'hls');
      const tools = await deps.ffmpeg();
      // On object storage the original is downloaded into the scratch folder first (ffmpeg seeks in it).
      const input = await deps.mediaStore.localCopy(sourceKey, scratch);
      const declared = await probeAudio(tools, input);
      if (!declared.hasAudio) throw new MediaError('NO_AUDIO_STREAM', 'The file contains no audio track');
      const result = await transcodeToEncryptedHls(tools, {
        input,
        outDir,
        encoder,
        pidFile: path.join(scratch, CHILD_PID_FILE),
        maxDurationSec: deps.maxAudioSeconds,
      });
      assertComplete(declared.durationSec, result.durationSec);
      // The original is deleted below, so what downloads need of it is made now: a lossless upload is kept as
      // FLAC (its MP3 can be made from that later); a lossy one gets its MP3 from the original, not the stream.
      const lossless = isLosslessCodec(declared.codec);
      const download = lossless ? MASTER_FILE : MP3_FILE;
      if (lossless) await encodeFlacMaster(tools, { input, outFile: path.join(outDir, MASTER_FILE) });
      else await encodeMp3(tools, { input, outFile: path.join(outDir, MP3_FILE) });
      await deps.mediaStore.put(hlsPrefix, outDir);
      applied = await deps.songs.finishProcessing(songId, sourceKey, {
        status: 'ready',
        durationSec: result.durationSec,
        hlsPrefix,
      });
      await deps.onCatalogChange();
      if (!applied) return;
      // The original, any earlier version, and what earlier attempts of this job left half-written.
      const earlierAttempts = Array.from(
        { length: job.attempts - 1 },
        (_, index) => `songs/${songId}/${hlsVersionName(job.id, index + 1)}`,
      );
      for (const prefix of [sourceKey, song.hlsPrefix, ...earlierAttempts]) {
        if (prefix && prefix !== hlsPrefix) await deps.mediaStore.removePrefix(prefix);
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
      // The previews and downloads made from an earlier version go with it.
      for (const stale of await deps.renditions.deleteStale(songId, hlsPrefix)) {
        const folder = renditionFolder(stale);
        if (folder) await deps.mediaStore.removePrefix(folder);
      }
    } catch (error) {
      const permanent =
        error instanceof PermanentJobError ||
        (error instanceof MediaError && PERMANENT_MEDIA_ERRORS.has(error.code));
      const message = isStorageFull(error)
        ? STORAGE_FULL_WHILE_PROCESSING
        : error instanceof Error
          ? error.message
          : String(error);
      if (permanent || job.attempts >= TRANSCODE_MAX_ATTEMPTS) {
        await deps.songs.finishProcessing(songId, sourceKey, {
          status: 'failed',
          failureReason: permanent ? message : `Processing failed: ${message}`,
        });
        await deps.onCatalogChange();
      }
      if (permanent) throw new PermanentJobError(message);
      // Retried later (space may be freed); recorded and logged as what it is rather than a bare ENOSPC.
      if (isStorageFull(error)) throw new MediaError('STORAGE_FULL', message, { cause: error });
      throw error;
    } finally {
      // This attempt's version, unless the song now plays from it (a failure half-way through the copy included).
      if (!applied) await deps.mediaStore.removePrefix(hlsPrefix).catch(() => undefined);
      if (scratch) await rm(scratch, { recursive: true, force: true });
    }
  };
}

/** The worker died during the last attempt: the handler could not say so itself, so the song is failed here. */
export function transcodeJobOptions(
  deps: Pick<TranscodeJobDeps, 'songs' | 'onCatalogChange'>,
): JobTypeOptions {
  return {
    async abandoned(rawPayload) {
      const parsed = Payload.safeParse(rawPayload);
      if (!parsed.success) return;
      await deps.songs.finishProcessing(parsed.data.songId, parsed.data.sourceKey, {
        status: 'failed',
        failureReason: 'Processing was interrupted several times; upload the file again',
      });
      await deps.onCatalogChange();
    },
  };
}
