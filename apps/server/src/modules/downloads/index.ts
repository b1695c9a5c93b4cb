import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '..';
import { liveSessionCheck, RateLimitRepository, RateLimitService } from '../auth';
import { enqueueMp3, RenditionRepository } from '../renditions';
import { ffmpegLocator } from '../media';
import { DownloadTokenService } from './download-token.service';
import { downloadsRoutes } from './downloads.routes';
import { DownloadsRepository } from './downloads.repository';
import { DownloadsService } from './downloads.service';

/** Wires downloads: GET/POST /downloads/:itemType/:id and GET /downloads/file. */
export async function registerDownloads(api: FastifyInstance, context: ModuleContext): Promise<void> {
  const { config, database, services } = context;
  const repository = new DownloadsRepository(database.db);
  const downloads = new DownloadsService({
    repository,
    renditions: new RenditionRepository(database.db),
    tokens: new DownloadTokenService(config.secretKey),
    files: { mediaStore: services.mediaStore, ffmpeg: ffmpegLocator(config.ffmpegPath), log: api.log },
    rateLimits: new RateLimitService(new RateLimitRepository(database.db), services.clock),
    sessionIsLive: liveSessionCheck(database.db, services.sessionCache),
    queueMp3: (songId) => enqueueMp3(services, songId),
    clock: services.clock,
  });
  await api.register(downloadsRoutes, { downloads });
}
