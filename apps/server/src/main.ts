import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app';
import { clearScratchSpace, createLogger, loadConfigOrExit, onShutdownSignal } from './bootstrap';
import { databaseOptionsFromConfig, openDatabase } from './db/client';
import { seedDemoOnStartup } from './demo/demo-seed';
import { queueStartupWork } from './modules/catalog';
import { configWithDevIssuer, startDevOidcIssuer } from './modules/auth/dev-oidc-issuer';
import { startDevEmulator } from './modules/payments/dev-emulator';

const here = path.dirname(fileURLToPath(import.meta.url));
const webDistDir = path.resolve(here, '../../web/dist');

/** The API (and, with `JOBS=inline`, the default, the background jobs): `npm start`. */
async function main() {
  let config = loadConfigOrExit();
  const logger = createLogger(config);

  if (config.envAssumed) {
    logger.warn(
      'NODE_ENV is not set: running as development (test payments, cookies without Secure, generated secret). ' +
        'Set NODE_ENV=production to deploy.',
    );
  }

  let closeEmulator = async () => undefined as void;
  if (config.payments.emulator) {
    const emulated = await startDevEmulator(config, logger);
    config = emulated.config;
    closeEmulator = emulated.close;
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
  await database.migrate();
  logger.info({ database: database.kind, dataDir: config.dataDir }, 'database ready');

  const app = await buildApp({ config, database, webDistDir, logger });
  const { jobs } = app.services;

  await seedDemoOnStartup({ config, database, services: app.services, log: logger });
  // What a killed predecessor left: its half-written uploads and transcodes go (an ffmpeg it left is stopped), and
  // the jobs it was running are taken back at once by the runner's start.
  await clearScratchSpace(config, logger);
  await queueStartupWork(jobs);
  if (config.jobs === 'inline') await jobs.start();
  else logger.info('JOBS=off: this instance queues background jobs; `npm run worker` processes run them');

  await app.listen({ port: config.port, host: config.host });
  logger.info(`Backbeat is listening on ${config.publicUrl}`);

  onShutdownSignal(logger, async () => {
    await app.close(); // Stops the jobs, then the change bus.
    await database.close();
    await closeEmulator();
    await closeIssuer();
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? `Backbeat failed to start: ${error.message}` : error);
  process.exit(1);
});
