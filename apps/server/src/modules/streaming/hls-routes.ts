import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { ErrorResponse, HlsParams, HlsSegmentParams, StreamTokenQuery } from '@backbeat/contract';
import { sendMediaFile } from './media-response';
import { mediaBody, mediaResponse, rangeResponses, requesterOf } from './route-support';
import type { MediaFile, StreamMedia } from './stream-media';
import type { Requester } from './streaming.service';

type App = Parameters<FastifyPluginAsyncZod>[0];

/** What serves one kind of encrypted HLS (a song's stream, a preview): token-checked files, public segments. */
export interface HlsSource {
  playlist(songId: string, token: string | undefined, requester: Requester): Promise<string>;
  key(songId: string, token: string | undefined, requester: Requester): Promise<Buffer>;
  audioFile(songId: string, token: string | undefined, requester: Requester): Promise<MediaFile>;
  segmentFile(songId: string, segment: string): Promise<MediaFile>;
}

interface Endpoint {
  url: string;
  summary: string;
  /** The 200 answer's description. */
  body: string;
}

export interface HlsRoutes {
  source: HlsSource;
  media: StreamMedia;
  playlist: Endpoint;
  key: Endpoint;
  segment: Endpoint;
  audio: Endpoint;
  /** The answers of a token-checked file the requester may not have (403, and 409 where access can be pending). */
  refused: Partial<Record<403 | 409, z.ZodType>>;
}

/**
 * The four file endpoints of an HLS rendition: the rewritten playlist and the AES-128 key (token-checked, never
 * cached), the encrypted segments (public, immutable) and the plain AAC fallback (token-checked, byte ranges).
 */
export function registerHlsRoutes(app: App, { source, media, refused, ...urls }: HlsRoutes): void {
  const tags = ['streaming'];
  const tokenChecked = { params: HlsParams, querystring: StreamTokenQuery };

  app.get(
    urls.playlist.url,
    {
      ...mediaResponse,
      schema: {
        tags,
        summary: urls.playlist.summary,
        ...tokenChecked,
        response: {
          200: mediaBody('application/vnd.apple.mpegurl', urls.playlist.body),
          400: ErrorResponse,
          403: ErrorResponse,
          404: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const playlist = await source.playlist(
        request.params.songId,
        request.query.token,
        requesterOf(request),
      );
      return reply
        .header('content-type', 'application/vnd.apple.mpegurl')
        .header('cache-control', 'private, no-store')
        .send(playlist);
    },
  );

  app.get(
    urls.key.url,
    {
      ...mediaResponse,
      schema: {
        tags,
        summary: urls.key.summary,
        ...tokenChecked,
        response: {
          200: mediaBody('application/octet-stream', urls.key.body),
          400: ErrorResponse,
          404: ErrorResponse,
          ...refused,
        },
      },
    },
    async (request, reply) => {
      const key = await source.key(request.params.songId, request.query.token, requesterOf(request));
      // The schema documents bytes; a Buffer is sent as is (never serialised), which the typed reply cannot express.
      return (reply as FastifyReply)
        .header('content-type', 'application/octet-stream')
        .header('cache-control', 'no-store')
        .send(key);
    },
  );

  // HEAD is declared rather than derived: Fastify's derived HEAD would read the whole file and report length 0.
  app.route({
    method: ['GET', 'HEAD'],
    url: urls.segment.url,
    ...mediaResponse,
    schema: {
      tags,
      summary: urls.segment.summary,
      params: HlsSegmentParams,
      response: {
        200: mediaBody('video/mp2t', urls.segment.body),
        ...rangeResponses('video/mp2t'),
        400: ErrorResponse,
        404: ErrorResponse,
      },
    },
    handler: async (request, reply) => {
      const file = await source.segmentFile(request.params.songId, request.params.segment);
      return sendMediaFile(request, reply, media, file, {
        contentType: 'video/mp2t',
        cacheControl: 'public, max-age=31536000, immutable',
      });
    },
  });

  app.route({
    method: ['GET', 'HEAD'],
    url: urls.audio.url,
    ...mediaResponse,
    schema: {
      tags,
      summary: urls.audio.summary,
      ...tokenChecked,
      response: {
        200: mediaBody('audio/mp4', urls.audio.body),
        ...rangeResponses('audio/mp4'),
        400: ErrorResponse,
        404: ErrorResponse,
        ...refused,
      },
    },
    handler: async (request, reply) => {
      const file = await source.audioFile(request.params.songId, request.query.token, requesterOf(request));
      return sendMediaFile(request, reply, media, file, {
        contentType: 'audio/mp4',
        cacheControl: 'private, no-store',
      });
    },
  });
}
