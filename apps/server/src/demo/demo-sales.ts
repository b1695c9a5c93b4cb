import { randomUUID } from 'node:crypto';
import { and, asc, eq, gt, isNull, or } from 'drizzle-orm';
import { addMonths, SUBSCRIPTION_CYCLE_MONTHS, type SubscriptionCycle } from '@backbeat/contract';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { albums, artists, plays, songs, subscriptions, users } from '../db/schema';
import type { AppServices } from '../modules';
import { seededRandom } from '../modules/media';
import { createDemoPayments } from '../modules/payments';
import { AppError } from '../platform/errors';
import { demoFans } from './demo-data';

const DAY_MS = 86_400_000;
const HISTORY_DAYS = 120;

interface Sellable {
  itemType: 'song' | 'album';
  itemId: string;
  price: number;
  artistId: string;
  /** Songs that play once this is owned. */
  songIds: string[];
}

interface RunningSubscription {
  fanId: string;
  artistId: string;
  cycle: SubscriptionCycle;
  /** Renewals stop after this moment (cancelled), or never (null). */
  cancelAt: Date | null;
}

interface Listening {
  fanId: string;
  songIds: string[];
  from: Date;
  to: Date;
}

/**
 * Four months of sales for the demo, written through the payment path the app uses: the demo gateway's checkout
 * (offer at the catalogue price, order, confirmation through the ledger), the ledger's renewal path for each month a
 * subscription renews (as a gateway's paid invoice applies it), a cancellation, an admin refund and a declined
 * card, on a clock moved through the past; then the plays of what each fan could play. Deterministic: the same
 * catalogue gives the same history relative to the day of the first start. No receipts are mailed for the past.
 */
export async function seedDemoSales(input: {
  config: Config;
  database: Database;
  services: AppServices;
}): Promise<{ orders: number; renewals: number; plays: number }> {
  const { config, database, services } = input;
  const db = database.db;
  const random = seededRandom(20_240_601);
  const today = Date.parse(`${new Date(services.clock()).toISOString().slice(0, 10)}T00:00:00Z`);
  let now = new Date(today - HISTORY_DAYS * DAY_MS);
  const moveTo = (at: number) => (now = new Date(Math.max(at, now.getTime())));

  const { payments, ledger } = createDemoPayments({
    db,
    entitlements: services.entitlements,
    currency: config.currency,
    clock: () => now,
  });

  const fanRows = await db
    .insert(users)
    .values(
      demoFans.map((fan) => ({
        name: fan.name,
        email: fan.email,
        emailVerified: true,
        role: 'user' as const,
      })),
    )
    .returning({ id: users.id });
  const fans = fanRows.map((row) => row.id);

  const catalogue = await sellables(database);
  const artistRows = await db
    .select({ id: artists.id, price: artists.subscriptionPrice })
    .from(artists)
    .orderBy(asc(artists.createdAt), asc(artists.id));
  const subscriptionSongs = new Map<string, string[]>();
  for (const row of await db
    .select({ id: songs.id, artistId: songs.artistId })
    .from(songs)
    .where(eq(songs.accessType, 'subscription'))
    .orderBy(asc(songs.createdAt), asc(songs.id))) {
    subscriptionSongs.set(row.artistId, [...(subscriptionSongs.get(row.artistId) ?? []), row.id]);
  }

  const listening: Listening[] = [];
  const running = new Map<string, RunningSubscription>();
  const counts = { orders: 0, renewals: 0, plays: 0 };
  let refunded = false;

  /** The checkout a fan completes in the demo gateway; a refusal (already owned, not for sale) is skipped. */
  async function purchase(fanId: string, item: Sellable, outcome: 'pay' | 'decline') {
    try {
      const created = await payments.createSandboxPurchase(
        { id: fanId },
        { itemType: item.itemType, itemId: item.itemId, amount: item.price },
      );
      await payments.confirmSandbox({ id: fanId }, created.order._id, outcome);
      counts.orders += 1;
      return created.order._id;
    } catch (error) {
      if (error instanceof AppError && error.status < 500) return null;
      throw error;
    }
  }

  async function subscribe(fanId: string, artistId: string, price: number, cycle: SubscriptionCycle) {
    const created = await payments.createSandboxSubscription({ id: fanId }, artistId, cycle, {
      amount: price * SUBSCRIPTION_CYCLE_MONTHS[cycle],
    });
    await payments.confirmSandbox({ id: fanId }, created.transactionId, 'pay');
    counts.orders += 1;
  }

  /** Renewals that fell due by `until`, each at its period end, as a gateway's paid invoice would apply them. */
  async function renewDue(until: number) {
    for (;;) {
      const due = await db
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.gateway, 'sandbox'), gt(subscriptions.currentPeriodEnd, new Date(0))))
        .orderBy(asc(subscriptions.currentPeriodEnd), asc(subscriptions.id));
      const next = due.find((row) => {
        const plan = running.get(row.id);
        const end = row.currentPeriodEnd!.getTime();
        return plan && end <= until && (plan.cancelAt === null || plan.cancelAt.getTime() > end);
      });
      if (!next) return;
      const plan = running.get(next.id)!;
      const start = next.currentPeriodEnd!;
      moveTo(start.getTime());
      await ledger.run(async (unit) => {
        const locked = await unit.repo.subscriptions.lockSubscription(next.id);
        await ledger.applySubscriptionPayment(unit, locked!, {
          confirmation: {
            externalId: `sbx_renewal_${next.id}_${start.getTime()}`,
            status: 'succeeded',
            amount: next.amount ?? 0,
            currency: next.currency ?? config.currency,
            raw: { gateway: 'sandbox', renewal: true },
          },
          periodStart: start,
          periodEnd: addMonths(start, SUBSCRIPTION_CYCLE_MONTHS[plan.cycle]),
        });
      });
      counts.renewals += 1;
    }
  }

  for (let day = 0; day < HISTORY_DAYS; day += 1) {
    const dayStart = today - (HISTORY_DAYS - day) * DAY_MS;
    await renewDue(dayStart + 8 * 3600_000);
    // Sales grow over the months, with busier weekends.
    const weekend = [0, 6].includes(new Date(dayStart).getUTCDay());
    const sales = Math.floor(random() * (1.5 + (day / HISTORY_DAYS) * 2.5) + (weekend ? 1 : 0));
    for (let sale = 0; sale < sales; sale += 1) {
      moveTo(dayStart + (9 + Math.floor(random() * 13)) * 3600_000 + Math.floor(random() * 3600_000));
      const fanId = fans[Math.floor(random() * random() * fans.length)]!;
      const item = catalogue[Math.floor(random() * random() * catalogue.length)]!;
      const declined = random() < 0.06;
      const orderId = await purchase(fanId, item, declined ? 'decline' : 'pay');
      if (!orderId || declined) continue;
      listening.push({ fanId, songIds: item.songIds, from: now, to: new Date(today) });
      if (!refunded && day > 60 && item.itemType === 'song') {
        // One buyer asks for their money back two days later: the admin refunds it.
        moveTo(now.getTime() + 2 * DAY_MS);
        await payments.refundOrder(orderId, 'Bought by mistake');
        listening[listening.length - 1]!.to = now;
        refunded = true;
      }
    }
    // A new subscriber every few days, mostly monthly.
    if (day < HISTORY_DAYS - 10 && random() < 0.12) {
      moveTo(dayStart + (10 + Math.floor(random() * 10)) * 3600_000);
      const fanId = fans[Math.floor(random() * fans.length)]!;
      const artist = artistRows[Math.floor(random() * random() * artistRows.length)]!;
      const cycle: SubscriptionCycle = random() < 0.15 ? '3m' : '1m';
      try {
        await subscribe(fanId, artist.id, artist.price, cycle);
      } catch (error) {
        if (error instanceof AppError && error.status < 500) continue;
        throw error;
      }
      const [row] = await db
        .select({ id: subscriptions.id })
        .from(subscriptions)
        .where(and(eq(subscriptions.userId, fanId), eq(subscriptions.artistId, artist.id)))
        .orderBy(asc(subscriptions.createdAt));
      const cancels = running.size === 2;
      running.set(row!.id, {
        fanId,
        artistId: artist.id,
        cycle,
        cancelAt: cancels ? new Date(now.getTime() + 20 * DAY_MS) : null,
      });
      listening.push({
        fanId,
        songIds: subscriptionSongs.get(artist.id) ?? [],
        from: now,
        to: new Date(today),
      });
    }
    // The third subscriber cancels after a few weeks: it plays until its paid period ends and does not renew.
    for (const [id, plan] of running) {
      if (
        plan.cancelAt &&
        plan.cancelAt.getTime() >= dayStart &&
        plan.cancelAt.getTime() < dayStart + DAY_MS
      ) {
        moveTo(plan.cancelAt.getTime());
        await payments.cancelSubscription({ id: plan.fanId }, plan.artistId);
        const [row] = await db.select().from(subscriptions).where(eq(subscriptions.id, id));
        const listen = listening.find((entry) => entry.fanId === plan.fanId && entry.to.getTime() === today);
        if (listen && row?.currentPeriodEnd) listen.to = row.currentPeriodEnd;
      }
    }
  }
  await renewDue(Math.min(services.clock().getTime(), today + 8 * 3600_000));

  counts.plays = await seedPlays(database, listening, random, today);
  return counts;
}

/** Songs sold on their own (purchase-only, not on a premium album) and albums with a price. */
async function sellables(database: Database): Promise<Sellable[]> {
  const db = database.db;
  const songRows = await db
    .select({ id: songs.id, price: songs.price, artistId: songs.artistId })
    .from(songs)
    .leftJoin(albums, eq(albums.id, songs.albumId))
    .where(
      and(
        eq(songs.accessType, 'purchase-only'),
        eq(songs.status, 'ready'),
        gt(songs.price, 0),
        or(isNull(albums.id), eq(albums.isPremium, false)),
      ),
    )
    .orderBy(asc(songs.createdAt), asc(songs.id));
  const albumRows = await db
    .select({ id: albums.id, price: albums.price, artistId: albums.artistId })
    .from(albums)
    .where(gt(albums.price, 0))
    .orderBy(asc(albums.createdAt), asc(albums.id));
  const tracks = await db
    .select({ id: songs.id, albumId: songs.albumId })
    .from(songs)
    .orderBy(asc(songs.trackNumber), asc(songs.id));
  return [
    ...songRows.map((row) => ({
      itemType: 'song' as const,
      itemId: row.id,
      price: row.price,
      artistId: row.artistId,
      songIds: [row.id],
    })),
    ...albumRows.map((row) => ({
      itemType: 'album' as const,
      itemId: row.id,
      price: row.price,
      artistId: row.artistId,
      songIds: tracks.filter((track) => track.albumId === row.id).map((track) => track.id),
    })),
  ];
}

/** Plays of what each fan owned or subscribed to, a few a week while they could play it. */
async function seedPlays(database: Database, listening: Listening[], random: () => number, today: number) {
  const rows: Array<typeof plays.$inferInsert> = [];
  for (const entry of listening) {
    if (entry.songIds.length === 0) continue;
    const end = Math.min(entry.to.getTime(), today);
    for (let at = entry.from.getTime() + 3600_000; at < end; at += (2 + random() * 5) * DAY_MS) {
      const listens = 1 + Math.floor(random() * 2);
      for (let n = 0; n < listens; n += 1) {
        rows.push({
          id: randomUUID(),
          userId: entry.fanId,
          songId: entry.songIds[Math.floor(random() * entry.songIds.length)]!,
          secondsListened: 30 + Math.floor(random() * 60),
          playedAt: new Date(Math.min(at + n * 240_000, end - 1)),
        });
      }
    }
  }
  for (let index = 0; index < rows.length; index += 500) {
    await database.db.insert(plays).values(rows.slice(index, index + 500));
  }
  return rows.length;
}
