import fc from 'fast-check';
import type { Model, Real } from './model';
import { PROFILE } from './profile';
import { checkSafety, pickOf, sync } from './invariants';
import { crashNextTransaction, type ItemKey } from './world';

export type Command = fc.AsyncCommand<Model, Real, boolean>;

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

/** The buyer subscribes to the artist (and their browser reports back, or not). */
class Subscribe extends Step {
  constructor(readonly confirm: boolean) {
    super();
  }
  async act(model: Model, real: Real) {
    const subscription = await real.subscriptions.subscribe(real.world, real.buyer, this.confirm);
    if (subscription) model.subscriptions.push(subscription);
  }
  toString() {
    return `subscribe(${this.confirm ? '' : 'tab closed'})`;
  }
}

/** The clock reaches the end of the paid period: the gateway renews (charges the next period). */
class Renew extends Step {
  override check(model: Readonly<Model>) {
    return model.subscriptions.length > 0;
  }
  async act(model: Model, real: Real) {
    const periods = (
      await Promise.all(model.subscriptions.map((entry) => real.subscriptions.periods(real.world, entry)))
    ).flat();
    const end = Math.max(...periods.map((period) => period.end.getTime()));
    const now = real.world.g.emulator.clock.now().getTime();
    if (Number.isFinite(end) && end > now) await real.world.g.emulator.clock.advance(end - now + 60_000);
  }
  toString() {
    return 'renew';
  }
}

/** A renewal the bank declines: past due, the period paid for still plays. */
class FailRenewal extends Step {
  constructor(readonly pick: number) {
    super();
  }
  override check(model: Readonly<Model>) {
    return model.subscriptions.length > 0;
  }
  async act(model: Model, real: Real) {
    await real.subscriptions.failRenewal(real.world, pickOf(model.subscriptions, this.pick)!);
  }
  toString() {
    return `failRenewal(#${this.pick})`;
  }
}

/** The gateway refunds one payment of a subscription: exactly that period is taken back. */
class RefundPeriod extends Step {
  constructor(
    readonly pick: number,
    readonly period: number,
  ) {
    super();
  }
  override check(model: Readonly<Model>) {
    return model.subscriptions.length > 0;
  }
  async act(model: Model, real: Real) {
    await real.subscriptions.refundPeriod(real.world, pickOf(model.subscriptions, this.pick)!, this.period);
  }
  toString() {
    return `refundPeriod(#${this.pick}, period #${this.period})`;
  }
}

/** The subscriber cancels: no renewal, the period paid for still plays. */
class CancelSubscription extends Step {
  override check(model: Readonly<Model>) {
    return model.subscriptions.length > 0;
  }
  async act(_model: Model, real: Real) {
    await real.world.http.del(`/api/subscriptions/artist/${real.world.ids.artist}`, real.buyer);
  }
  toString() {
    return 'cancelSubscription';
  }
}

export class Sync extends Step {
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
        { arbitrary: fc.integer({ min: 0, max: 3 }).map((confirm) => new Subscribe(confirm > 0)), weight: 1 },
        { arbitrary: fc.constant(new Renew()), weight: 2 },
        { arbitrary: pick.map((p) => new FailRenewal(p)), weight: 1 },
        { arbitrary: fc.tuple(pick, pick).map(([p, period]) => new RefundPeriod(p, period)), weight: 1 },
        { arbitrary: fc.constant(new CancelSubscription()), weight: 1 },
      ),
    ],
    { maxCommands: 16 },
  );
}

/** Hours the clock moves between histories: each one's reconciliation reads only its own activity. */

/**
 * Histories that once broke an invariant, run before the random ones (fast-check's `examples`) so each stays fixed
 * whatever the seed.
 */
export const REGRESSIONS: Array<{ found: string; history: () => Command[] }> = [
  {
    // Razorpay, seed 2130567451: the checkout was paid twice, the ledger refused the second payment as a duplicate
    // and refunded it, then the payment it kept was refunded too. The order was refunded with no money left, but
    // its song went on playing: refused money on the order had marked it as one that never granted.
    found: 'an order with a refused second payment kept its song after its last money was refunded',
    history: () => [
      new Subscribe(false),
      new Buy('songA', false),
      new Renew(),
      new Pay(0, true, true),
      new Refund(0, false),
    ],
  },
];
