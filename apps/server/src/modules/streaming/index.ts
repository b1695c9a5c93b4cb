import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '..';
import { StreamMedia } from './stream-media';
import { StreamTokenService } from './stream-token.service';
import { streamingRoutes } from './streaming.routes';
import { StreamingRepository } from './streaming.repository';
import { StreamingService } from './streaming.service';

export { StreamTokenService, STREAM_TOKEN_TTL_MS } from './stream-token.service';

/** Wires the streaming module: GET /stream/*, POST /stream/plays, GET /users/me/recently-played. */
export async function registerStreaming(api: FastifyInstance, context: ModuleContext): Promise<void> {
  const repository = new StreamingRepository(context.database.db);
  const media = new StreamMedia(
    context.services.mediaStore,
    (songId) => repository.findReadyMediaPrefix(songId),
    context.config.segmentBaseUrl,
  );
  const { sessionCache } = context.services;
  const service = new StreamingService(repository, new StreamTokenService(context.config.secretKey), media, {
    clock: context.services.clock,
    // A stream token dies with its session; the session cache keeps the check off the database most of the time.
    sessionIsLive: (sessionId) =>
      sessionCache.isLive(sessionId, () => repository.findLiveSession(sessionId, new Date())),
  });
  context.services.entitlements.on((change) => service.forgetAllowed(change));
  // A re-upload or deletion on another instance or worker removes the old files at once: drop stale prefixes.
  context.services.changes.on((change) => {
    if (change.kind === 'catalog' || change.kind === 'reset') media.forgetPrefixes();
  });
  await api.register(streamingRoutes, { service, media });
}
