import path from 'node:path';
import pino from 'pino';
import pretty, { type PrettyOptions } from 'pino-pretty';
import { ConfigError, loadConfig, type Config } from './config';
import type { StatusLine } from './platform/status-line';
import { sweepScratchSpace } from './storage';

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

/** The fields of one access-log record (platform/request-log.ts). */
interface AccessRecord {
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
}

/**
 * Development console: one line per log record. An access record reads `GET /api/songs 200 1.8 ms` (its fields are
 * kept whole in production's JSON lines); other records keep their fields on the same line; errors keep their stack.
 */
export const prettyOptions: PrettyOptions = {
  translateTime: 'HH:MM:ss',
  singleLine: true,
  ignore: 'pid,hostname,reqId,req,res,responseTime',
  messageFormat: (record, messageKey) => {
    const { req, res, responseTime } = record as AccessRecord;
    if (req?.method && res?.statusCode && typeof responseTime === 'number')
      return `${req.method} ${req.url} ${res.statusCode} ${responseTime.toFixed(1)} ms`;
    return String(record[messageKey] ?? '');
  },
};

const redact = ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'];

/**
 * Production: JSON lines on stdout. Elsewhere: pino-pretty in this process (a function formats the access lines,
 * which a transport's worker thread cannot take), written through `status` so that a terminal's progress line
 * stays below the log.
 */
export function createLogger(
  config: Config,
  options: { status?: StatusLine; destination?: NodeJS.WritableStream } = {},
): pino.Logger {
  if (config.isProduction) return pino({ level: config.logLevel, redact });
  const destination = options.destination ?? options.status?.logStream() ?? process.stdout;
  return pino({ level: config.logLevel, redact }, pretty({ ...prettyOptions, destination }));
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
