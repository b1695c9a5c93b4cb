import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse, StreamPreviewResponse, StreamSongParams } from '@backbeat/contract';
import { registerHlsRoutes } from './hls-routes';
import type { PreviewService } from './preview.service';
import { signedIn } from './route-support';
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

  registerHlsRoutes(app, {
    source: previews,
    media,
    playlist: {
      url: '/stream/preview/:songId/index.m3u8',
      summary: "The preview's HLS playlist; its key URI carries the preview token",
      body: 'The rewritten preview playlist',
    },
    key: {
      url: '/stream/preview/:songId/key',
      summary: "The preview's own AES-128 key (16 bytes): a preview token, no purchase; never cached",
      body: 'The 16-byte AES-128 key of the preview',
    },
    segment: {
      url: '/stream/preview/:songId/:segment',
      summary: 'Encrypted MPEG-TS segment of the preview: public, immutable, byte ranges and ETag',
      body: 'The encrypted preview segment',
    },
    audio: {
      url: '/stream/preview/:songId/audio',
      summary: "The preview's plain AAC fallback (audio/mp4): a preview token; byte ranges, never cached",
      body: 'The preview as AAC audio',
    },
    refused: { 403: ErrorResponse },
  });
};
