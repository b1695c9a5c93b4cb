import type { Model, Real } from './model';
import type { ModelOrder, ProviderMoney } from './drivers';
import type { PaidPeriod } from './subscription-drivers';
import {
  ITEMS,
  ledgerOf,
  ledgerOfSubscription,
  playing,
  refundByHandListed,
  SONGS,
  standingPaidOrders,
  undelivered,
  type ItemKey,
} from './world';

export const pickOf = <T>(list: T[], pick: number): T | undefined =>
  list.length ? list[pick % list.length] : undefined;

/** Whether an order's item gives the song (the album gives its song). */
const gives = (item: ItemKey, song: keyof typeof SONGS) => (SONGS[song] as readonly ItemKey[]).includes(item);

async function truths(real: Real, model: Model): Promise<Map<ModelOrder, ProviderMoney>> {
  const out = new Map<ModelOrder, ProviderMoney>();
  for (const order of model.orders) out.set(order, await real.driver.truth(real.world, order));
  return out;
}

/** Every paid period of the history's subscriptions, as the gateway reports them. */
async function periodsOf(real: Real, model: Model): Promise<PaidPeriod[]> {
  const out: PaidPeriod[] = [];
  for (const subscription of model.subscriptions) {
    out.push(...(await real.subscriptions.periods(real.world, subscription)));
  }
  return out;
}

const covers = (period: PaidPeriod, at: Date) => period.start <= at && at < period.end;

function violate(real: Real, message: string): void {
  real.violations.push(message);
  throw new Error(`invariant violated: ${message}`);
}

/**
 * Safety, after every step. (S1) A song plays only if the gateway took money for an order that gives it: nothing is
 * granted unpaid. (S2) When every event the gateway emitted was delivered, a song plays only while an order that
 * gives it still holds money at the gateway: refunded or disputed music never plays once the ledger was told.
 * (S3) Never two standing paid orders for one item without an automatic refund under way. The subscriber song
 * likewise: played only after a subscription payment, and (all delivered) only within a paid period.
 */
export async function checkSafety(real: Real, model: Model): Promise<void> {
  const plays = await playing(real.world, real.buyer);
  if (plays.size > 0) {
    const settled = undelivered(real.world, real.driver.gateway) === 0;
    for (const song of plays) {
      if (song === 'songS') {
        const periods = await periodsOf(real, model);
        if (!periods.some((period) => period.captured > 0)) {
          violate(real, 'the subscriber song plays but no subscription payment was ever taken');
        }
        const now = real.world.g.emulator.clock.now();
        if (settled && !periods.some((period) => period.net > 0 && covers(period, now))) {
          violate(
            real,
            'the subscriber song plays with every event delivered, but no paid period covers now',
          );
        }
        continue;
      }
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
 * captured, and captured less refunded and disputed; (C3) at most one order of an item holds money, unless every
 * one that does was disputed (no gateway refunds those) and the admin is told to return the money by hand.
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
    if (holding.length <= 1) continue;
    // Neither Stripe nor PayPal refunds a disputed payment, even after the seller won: when every payment holding
    // money was disputed, none can be refunded, and the admin must be told to return it another way.
    const refundable = holding.filter((order) => !order.disputeId);
    const listed = await refundByHandListed(
      world,
      holding.map((order) => order.orderId),
    );
    if (refundable.length > 0 || !listed) {
      violate(real, `${holding.length} orders of ${item} hold money at the gateway`);
    }
    real.reached.add('returned by hand');
  }
  await convergeSubscriptions(real, model, plays.has('songS'));
}

/**
 * (C4) The subscriber song plays exactly when a payment the gateway still holds pays for a period covering now; (C5)
 * the ledger's money of each subscription equals the gateway's over all its payments.
 */
async function convergeSubscriptions(real: Real, model: Model, playsSubscriberSong: boolean): Promise<void> {
  const now = real.world.g.emulator.clock.now();
  const periods: PaidPeriod[] = [];
  for (const subscription of model.subscriptions) {
    const own = await real.subscriptions.periods(real.world, subscription);
    periods.push(...own);
    const ledger = await ledgerOfSubscription(real.world, subscription.externalId);
    const captured = own.reduce((sum, period) => sum + period.captured, 0);
    const net = own.reduce((sum, period) => sum + period.net, 0);
    if (own.length > 0) real.reached.add('subscribed');
    if (own.length > 1) real.reached.add('renewed');
    if (net < captured) real.reached.add('subscription period refunded');
    if (ledger.paid !== captured || ledger.net !== net) {
      violate(
        real,
        `subscription ${subscription.externalId}: ledger paid ${ledger.paid}, net ${ledger.net}; gateway captured ${captured}, net ${net}`,
      );
    }
  }
  const paidNow = periods.some((period) => period.net > 0 && covers(period, now));
  if (paidNow !== playsSubscriberSong) {
    violate(
      real,
      `the subscriber song ${playsSubscriberSong ? 'plays' : 'does not play'} but ${paidNow ? 'a paid period covers now' : 'no paid period covers now'}`,
    );
  }
}
