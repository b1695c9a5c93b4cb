import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse, HomeResponse } from '@backbeat/contract';
import { requireUser } from '../../platform/auth';
import type { HomeService } from './home.service';

/** GET /home: the signed-in listener's shelves (per listener and per play: never cached). */
export const homeRoutes: FastifyPluginAsyncZod<{ home: HomeService }> = async (app, { home }) => {
  app.get(
    '/home',
    {
      schema: {
        tags: ['songs'],
        summary:
          "The signed-in listener's home shelves: recently played, free to stream, their genres, popular this week, new albums, artists they back; no song twice",
        response: { 200: HomeResponse, 401: ErrorResponse },
      },
    },
    async (request) => home.home(await requireUser(request)),
  );
};
