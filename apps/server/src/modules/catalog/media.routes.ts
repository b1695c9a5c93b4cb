import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorResponse, MediaBytes } from '@backbeat/contract';
import { notFound } from '../../platform/errors';
import type { MediaStore } from '../../storage';
import { IMAGE_KEY_PATTERN } from '../../platform/media-url';

/**
 * Public images (covers, artist photos) from the media store. Only WebP image keys are served: audio, HLS
 * playlists and keys live in the same store and must never be reachable here.
 */
export const mediaRoutes: FastifyPluginAsyncZod<{ mediaStore: MediaStore }> = async (app, { mediaStore }) => {
  app.get(
    '/media/*',
    {
      schema: {
        tags: ['media'],
        summary: 'A cover or artist image (WebP, immutable)',
        params: z.object({ '*': z.string() }),
        response: {
          200: { description: 'The image', content: { 'image/webp': { schema: MediaBytes } } },
          304: z.null().describe('Not modified (If-None-Match matched the ETag); no body'),
          400: ErrorResponse,
          404: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const key = request.params['*'];
      if (!IMAGE_KEY_PATTERN.test(key)) throw notFound('Image not found', 'MEDIA_NOT_FOUND');
      const info = await mediaStore.stat(key);
      if (!info) throw notFound('Image not found', 'MEDIA_NOT_FOUND');
      // Keys are never rewritten (a new image gets a new key), so the key itself is a strong validator.
      const etag = `"${info.size.toString(36)}-${info.mtime.getTime().toString(36)}"`;
      reply
        .header('Cache-Control', 'public, max-age=31536000, immutable')
        .header('ETag', etag)
        .header('Cross-Origin-Resource-Policy', 'same-site');
      if (request.headers['if-none-match'] === etag) return (reply as FastifyReply).status(304).send();
      // The schema documents bytes; a stream is sent as is (never serialised), which the typed reply cannot express.
      return (reply as FastifyReply)
        .type('image/webp')
        .header('Content-Length', info.size)
        .send(mediaStore.read(key));
    },
  );
};
