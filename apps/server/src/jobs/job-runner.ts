import { hostname } from 'node:os';
import { and, asc, eq, inArray, lt, lte, sql } from 'drizzle-orm';
import type { AppDb } from '../db/client';
import { jobs } from '../db/schema';

export type JobHandler = (
  payload: Record<string, unknown>,
  job: { id: string; attempts: number },
) => Promise<void>;

export interface JobRunnerOptions {
  concurrency?: number;
  pollMs?: number;
  /** A running job whose lock is older than this is considered abandoned (process killed) and retried. */
  staleAfterMs?: number;
  log?: { info: (o: object, m: string) => void; error: (o: object, m: string) => void };
  /**
   * Tells the other processes that jobs were queued (the change bus), so a worker elsewhere starts them at once
   * instead of at its next poll. Called after the queuing write committed.
   */
  announce?: () => Promise<void>;
}

/** Delay before attempt n+1: 2 s, 8 s, 32 s ... capped at 10 minutes. */
export const backoffMs = (attempts: number) =>
  Math.min(2000 * 4 ** Math.max(0, attempts - 1), 10 * 60 * 1000);

/**
 * Durable jobs in PostgreSQL. Claimed with FOR UPDATE SKIP LOCKED, so several processes can share the queue.
 * A permanent failure (handler throws PermanentJobError) is not retried.
 */
export class JobRunner {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly workerId = `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
  private timer: NodeJS.Timeout | null = null;
  private active = 0;
  private stopped = true;
  private readonly idleWaiters: Array<() => void> = [];

  constructor(
    private readonly db: AppDb,
    private readonly options: JobRunnerOptions = {},
  ) {}

  register(type: string, handler: JobHandler) {
    this.handlers.set(type, handler);
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
    const [row] = await (options.db ?? this.db)
      .insert(jobs)
      .values({ type, payload, maxAttempts: options.maxAttempts ?? 3, dedupeKey: options.dedupeKey ?? null })
      .onConflictDoNothing({ target: jobs.dedupeKey, where: sql`status = 'queued'` })
      .returning({ id: jobs.id });
    this.kick();
    // Inside a transaction the job is not visible yet: the caller calls `notify()` after its commit.
    if (row && !options.db) await this.options.announce?.();
    return row?.id ?? null;
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

  start() {
    if (!this.stopped) return;
    this.stopped = false;
    this.kick();
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.idle();
  }

  /** Resolves when no job is running (tests and shutdown). */
  idle(): Promise<void> {
    if (this.active === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Runs queued jobs until none is due; for tests and the seed, which want the work done now. With `types`, only
   * jobs of those types are run (the jobs they queue of other types wait for the running queue).
   */
  async drain(types?: readonly string[]): Promise<void> {
    for (;;) {
      const ran = await this.runOne(types);
      if (!ran) break;
    }
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
      while (!this.stopped && this.active < concurrency) {
        const claimed = await this.claim();
        if (!claimed) break;
        void this.execute(claimed);
      }
    } catch (error) {
      this.options.log?.error({ err: error }, 'job claim failed');
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
    const staleBefore = new Date(now.getTime() - (this.options.staleAfterMs ?? 10 * 60 * 1000));
    return this.db.transaction(async (tx) => {
      const [candidate] = await tx
        .select({ id: jobs.id })
        .from(jobs)
        .where(
          and(
            inArray(jobs.type, types),
            sql`(${and(eq(jobs.status, 'queued'), lte(jobs.runAt, now))} or ${and(eq(jobs.status, 'running'), lt(jobs.lockedAt, staleBefore))})`,
          ),
        )
        .orderBy(asc(jobs.runAt))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!candidate) return null;
      const [job] = await tx
        .update(jobs)
        .set({
          status: 'running',
          lockedAt: now,
          lockedBy: this.workerId,
          attempts: sql`${jobs.attempts} + 1`,
          updatedAt: now,
        })
        .where(eq(jobs.id, candidate.id))
        .returning();
      return job ?? null;
    });
  }

  private async execute(job: typeof jobs.$inferSelect) {
    this.active += 1;
    const handler = this.handlers.get(job.type)!;
    try {
      await handler(job.payload, { id: job.id, attempts: job.attempts });
      await this.db
        .update(jobs)
        .set({ status: 'done', lockedAt: null, lockedBy: null, lastError: null, updatedAt: new Date() })
        .where(eq(jobs.id, job.id));
      this.options.log?.info({ jobId: job.id, type: job.type }, 'job done');
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const permanent = error instanceof PermanentJobError;
      const exhausted = permanent || job.attempts >= job.maxAttempts;
      await this.db
        .update(jobs)
        .set({
          status: exhausted ? 'failed' : 'queued',
          // Back in the queue, it keeps its dedupe key unless a twin was queued meanwhile (the key is unique
          // among queued jobs): then the twin carries the key and this retry runs without one.
          dedupeKey: exhausted
            ? jobs.dedupeKey
            : sql`case when exists (select 1 from jobs twin where twin.dedupe_key = "jobs"."dedupe_key"
                and twin.status = 'queued' and twin.id <> "jobs"."id") then null else "jobs"."dedupe_key" end`,
          runAt: new Date(Date.now() + backoffMs(job.attempts)),
          lockedAt: null,
          lockedBy: null,
          lastError: message.slice(0, 2000),
          updatedAt: new Date(),
        })
        .where(eq(jobs.id, job.id));
      this.options.log?.error({ jobId: job.id, type: job.type, err: message, exhausted }, 'job failed');
    } finally {
      this.active -= 1;
      if (this.active === 0) this.idleWaiters.splice(0).forEach((resolve) => resolve());
      this.kick();
    }
  }
}

/** Thrown by a handler when retrying cannot help (e.g. the upload is not audio). */
export class PermanentJobError extends Error {}
