import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '..';
import { liveSessionCheck, RateLimitRepository, RateLimitService } from '../auth';
import { enqueuePreview } from '../renditions';
import { PREVIEW_TOKEN_TTL_MS, PreviewService } from './preview.service';
import { previewRoutes } from './preview.routes';
import { StreamMedia } from './stream-media';
import { StreamTokenService } from './stream-token.service';
import { streamingRoutes } from './streaming.routes';
import { StreamingRepository } from './streaming.repository';
import { StreamingService } from './streaming.service';

export { StreamTokenService, STREAM_TOKEN_TTL_MS } from './stream-token.service';
export { isPublicMedia } from './hls-playlist';
/** Its access query is timed by the stream bench (through `@backbeat/server/app`). */
export { StreamingRepository } from './streaming.repository';

/**
 * Wires the streaming module: GET /stream/* (songs and their previews), POST /stream/plays,
 * GET /users/me/recently-played.
 */
export async function registerStreaming(api: FastifyInstance, context: ModuleContext): Promise<void> {
  const repository = new StreamingRepository(context.database.db);
  const media = new StreamMedia(
    context.services.mediaStore,
    (songId) => repository.findReadyMediaPrefix(songId),
    context.config.segmentBaseUrl,
  );
  const sessionIsLive = liveSessionCheck(context.database.db, context.services.sessionCache);
  const service = new StreamingService(repository, new StreamTokenService(context.config.secretKey), media, {
    clock: context.services.clock,
    // A stream token dies with its session.
    sessionIsLive,
  });
  context.services.entitlements.on((change) => service.forgetAllowed(change));
  // Previews: their own files (a StreamMedia over the songs' current previews) and their own token kind.
  const previewMedia = new StreamMedia(
    context.services.mediaStore,
    (songId) => repository.findReadyPreviewPrefix(songId),
    context.config.segmentBaseUrl,
  );
  // A re-upload, a deletion or a remade preview on another instance or worker removes the old files at once:
  // drop stale prefixes.
  context.services.changes.on((change) => {
    if (change.kind !== 'catalog' && change.kind !== 'reset') return;
    media.forgetPrefixes();
    previewMedia.forgetPrefixes();
  });
  await api.register(streamingRoutes, { service, media });

  const previews = new PreviewService({
    repository,
    tokens: new StreamTokenService(context.config.secretKey, PREVIEW_TOKEN_TTL_MS, 'preview'),
    media: previewMedia,
    rateLimits: new RateLimitService(new RateLimitRepository(context.database.db), context.services.clock),
    sessionIsLive,
    queuePreview: (songId) => enqueuePreview(context.services, songId),
    clock: context.services.clock,
  });
  await api.register(previewRoutes, { previews, media: previewMedia });
}
