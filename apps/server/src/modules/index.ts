import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { LocalMediaStore, type MediaStore } from '../storage/media-store';
import { JobRunner } from '../jobs/job-runner';

/** Collaborators shared by the modules; tests may replace any of them. */
export interface AppServices {
  mediaStore: MediaStore;
  jobs: JobRunner;
}

export interface ModuleContext {
  config: Config;
  database: Database;
  services: AppServices;
}

export function createServices(config: Config, database: Database, overrides: Partial<AppServices> = {}): AppServices {
  return {
    mediaStore: overrides.mediaStore ?? new LocalMediaStore(config.mediaDir),
    jobs: overrides.jobs ?? new JobRunner(database.db, { concurrency: 2 }),
  };
}

/** Every domain module registers its routes here, under /api. */
export async function registerModules(api: FastifyInstance, context: ModuleContext): Promise<void> {
  void api;
  void context;
}
