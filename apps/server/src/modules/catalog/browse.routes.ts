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
  GenresResponse,
  IdParams,
  PageQuery10,
  RandomArtistResponse,
  SearchQuery,
  SearchResponse,
} from '@backbeat/contract';
import { z } from 'zod';
import { errorAnswers, routeGroup } from '../../platform/route-docs';
import type { ResponseCache } from '../../platform/response-cache';
import type { CatalogBrowseService } from './catalog-browse.service';

const errors = errorAnswers(400, 404);
const artist = routeGroup(['artists'], errors);
const search = routeGroup(['search'], errors);

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
  const cachedArtists = routeGroup(['artists'], errors, cachedForEveryone);
  const cachedAlbums = routeGroup(['albums'], errors, cachedForEveryone);

  app.get(
    '/artists',
    cachedArtists(
      {
        summary: 'Artists, alphabetical; with `q`, a typo-tolerant artist search',
        querystring: ArtistsQuery,
      },
      { 200: z.union([ArtistsResponse, ArtistSearchResponse]) },
    ),
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

  app.get('/artists/:id', cachedArtists({ params: IdParams }, { 200: ArtistResponse }), (request) =>
    browse.artist(request.params.id),
  );

  app.get(
    '/discover/random-artist',
    artist(
      { summary: 'A random artist with playable songs, and a page of their songs', querystring: PageQuery10 },
      { 200: RandomArtistResponse },
    ),
    async (request) => browse.randomArtist(await request.getUser(), request.query),
  );

  app.get(
    '/albums',
    cachedAlbums({ summary: 'Albums, newest first', querystring: AlbumsQuery }, { 200: AlbumsResponse }),
    (request) => browse.albums(request.query),
  );

  app.get(
    '/albums/artist/:id',
    cachedAlbums(
      { summary: "An artist's albums, latest release first", params: IdParams, querystring: AlbumsQuery },
      { 200: ArtistAlbumsResponse },
    ),
    (request) => browse.albumsOfArtist(request.params.id, request.query),
  );

  app.get('/albums/:id', cachedAlbums({ params: IdParams }, { 200: AlbumResponse }), async (request) => {
    const answer = await browse.album(await request.getUser(), request.params.id);
    // A deleted album is answered to its buyers only: that answer is not everyone's to share.
    if (answer.album.removed) cache.doNotStore(request);
    return answer;
  });

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
    search(
      {
        summary: 'Artists, songs and albums matching `q` (at most 20 each, best first)',
        querystring: SearchQuery,
      },
      { 200: SearchResponse },
    ),
    async (request) => browse.search(await request.getUser(), request.query.q),
  );
};
