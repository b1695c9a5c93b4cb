import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app';
import { clearScratchSpace, createLogger, loadConfigOrExit, onShutdownSignal } from './bootstrap';
import { describeMediaStore } from './storage';
import { databaseOptionsFromConfig, openDatabase } from './db/client';
import { demoSeedNeeded, seedDemoOnStartup } from './demo/demo-seed';
import { announceDemoAccounts, reportPreparation } from './demo/demo-seed-console';
import { configWithDevIssuer, startDevOidcIssuer } from './modules/auth';
import { queueStartupWork } from './modules/renditions';
import { startDevEmulator } from './modules/payments';
import { listenEarly } from './modules/system';
import { CataloguePreparation } from './platform/catalogue-preparation';
import { elapsed, StatusLine } from './platform/status-line';

const here = path.dirname(fileURLToPath(import.meta.url));
const webDistDir = path.resolve(here, '../../web/dist');

/**
 * The API (and, with `JOBS=inline`, the default, the background jobs): `npm start`. It listens at once (a page says
 * Backbeat is starting while the database opens and migrates); a first start then prepares the demo catalogue
 * while browsers see its progress (modules/system/preparing-gate.ts) and the console one line that updates.
 */
async function main() {
  const started = Date.now();
  let config = loadConfigOrExit();
  const status = new StatusLine();
  const logger = createLogger(config, { status });

  if (config.envAssumed) {
    logger.warn(
      'NODE_ENV is not set: running as development (test payments, cookies without Secure, generated secret). ' +
        'Set NODE_ENV=production to deploy.',
    );
  }

  const starting = { step: 'opening the database' };
  const early = await listenEarly({ port: config.port, host: config.host, state: starting });
  logger.info(`listening on ${config.publicUrl} (starting)`);
  const startingLine = status.follow(() => `Starting Backbeat: ${starting.step} · ${elapsed(started)}`);

  let closeEmulator = async () => undefined as void;
  if (config.payments.emulator) {
    starting.step = 'starting the payment gateway emulator';
    const emulated = await startDevEmulator(config, logger);
    config = emulated.config;
    closeEmulator = emulated.close;
    starting.step = 'opening the database';
  }
  let closeIssuer = async () => undefined as void;
  if (config.oidcEmulator) {
    const issuer = await startDevOidcIssuer({ host: '127.0.0.1' });
    config = configWithDevIssuer(config, issuer);
    closeIssuer = issuer.close;
    logger.warn(
      { issuer: issuer.issuer },
      'social sign-in runs in TEST MODE against a local OpenID Connect issuer: "Continue with Google" asks ' +
        'for no password and signs in as any e-mail (configure OIDC_PROVIDERS for real providers)',
    );
  }

  const database = await openDatabase(databaseOptionsFromConfig(config));
  starting.step = 'migrating the database';
  startingLine.draw();
  await database.migrate();
  startingLine.stop();
  logger.info(
    { database: database.kind, dataDir: config.dataDir, media: describeMediaStore(config.mediaStore) },
    'database ready',
  );

  // What a killed predecessor left: its half-written uploads and transcodes go (an ffmpeg it left is stopped), before
  // this process answers anything (only scratch whose owner process is gone is removed).
  await clearScratchSpace(config, logger);
  const seeding = await demoSeedNeeded(config, database);
  const preparation = seeding ? CataloguePreparation.preparing() : CataloguePreparation.ready();
  const app = await buildApp({
    config,
    database,
    webDistDir,
    logger,
    services: { preparation },
    serverFactory: early.serverFactory,
  });
  const { jobs } = app.services;

  let shuttingDown = false;
  onShutdownSignal(logger, async () => {
    shuttingDown = true;
    status.clear();
    await app.close(); // Stops the jobs, then the change bus.
    await early.close(); // The app answers on the early listener's server, which it does not close itself.
    await database.close();
    await closeEmulator();
    await closeIssuer();
  });

  await app.ready();
  early.handOver();
  logger.info(
    `Backbeat is listening on ${config.publicUrl}` +
      (seeding ? ' (first start: the page shows the demo catalogue being prepared)' : ''),
  );
  if (seeding) announceDemoAccounts(config, logger);
  const stopReporting = reportPreparation(preparation, { status, log: logger });

  try {
    await seedDemoOnStartup({ config, database, services: app.services, log: logger });
    // The jobs a killed predecessor was running are taken back at once by the runner's start.
    await queueStartupWork(jobs);
    if (config.jobs === 'inline') await jobs.start();
    else logger.info('JOBS=off: this instance queues background jobs; `npm run worker` processes run them');
  } catch (error) {
    if (shuttingDown) return; // The database closed under the seed: the shutdown says what happened.
    throw error;
  } finally {
    stopReporting();
  }
  if (seeding) {
    logger.info(
      `Demo catalogue ready in ${Math.round((Date.now() - started) / 100) / 10} s: open ${config.publicUrl}`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? `Backbeat failed to start: ${error.message}` : error);
  process.exit(1);
});
