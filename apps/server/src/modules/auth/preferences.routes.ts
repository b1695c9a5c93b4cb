import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ErrorResponse,
  LikeResponse,
  LikeSongParams,
  UpdateGenresBody,
  UpdateGenresResponse,
} from '@backbeat/contract';
import { requireUser } from '../../platform/auth';
import type { PreferencesService } from './preferences.service';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

/** Preferred genres and liked songs of the signed-in user. */
export const preferencesRoutes: FastifyPluginAsyncZod<{ preferences: PreferencesService }> = async (
  app,
  { preferences },
) => {
  const tags = ['users'];

  app.put(
    '/users/update-genres',
    {
      schema: {
        tags,
        summary: 'Replace the preferred genres (names or slugs)',
        body: UpdateGenresBody,
        response: { 200: UpdateGenresResponse, ...errors },
      },
    },
    async (request) => {
      const preferredGenres = await preferences.updateGenres(await requireUser(request), request.body.genres);
      return { message: 'Preferred genres updated', preferredGenres };
    },
  );

  app.put(
    '/users/likedsong/:songId',
    {
      schema: {
        tags,
        summary: 'Like the song, or unlike it when already liked',
        params: LikeSongParams,
        response: { 200: LikeResponse, ...errors },
      },
    },
    async (request) => {
      const result = await preferences.toggleLike(await requireUser(request), request.params.songId);
      const message = result.liked ? 'Song added to liked songs' : 'Song removed from liked songs';
      return { message, ...result };
    },
  );
};
