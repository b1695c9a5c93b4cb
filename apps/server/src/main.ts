import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { ConfigError, loadConfig } from './config';
import { buildApp } from './app';
import { databaseOptionsFromConfig, openDatabase } from './db/client';
import { seedDemoOnStartup } from './db/seed/demo-seed';
import { startDevEmulator } from './modules/payments/dev-emulator';

const here = path.dirname(fileURLToPath(import.meta.url));
const webDistDir = path.resolve(here, '../../web/dist');

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const logger = pino({
    level: config.logLevel,
    redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
    transport: config.isProduction
      ? undefined
      : { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss' } },
  });

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

  const database = await openDatabase(databaseOptionsFromConfig(config));
  await database.migrate();
  logger.info({ database: database.kind, dataDir: config.dataDir }, 'database ready');

  const app = await buildApp({ config, database, webDistDir, logger });
  const { jobs } = app.services;

  await seedDemoOnStartup({ config, database, services: app.services, log: logger });
  jobs.start();

  await app.listen({ port: config.port, host: config.host });
  logger.info(`Backbeat is listening on ${config.publicUrl}`);

  const shutdown = async (signal: string) => {
    logger.info({ signal }, 'shutting down');
    await app.close();
    await jobs.stop();
    await database.close();
    await closeEmulator();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? `Backbeat failed to start: ${error.message}` : error);
  process.exit(1);
});
