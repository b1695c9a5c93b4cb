import { and, eq, inArray } from 'drizzle-orm';
import type { AppDb } from '../db/client';
import { jobs } from '../db/schema';

export interface QueueOptions {
  maxAttempts?: number;
  runAt?: Date;
}

/**
 * Writes jobs into the queue. Bound to a transaction, it queues work atomically with the rows it is about (a song
 * and its transcode): either both exist or neither, so no row ever waits for a job that was never queued.
 */
export class JobQueue {
  constructor(private readonly db: AppDb) {}

  async add(type: string, payload: Record<string, unknown>, options: QueueOptions = {}): Promise<string> {
    const [row] = await this.db
      .insert(jobs)
      .values({ type, payload, maxAttempts: options.maxAttempts ?? 3, runAt: options.runAt ?? new Date() })
      .returning({ id: jobs.id });
    return row!.id;
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
