import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AlbumSongsResponse,
  ArtistSongsResponse,
  CatalogBuyersResponse,
  CatalogDeleteResponse,
  ErrorResponse,
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
import type { ResponseCache } from '../../platform/response-cache';
import { CATALOG_EDITOR_ROLES } from '../access';
import type { UploadLimits } from '../../config';
import { songFiles, withForm } from './catalog-form';
import type { SongReadService } from './catalog-read.service';
import type { SongWriteService } from './song-write.service';
import { acceptForms, UPLOAD_ERROR_RESPONSES } from './upload-form';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };
const uploadErrors = { ...errors, ...UPLOAD_ERROR_RESPONSES };
const multipart = ['multipart/form-data', 'application/json'];

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
  const cachedPerViewer = cache.route('viewer');

  app.get(
    '/songs',
    {
      ...cachedPerViewer,
      schema: {
        tags: ['songs'],
        summary: 'Playable songs, newest first',
        querystring: SongsQuery,
        response: { 200: SongsResponse, ...errors },
      },
    },
    async (request) => reads.list(await request.getUser(), request.query),
  );

  app.get(
    '/songs/liked',
    {
      schema: {
        tags: ['songs'],
        summary: "The signed-in user's liked songs, most recent like first",
        querystring: PagedSongsQuery,
        response: { 200: PagedSongsResponse, ...errors },
      },
    },
    async (request) => reads.liked(await requireUser(request), request.query),
  );

  app.get(
    '/songs/matching-genre',
    {
      schema: {
        tags: ['songs'],
        summary: "Songs in the signed-in user's preferred genres",
        querystring: PagedSongsQuery,
        response: { 200: MatchingGenreSongsResponse, ...errors },
      },
    },
    async (request) => reads.matchingGenre(await requireUser(request), request.query),
  );

  app.get(
    '/songs/album/:id',
    {
      ...cachedPerViewer,
      schema: {
        tags: ['songs'],
        summary: "An album's songs in track order",
        params: IdParams,
        response: { 200: AlbumSongsResponse, ...errors },
      },
    },
    async (request) => reads.byAlbum(await request.getUser(), request.params.id),
  );

  app.get(
    '/songs/artist/:id',
    {
      ...cachedPerViewer,
      schema: {
        tags: ['songs'],
        summary: "An artist's songs, newest first",
        params: IdParams,
        querystring: PagedSongsQuery,
        response: { 200: ArtistSongsResponse, ...errors },
      },
    },
    async (request) => reads.byArtist(await request.getUser(), request.params.id, request.query),
  );

  app.get(
    '/songs/genre/:genre',
    {
      ...cachedPerViewer,
      schema: {
        tags: ['songs'],
        summary: 'Songs of a genre (by name or slug, any case), newest first',
        params: GenreParams,
        querystring: PagedSongsQuery,
        response: { 200: PagedSongsResponse, ...errors },
      },
    },
    async (request) => reads.byGenre(await request.getUser(), request.params.genre, request.query),
  );

  app.get(
    '/songs/:id',
    {
      ...cachedPerViewer,
      schema: {
        tags: ['songs'],
        summary: 'One song; one still processing or failed only for its artist account and admins',
        params: IdParams,
        response: { 200: Song, ...errors },
      },
    },
    async (request) => reads.one(await request.getUser(), request.params.id),
  );

  app.get(
    '/songs/:id/status',
    {
      schema: {
        tags: ['songs'],
        summary: "An upload's processing status (its artist's account and admins)",
        params: IdParams,
        response: { 200: SongStatusResponse, ...errors },
      },
    },
    async (request) => reads.status(await requireUser(request), request.params.id),
  );

  // The two routes that take a form, in a scope of their own: the form parser's hooks stay off the song lists.
  const formRoutes: FastifyPluginAsyncZod = async (uploads) => {
    await acceptForms(uploads, uploadLimits);

    uploads.post(
      '/songs',
      {
        schema: {
          tags: ['songs'],
          summary:
            'Upload a song (multipart: title, singer, genre, accessType, freeToStream, price, album, artist, previewStart, audio, coverImage)',
          consumes: multipart,
          response: { 201: SongMutationResponse, ...uploadErrors },
        },
      },
      async (request, reply) => {
        const user = await requireRole(request, ...CATALOG_EDITOR_ROLES);
        const result = await withForm(request, dataDir, songFiles(uploadLimits), (form) =>
          writes.create(user, form),
        );
        return reply.status(201).send(result);
      },
    );

    uploads.put(
      '/songs/:id',
      {
        schema: {
          tags: ['songs'],
          summary: 'Edit a song; a new audio file is transcoded again',
          consumes: multipart,
          params: IdParams,
          response: { 200: SongMutationResponse, ...uploadErrors },
        },
      },
      async (request) => {
        const user = await requireRole(request, ...CATALOG_EDITOR_ROLES);
        return withForm(request, dataDir, songFiles(uploadLimits), (form) =>
          writes.update(user, request.params.id, form),
        );
      },
    );
  };
  await app.register(formRoutes);

  app.get(
    '/songs/:id/buyers',
    {
      schema: {
        tags: ['songs'],
        summary: 'How many accounts bought the song (or its album): they keep it if it is deleted',
        params: IdParams,
        response: { 200: CatalogBuyersResponse, ...errors },
      },
    },
    async (request) => writes.buyers(await requireRole(request, ...CATALOG_EDITOR_ROLES), request.params.id),
  );

  app.delete(
    '/songs/:id',
    {
      schema: {
        tags: ['songs'],
        summary:
          'Delete a song: an unsold one with its media; a sold one leaves the catalogue but stays with its buyers',
        params: IdParams,
        response: { 200: CatalogDeleteResponse, ...errors },
      },
    },
    async (request) => writes.delete(await requireRole(request, ...CATALOG_EDITOR_ROLES), request.params.id),
  );
};
