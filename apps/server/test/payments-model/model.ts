import fc from 'fast-check';
import type { TestUser } from '../payments.fixtures';
import { Sync, type Command } from './commands';
import type { Driver, ModelOrder } from './drivers';
import type { ModelSubscription, SubscriptionDriver } from './subscription-drivers';
import type { World } from './world';

/**
 * A model-based test of the ledger against one gateway: random histories of checkouts, payments (declined ones
 * too, with or without the buyer's browser reporting back), refunds (full and partial), disputes opened, won and
 * lost, second tabs buying what is owned, subscriptions started, renewed, failing a renewal, refunded period by
 * period and cancelled, and the gateway's events delivered in any order, redelivered, dropped or crashed between
 * receipt and commit. After every step the safety invariants hold (invariants.ts); at every Sync (the gateway's
 * held events delivered, reconciliation run, the ledger's jobs done) and at the end the ledger has converged on the
 * gateway's truth.
 */
export interface Model {
  orders: ModelOrder[];
  subscriptions: ModelSubscription[];
}

export interface Real {
  world: World;
  driver: Driver;
  subscriptions: SubscriptionDriver;
  buyer: TestUser;
  /** Violations found (the test asserts none; the bench counts them). */
  violations: string[];
  /** What the history reached at its syncs (coverage: paid, refunded, disputed, refused...). */
  reached: Set<string>;
}

/** Hours the clock moves between histories: each one's reconciliation reads only its own activity. */
const HOURS_BETWEEN_HISTORIES = 6;

/**
 * Runs one history against a fresh buyer; the end is always a Sync. Its subscriptions are then ended at the gateway
 * (they would otherwise renew with every later history's clock).
 */
export async function runHistory(
  world: World,
  driver: Driver,
  subscriptions: SubscriptionDriver,
  commands: Iterable<Command>,
): Promise<Real> {
  await world.g.emulator.clock.advance(HOURS_BETWEEN_HISTORIES * 3600 * 1000);
  const real: Real = {
    world,
    driver,
    subscriptions,
    buyer: await world.newBuyer(),
    violations: [],
    reached: new Set(),
  };
  const model: Model = { orders: [], subscriptions: [] };
  try {
    await fc.asyncModelRun(() => ({ model, real }), [...commands, new Sync()]);
  } finally {
    for (const subscription of model.subscriptions)
      await subscriptions.end(world, subscription).catch(() => undefined);
  }
  return real;
}
