import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HealthResponse } from '@backbeat/contract';
import { sql, type Database } from '../../db/client';
import { AppError } from '../../platform/errors';

const startedAt = Date.now();

export const healthRoutes: FastifyPluginAsyncZod<{ database: Database }> = async (app, { database }) => {
  app.get(
    '/health',
    {
      schema: { tags: ['system'], summary: 'Liveness and database check', response: { 200: HealthResponse } },
    },
    async () => {
      try {
        await database.query(sql`select 1 as ok`);
      } catch {
        throw new AppError(503, 'DATABASE_UNAVAILABLE', 'Database unavailable');
      }
      return {
        status: 'ok' as const,
        database: database.kind,
        uptimeSec: Math.round((Date.now() - startedAt) / 1000),
      };
    },
  );
};
