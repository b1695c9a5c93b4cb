import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AlbumMutationResponse,
  ArtistMutationResponse,
  CatalogBuyersResponse,
  CatalogDeleteResponse,
  ErrorResponse,
  IdParams,
  MessageResponse,
} from '@backbeat/contract';
import { requireRole } from '../../platform/auth';
import type { AlbumWriteService } from './album-write.service';
import type { ArtistWriteService } from './artist-write.service';
import { CATALOG_EDITOR_ROLES } from '../access';
import type { UploadLimits } from '../../config';
import { albumFiles, artistFiles, withForm } from './catalog-form';
import { acceptForms, UPLOAD_ERROR_RESPONSES } from './upload-form';

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
};
const uploadErrors = { ...errors, ...UPLOAD_ERROR_RESPONSES };
const consumes = ['multipart/form-data', 'application/json'];

export interface CatalogWriteRoutesOptions {
  artists: ArtistWriteService;
  albums: AlbumWriteService;
  dataDir: string;
  uploadLimits: UploadLimits;
}

/** Artist and album management (song uploads live in songs.routes.ts). */
export const catalogWriteRoutes: FastifyPluginAsyncZod<CatalogWriteRoutesOptions> = async (app, options) => {
  const { artists, albums, dataDir, uploadLimits } = options;
  const editor = (request: Parameters<typeof requireRole>[0]) =>
    requireRole(request, ...CATALOG_EDITOR_ROLES);
  await acceptForms(app, uploadLimits);

  app.post(
    '/artists',
    {
      schema: {
        tags: ['artists'],
        summary:
          'Create an artist profile (multipart: name, bio, genre, subscriptionPrice, allowSubscriberDownloads, image)',
        consumes,
        response: { 201: ArtistMutationResponse, ...uploadErrors },
      },
    },
    async (request, reply) => {
      const user = await editor(request);
      const result = await withForm(request, dataDir, artistFiles(uploadLimits), (form) =>
        artists.create(user, form),
      );
      return reply.status(201).send(result);
    },
  );

  app.put(
    '/artists/:id',
    {
      schema: {
        tags: ['artists'],
        consumes,
        params: IdParams,
        response: { 200: ArtistMutationResponse, ...uploadErrors },
      },
    },
    async (request) => {
      const user = await editor(request);
      return withForm(request, dataDir, artistFiles(uploadLimits), (form) =>
        artists.update(user, request.params.id, form),
      );
    },
  );

  app.delete(
    '/artists/:id',
    {
      schema: {
        tags: ['artists'],
        summary:
          'Delete an artist with their songs and albums (409 ARTIST_HAS_BUYERS while anyone holds music of theirs)',
        params: IdParams,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request) => artists.delete(await editor(request), request.params.id),
  );

  app.post(
    '/albums',
    {
      schema: {
        tags: ['albums'],
        summary:
          'Create an album (multipart: title, description, artist, cover, genre, songs, price, isPremium)',
        consumes,
        response: { 201: AlbumMutationResponse, ...uploadErrors },
      },
    },
    async (request, reply) => {
      const user = await editor(request);
      const result = await withForm(request, dataDir, albumFiles(uploadLimits), (form) =>
        albums.create(user, form),
      );
      return reply.status(201).send(result);
    },
  );

  app.put(
    '/albums/:id',
    {
      schema: {
        tags: ['albums'],
        consumes,
        params: IdParams,
        response: { 200: AlbumMutationResponse, ...uploadErrors },
      },
    },
    async (request) => {
      const user = await editor(request);
      return withForm(request, dataDir, albumFiles(uploadLimits), (form) =>
        albums.update(user, request.params.id, form),
      );
    },
  );

  app.get(
    '/albums/:id/buyers',
    {
      schema: {
        tags: ['albums'],
        summary: 'How many accounts bought the album: they keep it if it is deleted',
        params: IdParams,
        response: { 200: CatalogBuyersResponse, ...errors },
      },
    },
    async (request) => albums.buyers(await editor(request), request.params.id),
  );

  app.delete(
    '/albums/:id',
    {
      schema: {
        tags: ['albums'],
        summary:
          'Delete an album; its songs stay, without an album. A sold album leaves the catalogue but stays with its buyers',
        params: IdParams,
        response: { 200: CatalogDeleteResponse, ...errors },
      },
    },
    async (request) => albums.delete(await editor(request), request.params.id),
  );
};
