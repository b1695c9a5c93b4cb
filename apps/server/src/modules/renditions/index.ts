import path from 'node:path';
import type { ModuleContext } from '..';
import { ffmpegLocator } from '../media';
import { MEDIA_CLEANUP_EVERY_MS, MEDIA_CLEANUP_JOB, mediaCleanupHandler } from './media-cleanup.job';
import { MediaReferencesRepository } from './media-references.repository';
import {
  MP3_JOB,
  PREVIEW_BACKFILL_JOB,
  PREVIEW_JOB,
  mp3Handler,
  previewBackfillHandler,
  previewHandler,
  type RenditionJobDeps,
} from './rendition.jobs';
import { RenditionRepository } from './rendition.repository';
import { SongMediaRepository } from './song-media.repository';
import { TRANSCODE_JOB, transcodeJobOptions, transcodeSongHandler } from './transcode.job';

/*
 * Renditions: what is made from an uploaded original (the encrypted HLS stream, the preview, the MP3 and FLAC
 * download files) and the clean-up of what interrupted work left behind. Its public surface: the job names and
 * queueing helpers the catalogue, downloads and streaming use, the repository downloads read, and the jobs'
 * registration.
 */
export { enqueueMp3, enqueuePreview } from './rendition.jobs';
export { RenditionRepository } from './rendition.repository';
export { TRANSCODE_JOB, TRANSCODE_MAX_ATTEMPTS } from './transcode.job';

/**
 * Work each start queues once: previews for songs that have none (made before previews existed). Any instance's
 * worker takes it; a second start while it waits adds nothing.
 */
export async function queueStartupWork(jobs: RenditionJobDeps['jobs']): Promise<void> {
  await jobs.enqueue(PREVIEW_BACKFILL_JOB, {}, { dedupeKey: PREVIEW_BACKFILL_JOB });
}

/**
 * The rendition jobs (API instances with `JOBS=inline`, and workers): the transcode, the renditions made from it
 * (preview, MP3 download file, the preview backfill), and the recurring media clean-up that removes what killed
 * uploads and transcodes left behind. Every process hears of the catalogue changes they make over the change bus.
 */
export function registerRenditionJobs({ config, database, services }: ModuleContext): void {
  const songs = new SongMediaRepository(database.db);
  const ffmpeg = ffmpegLocator(config.ffmpegPath);
  const tmpRoot = path.join(config.dataDir, 'tmp');
  const onCatalogChange = () => services.changes.publish({ kind: 'catalog' });
  const renditionDeps: RenditionJobDeps = {
    renditions: new RenditionRepository(database.db),
    mediaStore: services.mediaStore,
    ffmpeg,
    tmpRoot,
    jobs: services.jobs,
    onReplaced: onCatalogChange,
  };
  const transcode = {
    songs,
    mediaStore: services.mediaStore,
    ffmpeg,
    tmpRoot,
    onCatalogChange,
    renditions: renditionDeps.renditions,
    jobs: services.jobs,
    maxAudioSeconds: config.uploadLimits.audioSeconds,
  };
  services.jobs.register(TRANSCODE_JOB, transcodeSongHandler(transcode), transcodeJobOptions(transcode));
  services.jobs.registerRecurring(
    MEDIA_CLEANUP_JOB,
    mediaCleanupHandler({
      mediaStore: services.mediaStore,
      references: new MediaReferencesRepository(database.db),
      songs,
      tmpRoot,
      onCatalogChange,
      log: () => services.jobs.logger,
    }),
    MEDIA_CLEANUP_EVERY_MS,
  );
  services.jobs.register(PREVIEW_JOB, previewHandler(renditionDeps));
  services.jobs.register(MP3_JOB, mp3Handler(renditionDeps));
  services.jobs.register(PREVIEW_BACKFILL_JOB, previewBackfillHandler(renditionDeps));
}
