import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AlbumSongsResponse,
  ArtistSongsResponse,
  CatalogBuyersResponse,
  CatalogDeleteResponse,
  GenreParams,
  IdParams,
  MatchingGenreSongsResponse,
  PagedSongsQuery,
  PagedSongsResponse,
  Song,
  SongMutationResponse,
  SongStatusResponse,
  SongsQuery,
  SongsResponse,
} from '@backbeat/contract';
import { requireRole, requireUser } from '../../platform/auth';
import { errorAnswers, routeGroup } from '../../platform/route-docs';
import type { ResponseCache } from '../../platform/response-cache';
import { CATALOG_EDITOR_ROLES } from '../access';
import type { UploadLimits } from '../../config';
import { registerFormRoutes, songFiles } from './catalog-form';
import type { SongReadService } from './catalog-read.service';
import type { SongWriteService } from './song-write.service';

const errors = errorAnswers(400, 401, 403, 404);
const song = routeGroup(['songs'], errors);

export interface SongRoutesOptions {
  reads: SongReadService;
  writes: SongWriteService;
  dataDir: string;
  uploadLimits: UploadLimits;
  /** Public song lists are answered from it (per viewer: `canPlay` depends on who asks). */
  cache: ResponseCache;
}

export const songRoutes: FastifyPluginAsyncZod<SongRoutesOptions> = async (
  app,
  { reads, writes, dataDir, uploadLimits, cache },
) => {
  const cachedSong = routeGroup(['songs'], errors, cache.route('viewer'));

  app.get(
    '/songs',
    cachedSong({ summary: 'Playable songs, newest first', querystring: SongsQuery }, { 200: SongsResponse }),
    async (request) => reads.list(await request.getUser(), request.query),
  );

  app.get(
    '/songs/liked',
    song(
      { summary: "The signed-in user's liked songs, most recent like first", querystring: PagedSongsQuery },
      { 200: PagedSongsResponse },
    ),
    async (request) => reads.liked(await requireUser(request), request.query),
  );

  app.get(
    '/songs/matching-genre',
    song(
      { summary: "Songs in the signed-in user's preferred genres", querystring: PagedSongsQuery },
      { 200: MatchingGenreSongsResponse },
    ),
    async (request) => reads.matchingGenre(await requireUser(request), request.query),
  );

  app.get(
    '/songs/album/:id',
    cachedSong({ summary: "An album's songs in track order", params: IdParams }, { 200: AlbumSongsResponse }),
    async (request) => reads.byAlbum(await request.getUser(), request.params.id),
  );

  app.get(
    '/songs/artist/:id',
    cachedSong(
      { summary: "An artist's songs, newest first", params: IdParams, querystring: PagedSongsQuery },
      { 200: ArtistSongsResponse },
    ),
    async (request) => reads.byArtist(await request.getUser(), request.params.id, request.query),
  );

  app.get(
    '/songs/genre/:genre',
    cachedSong(
      {
        summary: 'Songs of a genre (by name or slug, any case), newest first',
        params: GenreParams,
        querystring: PagedSongsQuery,
      },
      { 200: PagedSongsResponse },
    ),
    async (request) => reads.byGenre(await request.getUser(), request.params.genre, request.query),
  );

  app.get(
    '/songs/:id',
    cachedSong(
      {
        summary: 'One song; one still processing or failed only for its artist account and admins',
        params: IdParams,
      },
      { 200: Song },
    ),
    async (request) => reads.one(await request.getUser(), request.params.id),
  );

  app.get(
    '/songs/:id/status',
    song(
      { summary: "An upload's processing status (its artist's account and admins)", params: IdParams },
      { 200: SongStatusResponse },
    ),
    async (request) => reads.status(await requireUser(request), request.params.id),
  );

  await registerFormRoutes(app, {
    path: '/songs',
    tags: ['songs'],
    summary: {
      create:
        'Upload a song (multipart: title, singer, genre, accessType, freeToStream, price, album, artist, previewStart, audio, coverImage)',
      update: 'Edit a song; a new audio file is transcoded again',
    },
    answer: SongMutationResponse,
    errors,
    consumes: ['multipart/form-data', 'application/json'],
    files: songFiles,
    uploadLimits,
    dataDir,
    writes,
  });

  app.get(
    '/songs/:id/buyers',
    song(
      {
        summary: 'How many accounts bought the song (or its album): they keep it if it is deleted',
        params: IdParams,
      },
      { 200: CatalogBuyersResponse },
    ),
    async (request) => writes.buyers(await requireRole(request, ...CATALOG_EDITOR_ROLES), request.params.id),
  );

  app.delete(
    '/songs/:id',
    song(
      {
        summary:
          'Delete a song: an unsold one with its media; a sold one leaves the catalogue but stays with its buyers',
        params: IdParams,
      },
      { 200: CatalogDeleteResponse },
    ),
    async (request) => writes.delete(await requireRole(request, ...CATALOG_EDITOR_ROLES), request.params.id),
  );
};
