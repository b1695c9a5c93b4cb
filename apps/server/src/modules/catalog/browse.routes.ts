import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AlbumResponse,
  AlbumsQuery,
  AlbumsResponse,
  AllArtistsResponse,
  ArtistAlbumsResponse,
  ArtistResponse,
  ArtistSearchResponse,
  ArtistsQuery,
  ArtistsResponse,
  ErrorResponse,
  GenresResponse,
  IdParams,
  PageQuery10,
  RandomArtistResponse,
  SearchQuery,
  SearchResponse,
} from '@backbeat/contract';
import { z } from 'zod';
import type { CatalogBrowseService } from './catalog-browse.service';

const errors = { 400: ErrorResponse, 404: ErrorResponse };

/** Public reads of artists, albums, genres, discovery and search. */
export const browseRoutes: FastifyPluginAsyncZod<{ browse: CatalogBrowseService }> = async (
  app,
  { browse },
) => {
  app.get(
    '/artists',
    {
      schema: {
        tags: ['artists'],
        summary: 'Artists, alphabetical; with `q`, a typo-tolerant artist search',
        querystring: ArtistsQuery,
        response: { 200: z.union([ArtistsResponse, ArtistSearchResponse]), ...errors },
      },
    },
    async (request) => {
      const { q, ...page } = request.query;
      return q === undefined ? browse.artists(page) : browse.searchArtists(q, page);
    },
  );

  app.get(
    '/artists/all',
    {
      schema: {
        tags: ['artists'],
        summary: 'Every artist, alphabetical',
        response: { 200: AllArtistsResponse },
      },
    },
    () => browse.allArtists(),
  );

  app.get(
    '/artists/:id',
    { schema: { tags: ['artists'], params: IdParams, response: { 200: ArtistResponse, ...errors } } },
    (request) => browse.artist(request.params.id),
  );

  app.get(
    '/discover/random-artist',
    {
      schema: {
        tags: ['artists'],
        summary: 'A random artist with playable songs, and a page of their songs',
        querystring: PageQuery10,
        response: { 200: RandomArtistResponse, ...errors },
      },
    },
    async (request) => browse.randomArtist(await request.getUser(), request.query),
  );

  app.get(
    '/albums',
    {
      schema: {
        tags: ['albums'],
        summary: 'Albums, newest first',
        querystring: AlbumsQuery,
        response: { 200: AlbumsResponse, ...errors },
      },
    },
    (request) => browse.albums(request.query),
  );

  app.get(
    '/albums/artist/:id',
    {
      schema: {
        tags: ['albums'],
        summary: "An artist's albums, latest release first",
        params: IdParams,
        querystring: AlbumsQuery,
        response: { 200: ArtistAlbumsResponse, ...errors },
      },
    },
    (request) => browse.albumsOfArtist(request.params.id, request.query),
  );

  app.get(
    '/albums/:id',
    { schema: { tags: ['albums'], params: IdParams, response: { 200: AlbumResponse, ...errors } } },
    (request) => browse.album(request.params.id),
  );

  app.get(
    '/genres',
    { schema: { tags: ['genres'], summary: 'All genres by name', response: { 200: GenresResponse } } },
    () => browse.genres(),
  );

  app.get(
    '/search',
    {
      schema: {
        tags: ['search'],
        summary: 'Artists, songs and albums matching `q` (at most 20 each, best first)',
        querystring: SearchQuery,
        response: { 200: SearchResponse, ...errors },
      },
    },
    async (request) => browse.search(await request.getUser(), request.query.q),
  );
};
