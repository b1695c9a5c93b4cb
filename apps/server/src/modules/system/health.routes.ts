import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse, HealthResponse } from '@backbeat/contract';
import { sql, type Database } from '../../db/client';
import type { CataloguePreparation } from '../../platform/catalogue-preparation';
import { DATABASE_UNAVAILABLE } from '../../platform/database-unavailable';
import { AppError } from '../../platform/errors';

const startedAt = Date.now();

export const healthRoutes: FastifyPluginAsyncZod<{
  database: Database;
  preparation: CataloguePreparation;
}> = async (app, { database, preparation }) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['system'],
        summary: 'Liveness and database check, with the demo catalogue preparation of a first start',
        description:
          'Answers 200 while the process lives and reaches its database. On a first start the demo catalogue is ' +
          'prepared after the server listens: `catalogue.state` is `preparing` (other API calls answer 503 ' +
          '`CATALOGUE_PREPARING`) until it becomes `ready`.',
        response: { 200: HealthResponse, 503: ErrorResponse },
      },
    },
    async () => {
      try {
        await database.query(sql`select 1 as ok`);
      } catch {
        throw new AppError(
          DATABASE_UNAVAILABLE.status,
          DATABASE_UNAVAILABLE.code,
          DATABASE_UNAVAILABLE.message,
        );
      }
      const { state, step, songsReady, songsTotal } = preparation.snapshot();
      return {
        status: 'ok' as const,
        database: database.kind,
        uptimeSec: Math.round((Date.now() - startedAt) / 1000),
        catalogue: { state, step, songsReady, songsTotal },
      };
    },
  );
};
