import fc from 'fast-check';
import type { TestUser } from '../payments.fixtures';
import type { Driver, ModelOrder, ProviderMoney } from './drivers';
import {
  crashNextTransaction,
  ITEMS,
  ledgerOf,
  playing,
  SONGS,
  standingPaidOrders,
  undelivered,
  type ItemKey,
  type World,
} from './world';

/**
 * A model-based test of the ledger against one gateway: random histories of checkouts, payments (declined ones
 * too, with or without the buyer's browser reporting back), refunds (full and partial), disputes opened, won and
 * lost, second tabs buying what is owned, and the gateway's events delivered in any order, redelivered, dropped or
 * crashed between receipt and commit. After every step the safety invariants hold; at every Sync (the gateway's
 * held events delivered, reconciliation run, the ledger's jobs done) and at the end the ledger has converged on the
 * gateway's truth.
 */
export interface Model {
  orders: ModelOrder[];
}

export interface Real {
  world: World;
  driver: Driver;
  buyer: TestUser;
  /** Violations found (the test asserts none; the bench counts them). */
  violations: string[];
  /** What the history reached at its syncs (coverage: paid, refunded, disputed, refused...). */
  reached: Set<string>;
}

type Command = fc.AsyncCommand<Model, Real, boolean>;

/** With MODEL_PROFILE set, milliseconds spent per command kind and in the safety checks (printed by the suite). */
export const PROFILE: Record<string, number> | null = process.env.MODEL_PROFILE ? {} : null;

const pickOf = <T>(list: T[], pick: number): T | undefined =>
  list.length ? list[pick % list.length] : undefined;

/** Whether an order's item gives the song (the album gives its song). */
const gives = (item: ItemKey, song: keyof typeof SONGS) => (SONGS[song] as readonly ItemKey[]).includes(item);

async function truths(real: Real, model: Model): Promise<Map<ModelOrder, ProviderMoney>> {
  const out = new Map<ModelOrder, ProviderMoney>();
  for (const order of model.orders) out.set(order, await real.driver.truth(real.world, order));
  return out;
}

function violate(real: Real, message: string): void {
  real.violations.push(message);
  throw new Error(`invariant violated: ${message}`);
}

/**
 * Safety, after every step. (S1) A song plays only if the gateway took money for an order that gives it: nothing is
 * granted unpaid. (S2) When every event the gateway emitted was delivered, a song plays only while an order that
 * gives it still holds money at the gateway: refunded or disputed music never plays once the ledger was told.
 * (S3) Never two standing paid orders for one item without an automatic refund under way.
 */
export async function checkSafety(real: Real, model: Model): Promise<void> {
  const plays = await playing(real.world, real.buyer);
  if (plays.size > 0) {
    const settled = undelivered(real.world, real.driver.gateway) === 0;
    for (const song of plays) {
      const covering = model.orders.filter((order) => gives(order.item, song));
      const money = await Promise.all(covering.map((order) => real.driver.truth(real.world, order)));
      if (!money.some((truth) => truth.captured > 0)) {
        violate(real, `${song} plays but no order giving it was ever paid`);
      }
      if (settled && !money.some((truth) => truth.net > 0)) {
        violate(real, `${song} plays with every event delivered, but no money for it remains at the gateway`);
      }
    }
  }
  for (const [item, standing] of await standingPaidOrders(
    real.world,
    model.orders.map((order) => order.orderId),
  )) {
    if (standing > 1) violate(real, `${standing} standing paid orders for ${item}`);
  }
}

/**
 * Convergence, at a Sync: everything the gateway holds back is delivered, reconciliation runs, the ledger's jobs
 * (automatic refunds, cancellations at the gateway) run, until nothing is left. Then (C1) a song plays exactly when
 * an order giving it holds money at the gateway; (C2) the ledger's money of each order equals the gateway's:
 * captured, and captured less refunded and disputed; (C3) at most one order of an item holds money.
 */
export async function sync(real: Real, model: Model): Promise<void> {
  const { world, driver } = real;
  const gateway = driver.gateway;
  for (let round = 0; round < 6; round += 1) {
    const held = world.g.emulator.heldWebhooks(gateway).map((event) => event.eventId);
    if (held.length > 0) await world.g.emulator.releaseWebhooks(gateway, held);
    // What no delivery will bring (dropped, or failed in a crash): reconciliation reads it from the gateway.
    if (undelivered(world, gateway) > 0) {
      const path = `/api/admin/payments/reconcile?gateway=${gateway}`;
      const reconciled = await world.http.post(path, {}, world.admin);
      if (reconciled.statusCode !== 200) violate(real, `reconciliation answered ${reconciled.statusCode}`);
    }
    await world.g.ctx.app.services.jobs.drain();
    if (world.g.emulator.heldWebhooks(gateway).length === 0) break;
  }
  const money = await truths(real, model);
  const plays = await playing(world, real.buyer);
  for (const song of Object.keys(SONGS) as Array<keyof typeof SONGS>) {
    const paidFor = model.orders.some((order) => gives(order.item, song) && (money.get(order)?.net ?? 0) > 0);
    if (paidFor !== plays.has(song)) {
      violate(
        real,
        `${song} ${plays.has(song) ? 'plays' : 'does not play'} but the gateway holds ${paidFor ? 'money' : 'no money'} for it`,
      );
    }
  }
  for (const order of model.orders) {
    const truth = money.get(order)!;
    const ledger = await ledgerOf(world, order.orderId);
    if (truth.captured > 0) real.reached.add('paid');
    if (truth.captured > 0 && truth.net < truth.captured) real.reached.add('money moved back');
    if (truth.captured > 0 && truth.net > 0 && truth.net < truth.captured)
      real.reached.add('partly refunded');
    if (order.disputeId) real.reached.add('disputed');
    if (ledger.refused) real.reached.add('refunded by the ledger');
    if (ledger.paid !== truth.captured || ledger.net !== truth.net) {
      violate(
        real,
        `order ${order.orderId} (${order.item}): ledger paid ${ledger.paid}, net ${ledger.net}; gateway captured ${truth.captured}, net ${truth.net}`,
      );
    }
  }
  for (const item of ITEMS) {
    const holding = model.orders.filter((order) => order.item === item && (money.get(order)?.net ?? 0) > 0);
    if (holding.length > 1) violate(real, `${holding.length} orders of ${item} hold money at the gateway`);
  }
}

abstract class Step implements Command {
  check(_model: Readonly<Model>): boolean {
    return true;
  }
  abstract act(model: Model, real: Real): Promise<void>;
  async run(model: Model, real: Real): Promise<void> {
    const started = performance.now();
    await this.act(model, real);
    const acted = performance.now();
    await checkSafety(real, model);
    if (PROFILE) {
      const name = this.constructor.name;
      PROFILE[name] = (PROFILE[name] ?? 0) + (acted - started);
      PROFILE.safety = (PROFILE.safety ?? 0) + (performance.now() - acted);
    }
  }
  abstract toString(): string;
}

class Open extends Step {
  constructor(readonly item: ItemKey) {
    super();
  }
  async act(model: Model, real: Real) {
    const order = await real.driver.open(real.world, real.buyer, this.item);
    if (order) model.orders.push(order);
  }
  toString() {
    return `open(${this.item})`;
  }
}

/** A checkout and its payment at once (the common path), so that histories reach paid orders often. */
class Buy extends Step {
  constructor(
    readonly item: ItemKey,
    readonly confirm: boolean,
  ) {
    super();
  }
  async act(model: Model, real: Real) {
    const order = await real.driver.open(real.world, real.buyer, this.item);
    if (!order) return;
    model.orders.push(order);
    await real.driver.pay(real.world, real.buyer, order, true, this.confirm);
  }
  toString() {
    return `buy(${this.item}${this.confirm ? '' : ', tab closed'})`;
  }
}

class Pay extends Step {
  constructor(
    readonly pick: number,
    readonly ok: boolean,
    readonly confirm: boolean,
  ) {
    super();
  }
  override check(model: Readonly<Model>) {
    return model.orders.length > 0;
  }
  async act(model: Model, real: Real) {
    const order = pickOf(model.orders, this.pick)!;
    await real.driver.pay(real.world, real.buyer, order, this.ok, this.confirm);
  }
  toString() {
    return `pay(#${this.pick}, ${this.ok ? 'ok' : 'declined'}${this.confirm ? '' : ', tab closed'})`;
  }
}

/** The orders the gateway took (or may have taken) money for: what refunds and disputes can name. */
const withMoney = (model: Readonly<Model>) => model.orders.filter((order) => order.paymentId);

class Refund extends Step {
  constructor(
    readonly pick: number,
    readonly partial: boolean,
  ) {
    super();
  }
  override check(model: Readonly<Model>) {
    return withMoney(model).length > 0;
  }
  async act(model: Model, real: Real) {
    await real.driver.refund(real.world, pickOf(withMoney(model), this.pick)!, this.partial);
  }
  toString() {
    return `refund(#${this.pick}${this.partial ? ', partial' : ''})`;
  }
}

class Dispute extends Step {
  constructor(readonly pick: number) {
    super();
  }
  override check(model: Readonly<Model>) {
    return withMoney(model).some((order) => !order.disputeId);
  }
  async act(model: Model, real: Real) {
    const open = withMoney(model).filter((order) => !order.disputeId);
    await real.driver.dispute(real.world, pickOf(open, this.pick)!);
  }
  toString() {
    return `dispute(#${this.pick})`;
  }
}

class CloseDispute extends Step {
  constructor(
    readonly pick: number,
    readonly won: boolean,
  ) {
    super();
  }
  override check(model: Readonly<Model>) {
    return model.orders.some((order) => order.disputeId);
  }
  async act(model: Model, real: Real) {
    const disputed = model.orders.filter((order) => order.disputeId);
    await real.driver.closeDispute(real.world, pickOf(disputed, this.pick)!, this.won);
  }
  toString() {
    return `closeDispute(#${this.pick}, ${this.won ? 'won' : 'lost'})`;
  }
}

/** The gateway delivers one of its held events (any of them: events arrive in any order). */
class Deliver extends Step {
  constructor(readonly pick: number) {
    super();
  }
  async act(_model: Model, real: Real) {
    const held = real.world.g.emulator.heldWebhooks(real.driver.gateway);
    const event = pickOf(held, this.pick);
    if (event) await real.world.g.emulator.releaseWebhooks(real.driver.gateway, [event.eventId]);
  }
  toString() {
    return `deliver(#${this.pick})`;
  }
}

/** The gateway catches up: every held event is delivered, oldest first. */
class DeliverAll extends Step {
  async act(_model: Model, real: Real) {
    if (real.world.g.emulator.heldWebhooks(real.driver.gateway).length > 0) {
      await real.world.g.emulator.releaseWebhooks(real.driver.gateway);
    }
  }
  toString() {
    return 'deliverAll';
  }
}

/** The gateway sends an event again (its retries, or a "resend" from its dashboard). */
class Redeliver extends Step {
  constructor(readonly pick: number) {
    super();
  }
  async act(_model: Model, real: Real) {
    const sent = real.world.g.emulator.events(real.driver.gateway).filter((event) => event.state !== 'held');
    const event = pickOf(sent, this.pick);
    if (event) await real.world.g.emulator.redeliverNow(event.eventId);
  }
  toString() {
    return `redeliver(#${this.pick})`;
  }
}

/** The gateway never delivers a held event (it stays in its event lists, for reconciliation). */
class Drop extends Step {
  constructor(readonly pick: number) {
    super();
  }
  async act(_model: Model, real: Real) {
    const event = pickOf(real.world.g.emulator.heldWebhooks(real.driver.gateway), this.pick);
    if (event) real.world.g.emulator.dropWebhooks(real.driver.gateway, [event.eventId]);
  }
  toString() {
    return `drop(#${this.pick})`;
  }
}

/** A held event is delivered and the server crashes after applying it, before the commit. */
class Crash extends Step {
  constructor(readonly pick: number) {
    super();
  }
  async act(_model: Model, real: Real) {
    const event = pickOf(real.world.g.emulator.heldWebhooks(real.driver.gateway), this.pick);
    if (!event) return;
    const disarm = crashNextTransaction(real.world);
    try {
      await real.world.g.emulator.releaseWebhooks(real.driver.gateway, [event.eventId]);
    } finally {
      disarm();
    }
  }
  toString() {
    return `crash(#${this.pick})`;
  }
}

class Sync extends Step {
  async act(model: Model, real: Real) {
    await sync(real, model);
  }
  toString() {
    return 'sync';
  }
}

const pick = fc.nat(31);

/** The commands of one history; weights favour checkouts, payments and deliveries. */
export function commandArbitrary(): fc.Arbitrary<Iterable<Command>> {
  return fc.commands(
    [
      fc.oneof(
        // Most checkouts are for one song, so second tabs and overlaps (the album gives song B) come often.
        {
          arbitrary: fc
            .constantFrom<ItemKey>('songA', 'songA', 'songA', 'songB', 'albumX')
            .map((item) => new Open(item)),
          weight: 4,
        },
        {
          arbitrary: fc
            .tuple(
              fc.constantFrom<ItemKey>('songA', 'songA', 'songB', 'albumX'),
              fc.integer({ min: 0, max: 4 }),
            )
            .map(([item, confirm]) => new Buy(item, confirm > 0)),
          weight: 3,
        },
        {
          arbitrary: fc
            .tuple(pick, fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 4 }))
            .map(([p, ok, confirm]) => new Pay(p, ok > 1, confirm > 0)),
          weight: 4,
        },
        { arbitrary: fc.tuple(pick, fc.boolean()).map(([p, partial]) => new Refund(p, partial)), weight: 2 },
        { arbitrary: pick.map((p) => new Dispute(p)), weight: 2 },
        { arbitrary: fc.tuple(pick, fc.boolean()).map(([p, won]) => new CloseDispute(p, won)), weight: 2 },
        { arbitrary: pick.map((p) => new Deliver(p)), weight: 4 },
        { arbitrary: fc.constant(new DeliverAll()), weight: 2 },
        { arbitrary: pick.map((p) => new Redeliver(p)), weight: 1 },
        { arbitrary: pick.map((p) => new Drop(p)), weight: 1 },
        { arbitrary: pick.map((p) => new Crash(p)), weight: 1 },
        { arbitrary: fc.constant(new Sync()), weight: 1 },
      ),
    ],
    { maxCommands: 16 },
  );
}

/** Hours the clock moves between histories: each one's reconciliation reads only its own activity. */
const HOURS_BETWEEN_HISTORIES = 6;

/** Runs one history against a fresh buyer; the end is always a Sync. */
export async function runHistory(world: World, driver: Driver, commands: Iterable<Command>): Promise<Real> {
  await world.g.emulator.clock.advance(HOURS_BETWEEN_HISTORIES * 3600 * 1000);
  const real: Real = { world, driver, buyer: await world.newBuyer(), violations: [], reached: new Set() };
  const model: Model = { orders: [] };
  await fc.asyncModelRun(() => ({ model, real }), [...commands, new Sync()]);
  return real;
}
