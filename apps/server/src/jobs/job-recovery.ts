import { and, eq, sql } from 'drizzle-orm';
import type { AppDb } from '../db/client';
import { jobs } from '../db/schema';
import { parseIdentity, processState } from '../platform/process-identity';
import { requeuedDedupeKey } from './job-queue';

/** The logger calls the job runner makes (pino's signature). */
export interface JobLog {
  /** Routine outcomes (a job done): one line per job would drown a first start's console at info. */
  debug?(details: object, message: string): void;
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface RecoveryOptions {
  leaseMs: number;
  /** The recovering runner's own id: its jobs are alive by definition. */
  self: string;
  log: JobLog;
  abandoned: (
    type: string,
  ) =>
    ((payload: Record<string, unknown>, job: { id: string; attempts: number }) => Promise<void>) | undefined;
}

function describeHolder(lockedBy: string | null): string {
  const holder = parseIdentity(lockedBy);
  return holder ? `pid ${holder.pid} on ${holder.machine.split('/')[0]}` : 'an unknown worker';
}

/**
 * Running jobs whose worker is gone go back to the queue (or fail, when that was their last attempt). Gone means:
 * a process on this machine that no longer runs (decided at once, so a restart resumes its jobs immediately), or
 * a lease not renewed in time (any machine). The update only applies while the job is still held by the same
 * worker, so two processes recovering at once cannot both take it. Returns how many jobs were taken back.
 */
export async function recoverAbandonedJobs(db: AppDb, options: RecoveryOptions): Promise<number> {
  const rows = await db
    .select({
      id: jobs.id,
      type: jobs.type,
      payload: jobs.payload,
      attempts: jobs.attempts,
      maxAttempts: jobs.maxAttempts,
      lockedBy: jobs.lockedBy,
      expired: sql<boolean>`coalesce(${jobs.lockedAt} < now() - (${options.leaseMs}::integer * interval '1 millisecond'), true)`,
    })
    .from(jobs)
    .where(eq(jobs.status, 'running'));
  let recovered = 0;
  for (const row of rows) {
    if (row.lockedBy === options.self) continue;
    const holder = parseIdentity(row.lockedBy);
    const holderDead = holder !== null && processState(holder) === 'dead';
    if (!row.expired && !holderDead) continue;
    const exhausted = row.attempts >= row.maxAttempts;
    const reason = `The worker running it (${describeHolder(row.lockedBy)}) ${holderDead ? 'stopped' : 'stopped renewing its lease'} before it finished`;
    const taken = await db
      .update(jobs)
      .set({
        status: exhausted ? 'failed' : 'queued',
        ...(exhausted ? {} : { dedupeKey: requeuedDedupeKey }),
        runAt: new Date(),
        lockedAt: null,
        lockedBy: null,
        lastError: reason,
        updatedAt: new Date(),
      })
      .where(
        and(
          eq(jobs.id, row.id),
          eq(jobs.status, 'running'),
          row.lockedBy === null ? sql`${jobs.lockedBy} is null` : eq(jobs.lockedBy, row.lockedBy),
        ),
      )
      .returning({ id: jobs.id });
    if (taken.length === 0) continue; // another process took it first
    recovered += 1;
    const details = {
      jobId: row.id,
      type: row.type,
      attempt: row.attempts,
      maxAttempts: row.maxAttempts,
      error: reason,
    };
    if (!exhausted) {
      options.log.warn(details, 'job interrupted; retrying');
      continue;
    }
    options.log.error(details, 'job interrupted on its last attempt; not retried');
    try {
      await options.abandoned(row.type)?.(row.payload, { id: row.id, attempts: row.attempts });
    } catch (error) {
      options.log.error({ jobId: row.id, type: row.type, err: error }, 'could not settle an abandoned job');
    }
  }
  return recovered;
}
