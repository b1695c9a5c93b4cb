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

/* The catalogue's public surface: what other modules may use. */
export { albumColumns, type AlbumRow } from './album.repository';
export { createCatalogCache } from './catalog-cache';
export { withForm } from './catalog-form';
export { uploadError } from './catalog-write.support';
export { presentAlbum } from './catalog.presenter';
export { storeCoverImage } from './cover-images';
export { songListColumns, type SongRow } from './song.repository';
export type { SongView } from './song-view';
export { titleSearchText, toSearchText, toSlug } from './search-text';
export { acceptForms, UPLOAD_ERROR_RESPONSES, type ReceivedFile } from './upload-form';

/** Songs as one viewer sees them (`canPlay`, `canDownload`), with entitlements read from `db`. */
export function createSongView(db: AppDb, clock: () => Date): SongView {
  return new SongView((userId, scope, now) => loadEntitlements(db, userId, scope, now), clock);
}

/** Every process hears of every committed catalogue change (its own included) over the change bus. */
const announceCatalogChange = (services: ModuleContext['services']) => () =>
  services.changes.publish({ kind: 'catalog' });

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
