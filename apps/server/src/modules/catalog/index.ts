import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '..';
import type { AppDb } from '../../db/client';
import { loadEntitlements } from '../access';
import { ffmpegLocator } from '../media';
import { AlbumWriteService } from './album-write.service';
import { ArtistWriteService } from './artist-write.service';
import { browseRoutes } from './browse.routes';
import { CatalogBrowseService, SearchMatchesCache } from './catalog-browse.service';
import { SongReadService } from './catalog-read.service';
import { catalogWriteRoutes } from './catalog-write.routes';
import { WriteSupport } from './catalog-write.support';
import { createRepositories, createTransactor } from './catalog.repositories';
import { CountCache } from './count-cache';
import { HomeRepository } from './home.repository';
import { homeRoutes } from './home.routes';
import { HomeService } from './home.service';
import { mediaRoutes } from './media.routes';
import { SongView } from './song-view';
import { SongWriteService } from './song-write.service';
import { songRoutes } from './songs.routes';
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
import { TRANSCODE_JOB, transcodeJobOptions, transcodeSongHandler } from './transcode.job';

/* The catalogue's public surface: what other modules may use. */
export { albumColumns, type AlbumRow } from './album.repository';
export { createCatalogCache } from './catalog-cache';
export { withForm } from './catalog-form';
export { uploadError } from './catalog-write.support';
export { presentAlbum } from './catalog.presenter';
export { storeCoverImage } from './cover-images';
export { enqueueMp3, enqueuePreview } from './rendition.jobs';
export { RenditionRepository } from './rendition.repository';
export { songListColumns, type SongRow } from './song.repository';
export type { SongView } from './song-view';
export { toSearchText, toSlug } from './search-text';
export { TRANSCODE_JOB, TRANSCODE_MAX_ATTEMPTS } from './transcode.job';
export { UPLOAD_ERROR_RESPONSES, type ReceivedFile } from './upload-form';

/** Songs as one viewer sees them (`canPlay`, `canDownload`), with entitlements read from `db`. */
export function createSongView(db: AppDb, clock: () => Date): SongView {
  return new SongView((userId, scope, now) => loadEntitlements(db, userId, scope, now), clock);
}

/**
 * Work each start queues once: previews for songs that have none (made before previews existed). Any instance's
 * worker takes it; a second start while it waits adds nothing.
 */
export async function queueStartupWork(jobs: RenditionJobDeps['jobs']): Promise<void> {
  await jobs.enqueue(PREVIEW_BACKFILL_JOB, {}, { dedupeKey: PREVIEW_BACKFILL_JOB });
}

/** Every process hears of every committed catalogue change (its own included) over the change bus. */
const announceCatalogChange = (services: ModuleContext['services']) => () =>
  services.changes.publish({ kind: 'catalog' });

/**
 * The catalogue's jobs (API instances with `JOBS=inline`, and workers): the transcode, the renditions made from it
 * (preview, MP3 download file, the preview backfill), and the recurring media clean-up that removes what killed
 * uploads and transcodes left behind.
 */
export function registerCatalogJobs({ config, database, services }: ModuleContext): void {
  const repos = createRepositories(database.db);
  const ffmpeg = ffmpegLocator(config.ffmpegPath);
  const tmpRoot = path.join(config.dataDir, 'tmp');
  const onCatalogChange = announceCatalogChange(services);
  const renditionDeps: RenditionJobDeps = {
    renditions: new RenditionRepository(database.db),
    mediaStore: services.mediaStore,
    ffmpeg,
    tmpRoot,
    jobs: services.jobs,
    onReplaced: onCatalogChange,
  };
  const transcode = {
    songs: repos.songs,
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
      songs: repos.songs,
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

/** Wires the catalogue: repositories -> services -> routes. */
export async function registerCatalog(api: FastifyInstance, { config, database, services }: ModuleContext) {
  const db = database.db;
  const counts = new CountCache();
  const cache = services.catalogCache;
  const searchMatches = new SearchMatchesCache(() => cache.version);
  // A catalogue write here or anywhere else (another instance, a worker's transcode), or a lost bus connection.
  services.changes.on((change) => {
    if (change.kind !== 'catalog' && change.kind !== 'reset') return;
    counts.invalidate();
    cache.invalidate();
  });
  const onCatalogChange = announceCatalogChange(services);
  const repos = createRepositories(db, counts);
  const songView = createSongView(db, services.clock);
  const ffmpeg = ffmpegLocator(config.ffmpegPath);
  const support = new WriteSupport({
    repos,
    transaction: createTransactor(db),
    mediaStore: services.mediaStore,
    log: api.log,
    onCatalogChange,
    clock: services.clock,
  });

  await api.register(songRoutes, {
    reads: new SongReadService({ ...repos, songView }),
    writes: new SongWriteService({
      support,
      songView,
      jobs: services.jobs,
      ffmpeg,
      maxAudioSeconds: config.uploadLimits.audioSeconds,
    }),
    dataDir: config.dataDir,
    uploadLimits: config.uploadLimits,
    cache,
  });
  await api.register(browseRoutes, {
    browse: new CatalogBrowseService({ ...repos, songView, searchMatches }),
    cache,
  });
  await api.register(catalogWriteRoutes, {
    artists: new ArtistWriteService(support),
    albums: new AlbumWriteService(support),
    dataDir: config.dataDir,
    uploadLimits: config.uploadLimits,
  });
  await api.register(homeRoutes, {
    home: new HomeService({
      ...repos,
      home: new HomeRepository(db),
      songView,
      clock: services.clock,
    }),
  });
  await api.register(mediaRoutes, { mediaStore: services.mediaStore });
}
