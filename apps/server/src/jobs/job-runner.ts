import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { AppDb } from '../db/client';
import { jobs } from '../db/schema';
import { currentProcess } from '../platform/process-identity';
import { JobQueue, requeuedDedupeKey } from './job-queue';
import { recoverAbandonedJobs, type JobLog } from './job-recovery';

export type { JobLog } from './job-recovery';

export type JobHandler = (
  payload: Record<string, unknown>,
  job: { id: string; attempts: number },
) => Promise<void>;

export interface JobTypeOptions {
  /**
   * Called when the runner gives up on a job without its handler having had the last word: its worker died
   * during the final attempt. The handler's own failure path did not run, so this one settles what the job was
   * about (e.g. marks the song failed).
   */
  abandoned?: (payload: Record<string, unknown>, job: { id: string; attempts: number }) => Promise<void>;
}

export interface JobRunnerOptions {
  concurrency?: number;
  pollMs?: number;
  /**
   * How long a running job stays claimed without a sign of life. The worker renews the claim (a heartbeat on
   * `locked_at`) while the handler runs, so a job outlives this only when its worker died; it is then retried.
   */
  leaseMs?: number;
  log?: JobLog;
  /**
   * Tells the other processes that jobs were queued (the change bus), so a worker elsewhere starts them at once
   * instead of at its next poll. Called after the queuing write committed.
   */
  announce?: () => Promise<void>;
}

/** Delay before attempt n+1: 2 s, 8 s, 32 s ... capped at 10 minutes. */
export const backoffMs = (attempts: number) =>
  Math.min(2000 * 4 ** Math.max(0, attempts - 1), 10 * 60 * 1000);

export const DEFAULT_LEASE_MS = 30_000;

const silentLog: JobLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * Durable jobs in PostgreSQL. Claimed with FOR UPDATE SKIP LOCKED, so several processes can share the queue.
 * A running job is held by a lease its worker renews; a job whose worker died (killed, crashed) is taken back at
 * once when that worker was on this machine, else when its lease runs out, and retried. A permanent failure
 * (handler throws PermanentJobError) is not retried. Every failure, retry and recovery is logged with the job's
 * id, type and attempt.
 */
export class JobRunner {
  private readonly handlers = new Map<string, { run: JobHandler; options: JobTypeOptions }>();
  private readonly recurring = new Map<string, number>();
  /** Who holds a claim: this process (machine, pid, start time) plus a tag for this runner within it. */
  readonly workerId = JSON.stringify({ ...currentProcess(), runner: randomBytes(4).toString('hex') });
  private readonly queue: JobQueue;
  private readonly running = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private lastRecovery = 0;
  private stopped = true;
  private readonly idleWaiters: Array<() => void> = [];
  private log: JobLog;

  constructor(
    private readonly db: AppDb,
    private readonly options: JobRunnerOptions = {},
  ) {
    this.queue = new JobQueue(db);
    this.log = options.log ?? silentLog;
  }

  private get leaseMs() {
    return this.options.leaseMs ?? DEFAULT_LEASE_MS;
  }

  /** Where failures and recoveries are written (the app's logger, once it exists). */
  useLogger(log: JobLog) {
    this.log = log;
  }

  /** The log job handlers write to as well. */
  get logger(): JobLog {
    return this.log;
  }

  register(type: string, handler: JobHandler, options: JobTypeOptions = {}) {
    this.handlers.set(type, { run: handler, options });
  }

  /** A housekeeping job run every `everyMs` by one of the processes sharing the queue, and once at start. */
  registerRecurring(type: string, handler: JobHandler, everyMs: number) {
    this.register(type, handler);
    this.recurring.set(type, everyMs);
  }

  /**
   * Queues a job. Pass `db` (a transaction) to queue it atomically with other writes; the job runs once that
   * transaction commits (call `notify()` after the commit to start it at once). With `dedupeKey`, a job with the
   * same key that is still waiting (queued) makes this a no-op: the answer is then null.
   */
  async enqueue(
    type: string,
    payload: Record<string, unknown>,
    options: { maxAttempts?: number; db?: AppDb; dedupeKey?: string } = {},
  ): Promise<string | null> {
    const id = await new JobQueue(options.db ?? this.db).add(type, payload, options);
    this.kick();
    // Inside a transaction the job is not visible yet: the caller calls `notify()` after its commit.
    if (id && !options.db) await this.options.announce?.();
    return id;
  }

  /** Looks for due jobs now instead of at the next poll (after a transaction that queued some committed). */
  notify(): Promise<void> {
    this.kick();
    return this.options.announce?.() ?? Promise.resolve();
  }

  /** Another process queued jobs: look for them now (does not announce again). */
  wake() {
    this.kick();
  }

  /** Takes back jobs whose workers died, schedules recurring jobs, then polls. */
  async start() {
    if (!this.stopped) return;
    this.stopped = false;
    await this.recover();
    for (const type of this.recurring.keys()) await this.queue.addUnlessPending(type, new Date());
    this.heartbeat = setInterval(() => void this.renewLeases(), Math.max(50, this.leaseMs / 3));
    this.heartbeat.unref();
    this.kick();
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.idle();
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  /** Resolves when no job is running (tests and shutdown). */
  idle(): Promise<void> {
    if (this.running.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Runs queued jobs until none is due; for tests and the seed, which want the work done now. With `types`, only
   * jobs of those types are run (the jobs they queue of other types wait for the running queue). `afterEach` runs
   * after every job this drain settles (the seed counts the songs that play).
   */
  async drain(types?: readonly string[], afterEach?: () => Promise<void>): Promise<void> {
    for (;;) {
      const ran = await this.runOne(types);
      if (!ran) break;
      await afterEach?.();
    }
  }

  /** Re-queues (or fails, when out of attempts) running jobs whose worker is gone. */
  async recover(): Promise<number> {
    this.lastRecovery = Date.now();
    return recoverAbandonedJobs(this.db, {
      leaseMs: this.leaseMs,
      self: this.workerId,
      log: this.log,
      abandoned: (type) => this.handlers.get(type)?.options.abandoned,
    });
  }

  private kick() {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), 0);
  }

  private async tick() {
    this.timer = null;
    const concurrency = this.options.concurrency ?? 1;
    try {
      if (Date.now() - this.lastRecovery > this.leaseMs / 2) await this.recover();
      while (!this.stopped && this.running.size < concurrency) {
        const claimed = await this.claim();
        if (!claimed) break;
        void this.execute(claimed);
      }
    } catch (error) {
      this.log.error({ err: error }, 'job claim failed');
    }
    if (!this.stopped && !this.timer)
      this.timer = setTimeout(() => void this.tick(), this.options.pollMs ?? 1000);
  }

  private async runOne(types?: readonly string[]): Promise<boolean> {
    const claimed = await this.claim(types);
    if (!claimed) return false;
    await this.execute(claimed);
    return true;
  }

  private async claim(only?: readonly string[]) {
    const types = [...this.handlers.keys()].filter((type) => !only || only.includes(type));
    if (types.length === 0) return null;
    const now = new Date();
    return this.db.transaction(async (tx) => {
      const [candidate] = await tx
        .select({ id: jobs.id })
        .from(jobs)
        .where(and(inArray(jobs.type, types), eq(jobs.status, 'queued'), lte(jobs.runAt, now)))
        .orderBy(asc(jobs.runAt))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!candidate) return null;
      const [job] = await tx
        .update(jobs)
        .set({
          status: 'running',
          // The database's clock, like every lease check: processes on several machines may disagree.
          lockedAt: sql`now()`,
          lockedBy: this.workerId,
          attempts: sql`${jobs.attempts} + 1`,
          updatedAt: now,
        })
        .where(eq(jobs.id, candidate.id))
        .returning();
      return job ?? null;
    });
  }

  /** The heartbeat: renews the claim of every job this runner is running. */
  private async renewLeases() {
    if (this.running.size === 0) return;
    try {
      await this.db
        .update(jobs)
        .set({ lockedAt: sql`now()` })
        .where(
          and(
            inArray(jobs.id, [...this.running]),
            eq(jobs.lockedBy, this.workerId),
            eq(jobs.status, 'running'),
          ),
        );
    } catch (error) {
      this.log.warn({ err: error, jobIds: [...this.running] }, 'job lease renewal failed');
    }
  }

  /** Settles a job this runner still holds (another worker may have taken it back meanwhile). */
  private settle(job: typeof jobs.$inferSelect, changes: PgUpdateSetSource<typeof jobs>) {
    return this.db
      .update(jobs)
      .set({ ...changes, lockedAt: null, lockedBy: null, updatedAt: new Date() })
      .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, this.workerId)));
  }

  private async execute(job: typeof jobs.$inferSelect) {
    this.running.add(job.id);
    const { run } = this.handlers.get(job.type)!;
    const context = { jobId: job.id, type: job.type, attempt: job.attempts, maxAttempts: job.maxAttempts };
    const started = Date.now();
    try {
      let failure: { error: unknown } | null = null;
      try {
        await run(job.payload, { id: job.id, attempts: job.attempts });
      } catch (error) {
        failure = { error };
      }
      if (!failure) {
        await this.record(context, () => this.settle(job, { status: 'done', lastError: null }));
        this.log.debug?.({ ...context, ms: Date.now() - started }, 'job done');
        return;
      }
      const { error } = failure;
      const message = error instanceof Error ? error.message : String(error);
      const permanent = error instanceof PermanentJobError;
      const exhausted = permanent || job.attempts >= job.maxAttempts;
      const runAt = new Date(Date.now() + backoffMs(job.attempts));
      await this.record(context, () =>
        this.settle(job, {
          status: exhausted ? 'failed' : 'queued',
          runAt,
          ...(exhausted ? {} : { dedupeKey: requeuedDedupeKey }),
          lastError: message.slice(0, 2000),
        }),
      );
      if (exhausted) this.log.error({ ...context, err: error, permanent }, 'job failed; not retried');
      else this.log.error({ ...context, err: error, retryAt: runAt.toISOString() }, 'job failed; will retry');
    } finally {
      this.running.delete(job.id);
      await this.scheduleNext(job.type);
      if (this.running.size === 0) this.idleWaiters.splice(0).forEach((resolve) => resolve());
      this.kick();
    }
  }

  /** Writes a job's outcome; if the database cannot take it, the job stays claimed until its lease runs out. */
  private async record(context: object, write: () => Promise<unknown>) {
    try {
      await write();
    } catch (error) {
      this.log.error(
        { ...context, err: error },
        'job outcome could not be recorded; retried after its lease',
      );
    }
  }

  private async scheduleNext(type: string) {
    const everyMs = this.recurring.get(type);
    if (everyMs === undefined || this.stopped) return;
    try {
      await this.queue.addUnlessPending(type, new Date(Date.now() + everyMs));
    } catch (error) {
      this.log.error({ type, err: error }, 'could not schedule the next run of a recurring job');
    }
  }
}

/** Thrown by a handler when retrying cannot help (e.g. the upload is not audio). */
export class PermanentJobError extends Error {}
