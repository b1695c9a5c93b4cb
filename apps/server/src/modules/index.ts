import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { createMediaStore, type MediaStore } from '../storage';
import { JobRunner } from '../jobs/job-runner';
import { CataloguePreparation } from '../platform/catalogue-preparation';
import { ChangeBus } from '../platform/change-bus';
import { AccountErasure } from '../platform/account-erasure';
import type { ResponseCache } from '../platform/response-cache';
import { SessionCache, type SessionRevocations } from '../platform/session-cache';
import { EntitlementEvents } from './access';
import { registerAuthModule } from './auth';
import { createCatalogCache, registerCatalog } from './catalog';
import { registerDashboard } from './dashboard';
import { registerDownloads } from './downloads';
import { attachMailLogger, createMailer, type Mailer } from './mail';
import { registerPlaylists } from './playlists';
import { registerPaymentJobs, registerPayments } from './payments';
import { registerRenditionJobs } from './renditions';
import { isPublicMedia, registerStreaming } from './streaming';

/** Collaborators shared by the modules; tests may replace any of them. */
export interface AppServices {
  mediaStore: MediaStore;
  jobs: JobRunner;
  mailer: Mailer;
  /** Cached public catalogue answers: call `invalidateUser(userId)` after an account's entitlements change. */
  catalogCache: ResponseCache;
  /** Recently confirmed sign-in sessions; emptied through `revocations`, on every instance. */
  sessionCache: SessionCache;
  /** Whatever ends a session calls `forgetSession` / `forgetUser` here after its write. */
  revocations: SessionRevocations;
  /** Announces entitlement changes (payments, refunds, renewals); caches that depend on them listen. */
  entitlements: EntitlementEvents;
  /** Cache invalidations shared with the other instances and workers (LISTEN/NOTIFY). */
  changes: ChangeBus;
  /** The time every access decision and payment uses; tests move it together with the gateway emulator's. */
  clock: () => Date;
  /** The first start's demo catalogue preparation (`ready` unless main.ts starts a demo seed). */
  preparation: CataloguePreparation;
  /** What deleting an account also removes in other modules (gateway customers, payloads, mail). */
  accountErasure: AccountErasure;
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
  const clock = overrides.clock ?? (() => new Date());
  const changes = overrides.changes ?? new ChangeBus(database);
  const catalogCache = overrides.catalogCache ?? createCatalogCache(database.db, clock);
  const sessionCache = overrides.sessionCache ?? new SessionCache();
  const jobs =
    overrides.jobs ??
    new JobRunner(database.db, { concurrency: 2, announce: () => changes.publish({ kind: 'jobs' }) });
  changes.on((change) => {
    if (change.kind === 'session') sessionCache.forgetSession(change.sessionId);
    else if (change.kind === 'user') sessionCache.forgetUser(change.userId);
    else if (change.kind === 'reset') sessionCache.forgetAll();
    else if (change.kind === 'jobs') jobs.wake();
  });
  const entitlements = overrides.entitlements ?? new EntitlementEvents(changes);
  entitlements.on((change) => {
    if ('userId' in change) catalogCache.invalidateUser(change.userId);
    else catalogCache.invalidate();
  });
  return {
    mediaStore: overrides.mediaStore ?? createMediaStore(config.mediaStore, isPublicMedia),
    jobs,
    mailer: overrides.mailer ?? createMailer(config, database.db),
    catalogCache,
    sessionCache,
    revocations: overrides.revocations ?? {
      forgetSession: (sessionId) => changes.publish({ kind: 'session', sessionId }),
      forgetUser: (userId) => changes.publish({ kind: 'user', userId }),
    },
    entitlements,
    changes,
    clock,
    preparation: overrides.preparation ?? CataloguePreparation.ready(),
    accountErasure: overrides.accountErasure ?? new AccountErasure(),
  };
}

/** The background jobs' handlers: the API registers them too (`JOBS=inline`), a worker only these. */
export function registerJobHandlers(context: ModuleContext): void {
  registerRenditionJobs(context);
  registerPaymentJobs(context);
}

/** Every domain module registers its routes here, under /api. */
export async function registerModules(api: FastifyInstance, context: ModuleContext): Promise<void> {
  attachMailLogger(context.services.mailer, api.log);
  // Job failures, retries and recoveries go to the app's log, with the job's id, type and attempt.
  context.services.jobs.useLogger(api.log);
  await registerAuthModule(api, context);
  await registerCatalog(api, context);
  await registerStreaming(api, context);
  await registerPlaylists(api, context);
  await registerDashboard(api, context);
  await registerPayments(api, context);
  await registerDownloads(api, context);
  registerJobHandlers(context);
}
