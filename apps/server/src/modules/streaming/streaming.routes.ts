import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ErrorResponse,
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
} from '@backbeat/contract';
import { requireUser } from '../../platform/auth';
import { registerHlsRoutes } from './hls-routes';
import { signedIn } from './route-support';
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

  registerHlsRoutes(app, {
    source: service,
    media,
    playlist: {
      url: '/stream/hls/:songId/index.m3u8',
      summary: 'HLS playlist whose key URI carries the stream token',
      body: 'The rewritten HLS playlist',
    },
    key: {
      url: '/stream/hls/:songId/key',
      summary: 'AES-128 key (16 bytes): stream token and access policy, never cached',
      body: 'The 16-byte AES-128 key',
    },
    segment: {
      url: '/stream/hls/:songId/:segment',
      summary: 'Encrypted MPEG-TS segment: public, immutable, byte ranges and ETag',
      body: 'The encrypted segment',
    },
    audio: {
      url: '/stream/audio/:songId',
      summary: 'Fallback AAC file (audio/mp4): stream token and access policy, byte ranges, never cached',
      body: 'The AAC audio file',
    },
    refused: { 403: StreamRefusedResponse, 409: ErrorResponse },
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
