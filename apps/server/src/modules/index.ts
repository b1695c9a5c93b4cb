import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { LocalMediaStore, type MediaStore } from '../storage/media-store';
import { JobRunner } from '../jobs/job-runner';
import { registerAuthModule } from './auth';
import { registerCatalog } from './catalog';
import { attachMailLogger, createMailer, type Mailer } from './mail';
import { registerStreaming } from './streaming';

/** Collaborators shared by the modules; tests may replace any of them. */
export interface AppServices {
  mediaStore: MediaStore;
  jobs: JobRunner;
  mailer: Mailer;
}

export interface ModuleContext {
  config: Config;
  database: Database;
  services: AppServices;
}

export function createServices(
  config: Config,
  database: Database,
  overrides: Partial<AppServices> = {},
): AppServices {
  return {
    mediaStore: overrides.mediaStore ?? new LocalMediaStore(config.mediaDir),
    jobs: overrides.jobs ?? new JobRunner(database.db, { concurrency: 2 }),
    mailer: overrides.mailer ?? createMailer(config, database.db),
  };
}

/** Every domain module registers its routes here, under /api. */
export async function registerModules(api: FastifyInstance, context: ModuleContext): Promise<void> {
  attachMailLogger(context.services.mailer, api.log);
  await registerAuthModule(api, context);
  await registerCatalog(api, context);
  await registerStreaming(api, context);
}
