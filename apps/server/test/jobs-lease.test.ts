import { spawnSync } from 'node:child_process';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client';
import { jobs } from '../src/db/schema';
import { JobRunner, PermanentJobError, type JobLog } from '../src/jobs/job-runner';
import { currentProcess, formatIdentity } from '../src/platform/process-identity';
import { openTestDatabase } from './test-app';

/**
 * The durable job runner when workers die: a running job is held by a lease its worker renews, a job whose worker
 * is gone is taken back (at once for a dead process on this machine, after the lease elsewhere), and every
 * failure, retry and recovery is logged with the job's id, type and attempt.
 */
let database: Database;
let drop: () => Promise<void>;
const runners: JobRunner[] = [];

beforeAll(async () => {
  ({ database, drop } = await openTestDatabase());
});
afterAll(async () => {
  await Promise.all(runners.map((runner) => runner.stop()));
  await drop();
});
beforeEach(async () => {
  await Promise.all(runners.splice(0).map((runner) => runner.stop()));
  await database.db.delete(jobs);
});

function recordingLog() {
  const lines: Array<{ level: string; message: string; details: Record<string, unknown> }> = [];
  const at =
    (level: string) =>
    (details: object, message: string): void => {
      lines.push({ level, message, details: details as Record<string, unknown> });
    };
  const log: JobLog = { info: at('info'), warn: at('warn'), error: at('error') };
  return { log, lines };
}

function runner(options: ConstructorParameters<typeof JobRunner>[1] = {}) {
  const created = new JobRunner(database.db, { pollMs: 50, ...options });
  runners.push(created);
  return created;
}

/** A job row as a worker leaves it when it is killed mid-run. */
async function runningJob(values: {
  lockedBy: string;
  lockedAgoMs?: number;
  attempts?: number;
  max?: number;
}) {
  const [row] = await database.db
    .insert(jobs)
    .values({
      type: 'work',
      payload: { n: 1 },
      status: 'running',
      attempts: values.attempts ?? 1,
      maxAttempts: values.max ?? 3,
      lockedBy: values.lockedBy,
      lockedAt: sql`now() - (${values.lockedAgoMs ?? 0}::integer * interval '1 millisecond')`,
    })
    .returning();
  return row!;
}

const jobRow = async (id: string) => (await database.db.select().from(jobs).where(eq(jobs.id, id)))[0]!;

/** The identity of a process that has exited: on this machine, certainly dead. */
function deadProcess(): string {
  const child = spawnSync('true');
  return formatIdentity({ ...currentProcess(), pid: child.pid!, started: null });
}

/**
 * The lease of the renewal test: long enough that a heartbeat (every third of it) is not missed when a loaded
 * machine starves this process for a few hundred milliseconds, which a 300 ms lease was. That test waits on the
 * wall clock on purpose: leases are judged by PostgreSQL's `now()` and renewed by a timer, so no injected clock
 * can stand in for the time that passes between them.
 */
const LEASE_MS = 1000;

describe('job leases', () => {
  it('renews the lease of a long job, so no other worker takes it while its worker lives', async () => {
    const runs: string[] = [];
    const worker = runner({ leaseMs: LEASE_MS });
    worker.register('work', async () => {
      runs.push('run');
      await new Promise((resolve) => setTimeout(resolve, 2.5 * LEASE_MS));
    });
    const other = runner({ leaseMs: LEASE_MS });
    other.register('work', async () => {
      runs.push('stolen');
    });
    const id = (await worker.enqueue('work', {}))!;
    await worker.start();
    await expect.poll(async () => (await jobRow(id)).status, { timeout: 5000 }).toBe('running');
    // Over two lease lengths later, the other worker still finds nothing to take back.
    for (let check = 0; check < 4; check++) {
      await new Promise((resolve) => setTimeout(resolve, 0.6 * LEASE_MS));
      expect(await other.recover()).toBe(0);
    }
    await expect.poll(async () => (await jobRow(id)).status, { timeout: 5000 }).toBe('done');
    expect(runs).toEqual(['run']);
    expect((await jobRow(id)).attempts).toBe(1);
  });

  it('takes back at start, at once, a job whose worker on this machine was killed, and logs it', async () => {
    const { log, lines } = recordingLog();
    const ran: Array<{ id: string; attempts: number }> = [];
    const job = await runningJob({ lockedBy: deadProcess() });
    const worker = runner({ log }); // the default lease (30 s) has not run out: the dead process decides
    worker.register('work', async (_payload, context) => {
      ran.push(context);
    });
    const started = Date.now();
    await worker.start();
    await expect.poll(async () => (await jobRow(job.id)).status, { timeout: 5000 }).toBe('done');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(ran).toEqual([{ id: job.id, attempts: 2 }]);
    expect(lines.find((line) => line.message === 'job interrupted; retrying')).toMatchObject({
      level: 'warn',
      details: { jobId: job.id, type: 'work', attempt: 1, maxAttempts: 3 },
    });
    expect(String(lines.find((line) => line.message === 'job interrupted; retrying')!.details.error)).toMatch(
      /stopped before it finished/,
    );
  });

  it('takes back a job held elsewhere only once its lease has run out', async () => {
    const elsewhere = formatIdentity({ machine: 'another-host/x/y', pid: 4242, started: '1' });
    const fresh = await runningJob({ lockedBy: elsewhere, lockedAgoMs: 100 });
    const expired = await runningJob({ lockedBy: elsewhere, lockedAgoMs: 5000 });
    const worker = runner({ leaseMs: 2000 });
    worker.register('work', async () => undefined);
    expect(await worker.recover()).toBe(1);
    expect((await jobRow(fresh.id)).status).toBe('running');
    expect(await jobRow(expired.id)).toMatchObject({ status: 'queued', lockedBy: null });
    expect((await jobRow(expired.id)).lastError).toMatch(/stopped renewing its lease/);
  });

  it('fails a job whose worker died on its last attempt, and lets its type settle what it was about', async () => {
    const { log, lines } = recordingLog();
    const settled: unknown[] = [];
    const job = await runningJob({ lockedBy: deadProcess(), attempts: 3, max: 3 });
    const worker = runner({ log });
    worker.register('work', async () => undefined, {
      abandoned: async (payload) => {
        settled.push(payload);
      },
    });
    expect(await worker.recover()).toBe(1);
    expect((await jobRow(job.id)).status).toBe('failed');
    expect(settled).toEqual([{ n: 1 }]);
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 'error',
        message: 'job interrupted on its last attempt; not retried',
        details: expect.objectContaining({ jobId: job.id, type: 'work', attempt: 3 }),
      }),
    );
  });

  it('does not let a worker settle a job another worker took back from it', async () => {
    const worker = runner();
    let release = () => undefined as void;
    worker.register('work', () => new Promise<void>((resolve) => (release = resolve)));
    const id = (await worker.enqueue('work', {}))!;
    const running = worker.drain();
    await expect.poll(async () => (await jobRow(id)).status).toBe('running');
    // Taken back (its lease ran out, say) and finished by someone else.
    await database.db
      .update(jobs)
      .set({ status: 'done', lockedBy: null, lockedAt: null })
      .where(eq(jobs.id, id));
    release();
    await running;
    expect(await jobRow(id)).toMatchObject({ status: 'done', attempts: 1 });
  });
});

describe('job failures', () => {
  it('logs every failure with the job id, type, attempt and error, and whether it will be retried', async () => {
    const { log, lines } = recordingLog();
    const worker = runner({ log });
    worker.register('work', async () => {
      throw new Error('ffmpeg exploded');
    });
    worker.register('bad', async () => {
      throw new PermanentJobError('not audio');
    });
    const id = (await worker.enqueue('work', {}, { maxAttempts: 2 }))!;
    const bad = (await worker.enqueue('bad', {}))!;
    await worker.drain();
    await database.db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.id, id)); // the backoff passes
    await worker.drain();
    const failures = lines.filter((line) => line.level === 'error');
    expect(failures.map((line) => [line.message, line.details.jobId, line.details.attempt])).toEqual([
      ['job failed; will retry', id, 1],
      ['job failed; not retried', bad, 1],
      ['job failed; not retried', id, 2],
    ]);
    expect(failures[0]!.details).toMatchObject({ type: 'work', maxAttempts: 2, retryAt: expect.any(String) });
    expect((failures[0]!.details.err as Error).message).toBe('ffmpeg exploded');
    expect(failures[1]!.details).toMatchObject({ type: 'bad', permanent: true });
    expect(await jobRow(id)).toMatchObject({ status: 'failed', attempts: 2, lastError: 'ffmpeg exploded' });
  });
});

describe('recurring jobs', () => {
  it('runs once at start and schedules the next run, one chain however many workers start', async () => {
    let runs = 0;
    const make = () => {
      const worker = runner();
      worker.registerRecurring('sweep', async () => void (runs += 1), 60_000);
      return worker;
    };
    const first = make();
    const second = make();
    await first.start();
    await second.start();
    await expect.poll(() => runs, { timeout: 5000 }).toBe(1);
    await expect
      .poll(async () => (await database.db.select().from(jobs)).map((row) => row.status).sort(), {
        timeout: 5000,
      })
      .toEqual(['done', 'queued']);
    const [next] = await database.db.select().from(jobs).where(eq(jobs.status, 'queued'));
    expect(next!.runAt.getTime() - Date.now()).toBeGreaterThan(50_000);
  });
});

describe('dedupe keys', () => {
  it('queue a keyed job once while it waits, and keep one queued job per key through retries and recoveries', async () => {
    const worker = runner();
    worker.register('work', async () => undefined);
    const first = await worker.enqueue('work', { n: 1 }, { dedupeKey: 'song-preview:x' });
    expect(first).not.toBeNull();
    expect(await worker.enqueue('work', { n: 2 }, { dedupeKey: 'song-preview:x' })).toBeNull();
    expect(await worker.enqueue('work', { n: 3 }, { dedupeKey: 'song-preview:y' })).not.toBeNull();

    // A keyed job taken back from a dead worker while a twin was queued meanwhile: both run, the twin keeps the key.
    const interrupted = await runningJob({ lockedBy: deadProcess() });
    await database.db.update(jobs).set({ dedupeKey: 'song-preview:x' }).where(eq(jobs.id, interrupted.id));
    expect(await worker.recover()).toBe(1);
    expect(await jobRow(interrupted.id)).toMatchObject({ status: 'queued', dedupeKey: null });
    expect((await jobRow(first!)).dedupeKey).toBe('song-preview:x');

    // Without a twin, a job taken back keeps its key, so a new request still finds it waiting.
    const alone = await runningJob({ lockedBy: deadProcess() });
    await database.db.update(jobs).set({ dedupeKey: 'song-mp3:z' }).where(eq(jobs.id, alone.id));
    expect(await worker.recover()).toBe(1);
    expect(await jobRow(alone.id)).toMatchObject({ status: 'queued', dedupeKey: 'song-mp3:z' });
    expect(await worker.enqueue('work', {}, { dedupeKey: 'song-mp3:z' })).toBeNull();
  });

  it('let a failed attempt go back to the queue without its key when a twin was queued while it ran', async () => {
    const worker = runner();
    let twin: string | null = null;
    worker.register('work', async (payload) => {
      if (payload.twin) return;
      twin = await worker.enqueue('work', { twin: true }, { dedupeKey: 'song-preview:w' });
      throw new Error('ffmpeg failed');
    });
    const id = (await worker.enqueue('work', {}, { dedupeKey: 'song-preview:w' }))!;
    // The failed job waits for its back-off; the twin, due at once, runs.
    await worker.drain();
    expect(twin).not.toBeNull();
    const [failed, ranTwin] = [await jobRow(id), await jobRow(twin!)];
    expect(failed).toMatchObject({ status: 'queued', dedupeKey: null, attempts: 1 });
    expect(ranTwin).toMatchObject({ status: 'done', dedupeKey: 'song-preview:w' });
  });
});
