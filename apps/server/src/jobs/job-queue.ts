import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AppDb } from '../db/client';
import { jobs } from '../db/schema';

export interface QueueOptions {
  maxAttempts?: number;
  runAt?: Date;
  /** At most one queued job carries a given key: adding a second while the first waits is a no-op. */
  dedupeKey?: string;
}

/**
 * The dedupe key a job keeps when it goes back to the queue (a retry, a recovery): its own, unless a twin with the
 * same key was queued meanwhile (the key is unique among queued jobs); the twin then carries it and this one runs
 * without.
 */
export const requeuedDedupeKey = sql`case when exists (select 1 from jobs twin where twin.dedupe_key = "jobs"."dedupe_key"
  and twin.status = 'queued' and twin.id <> "jobs"."id") then null else "jobs"."dedupe_key" end`;

/**
 * Writes jobs into the queue. Bound to a transaction, it queues work atomically with the rows it is about (a song
 * and its transcode): either both exist or neither, so no row ever waits for a job that was never queued.
 */
export class JobQueue {
  constructor(private readonly db: AppDb) {}

  /** Queues a job; answers its id, or null when a queued job with the same `dedupeKey` already waits. */
  async add(
    type: string,
    payload: Record<string, unknown>,
    options: QueueOptions = {},
  ): Promise<string | null> {
    const [row] = await this.db
      .insert(jobs)
      .values({
        type,
        payload,
        maxAttempts: options.maxAttempts ?? 3,
        runAt: options.runAt ?? new Date(),
        dedupeKey: options.dedupeKey ?? null,
      })
      .onConflictDoNothing({ target: jobs.dedupeKey, where: sql`status = 'queued'` })
      .returning({ id: jobs.id });
    return row?.id ?? null;
  }

  /**
   * Queues a job of `type` unless one is already waiting or running (recurring housekeeping: one chain, however
   * many processes start). Two processes adding at the same instant may both succeed; the chains then merge, as
   * each only schedules its next run when no other is waiting.
   */
  async addUnlessPending(type: string, runAt: Date, maxAttempts = 1): Promise<void> {
    const pending = await this.db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.type, type), inArray(jobs.status, ['queued', 'running'])))
      .limit(1);
    if (pending.length > 0) return;
    await this.db.insert(jobs).values({ type, payload: {}, maxAttempts, runAt });
  }
}
