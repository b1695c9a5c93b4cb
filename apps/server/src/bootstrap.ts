import pino from 'pino';
import { ConfigError, loadConfig, type Config } from './config';

/** What `main.ts` (the API) and `worker.ts` (jobs only) share before they open the database. */

/** The configuration, or exit(1) with the one-line message naming the bad variable. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

export function createLogger(config: Config) {
  return pino({
    level: config.logLevel,
    redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
    transport: config.isProduction
      ? undefined
      : { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss' } },
  });
}

/** Runs `shutdown` once on the first SIGINT or SIGTERM, then exits 0. */
export function onShutdownSignal(log: pino.Logger, shutdown: () => Promise<void>): void {
  const handle = (signal: string) => {
    log.info({ signal }, 'shutting down');
    shutdown().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => handle('SIGINT'));
  process.once('SIGTERM', () => handle('SIGTERM'));
}
