import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AlbumMutationResponse,
  ArtistMutationResponse,
  CatalogBuyersResponse,
  CatalogDeleteResponse,
  IdParams,
  MessageResponse,
} from '@backbeat/contract';
import { requireRole } from '../../platform/auth';
import { errorAnswers, routeGroup } from '../../platform/route-docs';
import type { AlbumWriteService } from './album-write.service';
import type { ArtistWriteService } from './artist-write.service';
import { CATALOG_EDITOR_ROLES } from '../access';
import type { UploadLimits } from '../../config';
import { albumFiles, artistFiles, registerFormRoutes } from './catalog-form';

const errors = errorAnswers(400, 401, 403, 404, 409);
const consumes = ['multipart/form-data', 'application/json'];
const artistEdit = routeGroup(['artists'], errors);
const albumEdit = routeGroup(['albums'], errors);

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

  await registerFormRoutes(app, {
    path: '/artists',
    tags: ['artists'],
    summary: {
      create:
        'Create an artist profile (multipart: name, bio, genre, subscriptionPrice, allowSubscriberDownloads, image)',
    },
    answer: ArtistMutationResponse,
    errors,
    consumes,
    files: artistFiles,
    uploadLimits,
    dataDir,
    writes: artists,
  });

  app.delete(
    '/artists/:id',
    artistEdit(
      {
        summary:
          'Delete an artist with their songs and albums (409 ARTIST_HAS_BUYERS while anyone holds music of theirs)',
        params: IdParams,
      },
      { 200: MessageResponse },
    ),
    async (request) => artists.delete(await editor(request), request.params.id),
  );

  await registerFormRoutes(app, {
    path: '/albums',
    tags: ['albums'],
    summary: {
      create:
        'Create an album (multipart: title, description, artist, cover, genre, songs, price, isPremium)',
    },
    answer: AlbumMutationResponse,
    errors,
    consumes,
    files: albumFiles,
    uploadLimits,
    dataDir,
    writes: albums,
  });

  app.get(
    '/albums/:id/buyers',
    albumEdit(
      { summary: 'How many accounts bought the album: they keep it if it is deleted', params: IdParams },
      { 200: CatalogBuyersResponse },
    ),
    async (request) => albums.buyers(await editor(request), request.params.id),
  );

  app.delete(
    '/albums/:id',
    albumEdit(
      {
        summary:
          'Delete an album; its songs stay, without an album. A sold album leaves the catalogue but stays with its buyers',
        params: IdParams,
      },
      { 200: CatalogDeleteResponse },
    ),
    async (request) => albums.delete(await editor(request), request.params.id),
  );
};
