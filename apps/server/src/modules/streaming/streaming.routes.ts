import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ErrorResponse,
  HlsParams,
  HlsSegmentParams,
  IdParams,
  RecentlyPlayedQuery,
  RecentlyPlayedResponse,
  RecordPlayBody,
  RecordPlayResponse,
  StreamAlbumDeniedResponse,
  StreamAlbumResponse,
  StreamDeniedResponse,
  StreamRefusedResponse,
  StreamSongParams,
  StreamSongResponse,
  StreamTokenQuery,
} from '@backbeat/contract';
import { requireUser } from '../../platform/auth';
import { sendMediaFile } from './media-response';
import { mediaBody, mediaResponse, rangeResponses, requesterOf, signedIn } from './route-support';
import type { StreamMedia } from './stream-media';
import type { StreamingService } from './streaming.service';

export interface StreamingRoutesOptions {
  service: StreamingService;
  media: StreamMedia;
}

const tags = ['streaming'];

export const PLAY_NOT_COUNTED =
  'Play not counted: a play counts once per song length, for audio fetched since the last counted play';

export const streamingRoutes: FastifyPluginAsyncZod<StreamingRoutesOptions> = async (
  app,
  { service, media },
) => {
  app.get(
    '/stream/song/:id',
    {
      schema: {
        tags,
        summary: 'Signed playlist and fallback audio addresses for one song, after the access policy',
        security: signedIn,
        params: StreamSongParams,
        response: {
          200: StreamSongResponse,
          400: ErrorResponse,
          401: ErrorResponse,
          403: StreamDeniedResponse,
          404: ErrorResponse,
          409: ErrorResponse,
        },
      },
    },
    async (request) => service.streamSong(await requireUser(request), request.params.id),
  );

  app.get(
    '/stream/album/:id',
    {
      schema: {
        tags,
        summary: "Signed playlist addresses for the album's ready songs the viewer may play, in track order",
        security: signedIn,
        params: IdParams,
        response: {
          200: StreamAlbumResponse,
          400: ErrorResponse,
          401: ErrorResponse,
          403: StreamAlbumDeniedResponse,
          404: ErrorResponse,
        },
      },
    },
    async (request) => service.streamAlbum(await requireUser(request), request.params.id),
  );

  app.get(
    '/stream/hls/:songId/index.m3u8',
    {
      ...mediaResponse,
      schema: {
        tags,
        summary: 'HLS playlist whose key URI carries the stream token',
        params: HlsParams,
        querystring: StreamTokenQuery,
        response: {
          200: mediaBody('application/vnd.apple.mpegurl', 'The rewritten HLS playlist'),
          400: ErrorResponse,
          403: ErrorResponse,
          404: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const { songId } = request.params;
      const playlist = await service.playlist(songId, request.query.token, requesterOf(request));
      return reply
        .header('content-type', 'application/vnd.apple.mpegurl')
        .header('cache-control', 'private, no-store')
        .send(playlist);
    },
  );

  app.get(
    '/stream/hls/:songId/key',
    {
      ...mediaResponse,
      schema: {
        tags,
        summary: 'AES-128 key (16 bytes): stream token and access policy, never cached',
        params: HlsParams,
        querystring: StreamTokenQuery,
        response: {
          200: mediaBody('application/octet-stream', 'The 16-byte AES-128 key'),
          400: ErrorResponse,
          403: StreamRefusedResponse,
          404: ErrorResponse,
          409: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const key = await service.key(request.params.songId, request.query.token, requesterOf(request));
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
    url: '/stream/hls/:songId/:segment',
    ...mediaResponse,
    schema: {
      tags,
      summary: 'Encrypted MPEG-TS segment: public, immutable, byte ranges and ETag',
      params: HlsSegmentParams,
      response: {
        200: mediaBody('video/mp2t', 'The encrypted segment'),
        ...rangeResponses('video/mp2t'),
        400: ErrorResponse,
        404: ErrorResponse,
      },
    },
    handler: async (request, reply) => {
      const file = await service.segmentFile(request.params.songId, request.params.segment);
      return sendMediaFile(request, reply, media, file, {
        contentType: 'video/mp2t',
        cacheControl: 'public, max-age=31536000, immutable',
      });
    },
  });

  app.route({
    method: ['GET', 'HEAD'],
    url: '/stream/audio/:songId',
    ...mediaResponse,
    schema: {
      tags,
      summary: 'Fallback AAC file (audio/mp4): stream token and access policy, byte ranges, never cached',
      params: HlsParams,
      querystring: StreamTokenQuery,
      response: {
        200: mediaBody('audio/mp4', 'The AAC audio file'),
        ...rangeResponses('audio/mp4'),
        400: ErrorResponse,
        403: StreamRefusedResponse,
        404: ErrorResponse,
        409: ErrorResponse,
      },
    },
    handler: async (request, reply) => {
      const file = await service.audioFile(request.params.songId, request.query.token, requesterOf(request));
      return sendMediaFile(request, reply, media, file, {
        contentType: 'audio/mp4',
        cacheControl: 'private, no-store',
      });
    },
  });

  app.post(
    '/stream/plays',
    {
      schema: {
        tags,
        summary:
          'Record one listen of a song the user may play: counted (201) once per song length, and only after its ' +
          'audio was fetched since the last counted play; otherwise accepted and not counted (200)',
        security: signedIn,
        body: RecordPlayBody,
        response: {
          200: RecordPlayResponse,
          201: RecordPlayResponse,
          400: ErrorResponse,
          401: ErrorResponse,
          403: StreamRefusedResponse,
          404: ErrorResponse,
          409: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const counted = await service.recordPlay(await requireUser(request), request.body);
      // 201 when a play was counted; 200 when the report was accepted but counts nothing (see recordPlay).
      return counted
        ? reply.code(201).send({ message: 'Play recorded' })
        : reply.code(200).send({ message: PLAY_NOT_COUNTED });
    },
  );

  app.get(
    '/users/me/recently-played',
    {
      schema: {
        tags,
        summary: 'Distinct songs the user played, latest first',
        security: signedIn,
        querystring: RecentlyPlayedQuery,
        response: { 200: RecentlyPlayedResponse, 400: ErrorResponse, 401: ErrorResponse },
      },
    },
    async (request) => service.recentlyPlayed(await requireUser(request), request.query.limit),
  );
};
