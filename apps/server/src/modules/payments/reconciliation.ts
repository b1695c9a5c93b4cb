import { and, desc, eq } from 'drizzle-orm';
import type { PaymentGateway as GatewayName } from '@backbeat/contract';
import type { AppDb } from '../../db/client';
import { reconciliationRuns } from '../../db/schema';
import type { JobLog } from '../../jobs/job-runner';
import type { AdjustmentsRepository } from './adjustments.repository';
import { gatewayUnavailable } from './payment-gateway';

export type ReconciliationRun = typeof reconciliationRuns.$inferSelect;

/** A time window of a gateway's activity. */
export interface Window {
  from: Date;
  to: Date;
}

/** What one run saw: how many objects it read, what it changed (missed by webhooks), what it could not settle. */
export interface Tally {
  examined: number;
  fixes: string[];
  problems: number;
}

/**
 * One gateway's side of reconciliation: reads what the gateway did in the window (its events, or its payments,
 * refunds and disputes) and applies each through the same ledger path as its webhooks, which changes nothing for
 * what was applied before. Money it cannot match (a payment no order knows) is opened as an issue.
 */
export interface ReconciliationSource {
  gateway: GatewayName;
  reconcile(window: Window, tally: Tally): Promise<void>;
}

/** How far back a gateway's first run reads, and how much each run reads again before the last one's end. */
const FIRST_WINDOW_MS = 3 * 24 * 3600 * 1000;
/** Providers list new objects with a delay (PayPal's transaction search: up to hours); windows overlap by this. */
const OVERLAP_MS = 3 * 3600 * 1000;
export const RECONCILE_EVERY_MS = 15 * 60 * 1000;

/**
 * Reconciliation with each provider: a scheduled job (every 15 minutes) and an admin action read each gateway's
 * activity since its last run and apply what webhooks missed, idempotently. Every run is recorded with what it
 * fixed and how many problems it found (listed as payment issues).
 */
export class Reconciliation {
  constructor(
    private readonly deps: {
      db: AppDb;
      sources: ReconciliationSource[];
      adjustments: AdjustmentsRepository;
      clock: () => Date;
      log: () => JobLog;
    },
  ) {}

  get gateways(): GatewayName[] {
    return this.deps.sources.map((source) => source.gateway);
  }

  /**
   * Runs every configured gateway, or the one named (503 when it is not configured), one after the other; a
   * gateway that fails does not stop the others.
   */
  async runAll(trigger: 'schedule' | 'admin', only?: GatewayName): Promise<ReconciliationRun[]> {
    const sources = only ? this.deps.sources.filter((source) => source.gateway === only) : this.deps.sources;
    if (only && sources.length === 0) throw gatewayUnavailable(only);
    const runs: ReconciliationRun[] = [];
    for (const source of sources) runs.push(await this.run(source, trigger));
    return runs;
  }

  async run(source: ReconciliationSource, trigger: 'schedule' | 'admin'): Promise<ReconciliationRun> {
    const db = this.deps.db;
    const now = this.deps.clock();
    const [last] = await db
      .select({ windowEnd: reconciliationRuns.windowEnd })
      .from(reconciliationRuns)
      .where(and(eq(reconciliationRuns.gateway, source.gateway), eq(reconciliationRuns.status, 'succeeded')))
      .orderBy(desc(reconciliationRuns.startedAt))
      .limit(1);
    const from = last
      ? new Date(Math.min(last.windowEnd.getTime() - OVERLAP_MS, now.getTime()))
      : new Date(now.getTime() - FIRST_WINDOW_MS);
    const [started] = await db
      .insert(reconciliationRuns)
      .values({ gateway: source.gateway, trigger, windowStart: from, windowEnd: now, startedAt: now })
      .returning();
    const tally: Tally = { examined: 0, fixes: [], problems: 0 };
    let error: unknown = null;
    try {
      await source.reconcile({ from, to: now }, tally);
    } catch (failure) {
      error = failure;
      this.deps.log().error({ gateway: source.gateway, err: failure }, 'reconciliation failed');
    }
    const [finished] = await db
      .update(reconciliationRuns)
      .set({
        status: error ? 'failed' : 'succeeded',
        examined: tally.examined,
        fixed: tally.fixes.length,
        problems: tally.problems,
        fixes: tally.fixes.slice(0, 200),
        error: error ? (error instanceof Error ? error.message : String(error)).slice(0, 500) : null,
        finishedAt: this.deps.clock(),
      })
      .where(eq(reconciliationRuns.id, started!.id))
      .returning();
    return finished!;
  }

  /** The latest runs of each gateway, newest first. */
  async latestRuns(perGateway = 5): Promise<ReconciliationRun[]> {
    const runs: ReconciliationRun[] = [];
    for (const gateway of this.gateways) {
      runs.push(
        ...(await this.deps.db
          .select()
          .from(reconciliationRuns)
          .where(eq(reconciliationRuns.gateway, gateway))
          .orderBy(desc(reconciliationRuns.startedAt))
          .limit(perGateway)),
      );
    }
    return runs;
  }
}
