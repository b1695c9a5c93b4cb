import path from 'node:path';
import pino from 'pino';
import { ConfigError, loadConfig, type Config } from './config';
import { sweepScratchSpace } from './storage/scratch-space';

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

/**
 * Removes the scratch folders (uploads streaming in, transcodes) of processes that are gone, and stops an ffmpeg one
 * of them left running. Each process does it at start for its own DATA_DIR, whether or not it runs jobs.
 */
export async function clearScratchSpace(config: Config, log: pino.Logger): Promise<void> {
  const swept = await sweepScratchSpace(path.join(config.dataDir, 'tmp'));
  if (swept.removed.length > 0)
    log.warn({ ...swept }, 'removed scratch folders of processes that were killed');
}
