import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ErrorResponse,
  HlsParams,
  HlsSegmentParams,
  StreamPreviewResponse,
  StreamSongParams,
  StreamTokenQuery,
} from '@backbeat/contract';
import { sendMediaFile } from './media-response';
import type { PreviewService } from './preview.service';
import { mediaBody, mediaResponse, rangeResponses, requesterOf, signedIn } from './route-support';
import type { StreamMedia } from './stream-media';

export interface PreviewRoutesOptions {
  previews: PreviewService;
  media: StreamMedia;
}

const tags = ['streaming'];

/** Previews: the address (signed in or not), then the preview's own playlist, key, segments and fallback file. */
export const previewRoutes: FastifyPluginAsyncZod<PreviewRoutesOptions> = async (
  app,
  { previews, media },
) => {
  app.get(
    '/stream/song/:id/preview',
    {
      schema: {
        tags,
        summary:
          "Signed addresses of the song's 30-second preview (no purchase needed; guests too, limited per address)",
        security: [...signedIn, {}],
        params: StreamSongParams,
        response: {
          200: StreamPreviewResponse,
          400: ErrorResponse,
          404: ErrorResponse,
          409: ErrorResponse,
          429: ErrorResponse,
        },
      },
    },
    async (request) => {
      const user = await request.getUser();
      const viewer = user && { id: user.id, role: user.role, sessionId: user.sessionId };
      return previews.previewAddress(viewer, request.params.id, request.ip);
    },
  );

  app.get(
    '/stream/preview/:songId/index.m3u8',
    {
      ...mediaResponse,
      schema: {
        tags,
        summary: "The preview's HLS playlist; its key URI carries the preview token",
        params: HlsParams,
        querystring: StreamTokenQuery,
        response: {
          200: mediaBody('application/vnd.apple.mpegurl', 'The rewritten preview playlist'),
          400: ErrorResponse,
          403: ErrorResponse,
          404: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const { songId } = request.params;
      const playlist = await previews.playlist(songId, request.query.token, requesterOf(request));
      return reply
        .header('content-type', 'application/vnd.apple.mpegurl')
        .header('cache-control', 'private, no-store')
        .send(playlist);
    },
  );

  app.get(
    '/stream/preview/:songId/key',
    {
      ...mediaResponse,
      schema: {
        tags,
        summary: "The preview's own AES-128 key (16 bytes): a preview token, no purchase; never cached",
        params: HlsParams,
        querystring: StreamTokenQuery,
        response: {
          200: mediaBody('application/octet-stream', 'The 16-byte AES-128 key of the preview'),
          400: ErrorResponse,
          403: ErrorResponse,
          404: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const key = await previews.key(request.params.songId, request.query.token, requesterOf(request));
      return (reply as FastifyReply)
        .header('content-type', 'application/octet-stream')
        .header('cache-control', 'no-store')
        .send(key);
    },
  );

  app.route({
    method: ['GET', 'HEAD'],
    url: '/stream/preview/:songId/audio',
    ...mediaResponse,
    schema: {
      tags,
      summary: "The preview's plain AAC fallback (audio/mp4): a preview token; byte ranges, never cached",
      params: HlsParams,
      querystring: StreamTokenQuery,
      response: {
        200: mediaBody('audio/mp4', 'The preview as AAC audio'),
        ...rangeResponses('audio/mp4'),
        400: ErrorResponse,
        403: ErrorResponse,
        404: ErrorResponse,
      },
    },
    handler: async (request, reply) => {
      const file = await previews.audioFile(request.params.songId, request.query.token, requesterOf(request));
      return sendMediaFile(request, reply, media, file, {
        contentType: 'audio/mp4',
        cacheControl: 'private, no-store',
      });
    },
  });

  app.route({
    method: ['GET', 'HEAD'],
    url: '/stream/preview/:songId/:segment',
    ...mediaResponse,
    schema: {
      tags,
      summary: 'Encrypted MPEG-TS segment of the preview: public, immutable, byte ranges and ETag',
      params: HlsSegmentParams,
      response: {
        200: mediaBody('video/mp2t', 'The encrypted preview segment'),
        ...rangeResponses('video/mp2t'),
        400: ErrorResponse,
        404: ErrorResponse,
      },
    },
    handler: async (request, reply) => {
      const file = await previews.segmentFile(request.params.songId, request.params.segment);
      return sendMediaFile(request, reply, media, file, {
        contentType: 'video/mp2t',
        cacheControl: 'public, max-age=31536000, immutable',
      });
    },
  });
};
