import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LikeResponse, LikeSongParams, UpdateGenresBody, UpdateGenresResponse } from '@backbeat/contract';
import { requireUser } from '../../platform/auth';
import { errorAnswers, routeGroup } from '../../platform/route-docs';
import type { PreferencesService } from './preferences.service';

const route = routeGroup(['users'], errorAnswers(400, 401, 403, 404));

/** Preferred genres and liked songs of the signed-in user. */
export const preferencesRoutes: FastifyPluginAsyncZod<{ preferences: PreferencesService }> = async (
  app,
  { preferences },
) => {
  app.put(
    '/users/update-genres',
    route(
      { summary: 'Replace the preferred genres (names or slugs)', body: UpdateGenresBody },
      { 200: UpdateGenresResponse },
    ),
    async (request) => {
      const preferredGenres = await preferences.updateGenres(await requireUser(request), request.body.genres);
      return { message: 'Preferred genres updated', preferredGenres };
    },
  );

  app.put(
    '/users/likedsong/:songId',
    route(
      { summary: 'Like the song, or unlike it when already liked', params: LikeSongParams },
      { 200: LikeResponse },
    ),
    async (request) => {
      const result = await preferences.toggleLike(await requireUser(request), request.params.songId);
      const message = result.liked ? 'Song added to liked songs' : 'Song removed from liked songs';
      return { message, ...result };
    },
  );
};
