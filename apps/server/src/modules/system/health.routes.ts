import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse, HealthResponse } from '@backbeat/contract';
import { sql, type Database } from '../../db/client';
import { DATABASE_UNAVAILABLE } from '../../platform/database-unavailable';
import { AppError } from '../../platform/errors';

const startedAt = Date.now();

export const healthRoutes: FastifyPluginAsyncZod<{ database: Database }> = async (app, { database }) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['system'],
        summary: 'Liveness and database check',
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
      return {
        status: 'ok' as const,
        database: database.kind,
        uptimeSec: Math.round((Date.now() - startedAt) / 1000),
      };
    },
  );
};
