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
import type { ResponseCache } from '../../platform/response-cache';
import type { CatalogBrowseService } from './catalog-browse.service';

const errors = { 400: ErrorResponse, 404: ErrorResponse };

/** Public reads of artists, albums, genres, discovery and search. */
/**
 * Answers that are the same for every viewer are served from `cache`. Search is not cached: its long tail of
 * queries would only churn the cache, and its songs carry the viewer's `canPlay`.
 */
export const browseRoutes: FastifyPluginAsyncZod<{
  browse: CatalogBrowseService;
  cache: ResponseCache;
}> = async (app, { browse, cache }) => {
  const cachedForEveryone = cache.route('everyone');

  app.get(
    '/artists',
    {
      ...cachedForEveryone,
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
      ...cachedForEveryone,
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
    {
      ...cachedForEveryone,
      schema: { tags: ['artists'], params: IdParams, response: { 200: ArtistResponse, ...errors } },
    },
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
      ...cachedForEveryone,
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
      ...cachedForEveryone,
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
    {
      ...cachedForEveryone,
      schema: { tags: ['albums'], params: IdParams, response: { 200: AlbumResponse, ...errors } },
    },
    async (request) => {
      const answer = await browse.album(await request.getUser(), request.params.id);
      // A deleted album is answered to its buyers only: that answer is not everyone's to share.
      if (answer.album.removed) cache.doNotStore(request);
      return answer;
    },
  );

  app.get(
    '/genres',
    {
      ...cachedForEveryone,
      schema: { tags: ['genres'], summary: 'All genres by name', response: { 200: GenresResponse } },
    },
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
