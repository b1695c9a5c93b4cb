import { clearScratchSpace, createLogger, loadConfigOrExit, onShutdownSignal } from './bootstrap';
import { describeMediaStore } from './storage';
import { databaseOptionsFromConfig, openDatabase } from './db/client';
import { JobRunner } from './jobs/job-runner';
import { ChangeBus } from './platform/change-bus';
import { createServices, registerJobHandlers } from './modules';
import { attachMailLogger } from './modules/mail';

/**
 * A job worker, `npm run worker`: the background jobs (transcodes, receipts) without any HTTP. Run one or more
 * next to API instances started with `JOBS=off`; they share only PostgreSQL and the media store. Jobs are claimed
 * with FOR UPDATE SKIP LOCKED, so each runs once whatever the number of workers; a queued job reaches a worker at
 * once over the change bus (else at its next poll, within a second). SIGTERM lets running jobs finish, then exits.
 */
async function main() {
  const config = loadConfigOrExit();
  const logger = createLogger(config).child({ role: 'worker' });
  if (!config.databaseUrl) {
    logger.fatal(
      'npm run worker needs DATABASE_URL: the embedded database is open in one process at a time, ' +
        'and `npm start` runs the jobs itself',
    );
    process.exit(1);
  }

  const database = await openDatabase(databaseOptionsFromConfig(config));
  await database.migrate(); // Under an advisory lock: safe while API instances start too.
  const changes = new ChangeBus(database);
  const jobs = new JobRunner(database.db, {
    concurrency: 2,
    log: logger,
    announce: () => changes.publish({ kind: 'jobs' }),
  });
  const services = createServices(config, database, { changes, jobs });
  attachMailLogger(services.mailer, logger);
  registerJobHandlers({ config, database, services });
  await changes.start(logger);
  await clearScratchSpace(config, logger);
  await jobs.start(); // Takes back at once the jobs of a killed worker on this machine.
  logger.info(
    { database: database.kind, media: describeMediaStore(config.mediaStore) },
    'worker running jobs',
  );

  onShutdownSignal(logger, async () => {
    await jobs.stop(); // Running jobs finish; a killed one is taken back at the next start, or after its lease.
    await changes.close();
    await database.close();
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? `Backbeat worker failed to start: ${error.message}` : error);
  process.exit(1);
});
