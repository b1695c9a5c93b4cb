import { eq, sql } from 'drizzle-orm';
import type { GatewayName } from '@backbeat/gateway-emulator';
import { orders, paymentIssues, payments, refunds } from '../../src/db/schema';
import { KEPT_INSTEAD } from '../../src/modules/payments/adjustments.repository';
import { catalogFixtures } from '../catalog-fixtures';
import { gatewayTestApp, type GatewayTestApp } from '../gateways.fixtures';
import { commerceFixtures, requests, type TestUser } from '../payments.fixtures';

/** What a buyer can own: a single, a song on an album, and that album (owning it owns the song). */
export type ItemKey = 'songA' | 'songB' | 'albumX';
export const ITEMS: ItemKey[] = ['songA', 'songB', 'albumX'];
export const PRICES: Record<ItemKey, number> = { songA: 149, songB: 129, albumX: 499 };
/** The songs whose playback the invariants check, and the items that give each. */
export const SONGS = { songA: ['songA'], songB: ['songB', 'albumX'] } as const satisfies Record<
  string,
  readonly ItemKey[]
>;
/** The monthly price of a subscription to the artist, and the song only subscribers play. */
export const MONTHLY = 499;
export type PlayedSong = keyof typeof SONGS | 'songS';

export interface World {
  g: GatewayTestApp;
  http: ReturnType<typeof requests>;
  ids: Record<ItemKey | 'artist' | 'songS', string>;
  admin: TestUser;
  newBuyer(): Promise<TestUser>;
}

/**
 * The app with the three gateways against the in-process emulator, every provider holding its webhooks (the model
 * delivers, reorders, repeats and drops them itself) and retrying nothing on a timer, and a small catalogue.
 */
export async function createWorld(): Promise<World> {
  const g = await gatewayTestApp({
    emulator: { webhookModes: { stripe: 'hold', razorpay: 'hold', paypal: 'hold' }, retryDelaysMs: [] },
  });
  const f = catalogFixtures(g.ctx.database);
  const c = commerceFixtures(g.ctx);
  const owner = await f.user('artist');
  const admin = await f.user('admin');
  const artist = (await f.artist({ name: 'Model Artist', ownerUserId: owner.id })).id;
  const albumX = await c.album({ artistId: artist, title: 'Album X', price: PRICES.albumX });
  const songA = await c.song({
    artistId: artist,
    title: 'Song A',
    price: PRICES.songA,
    accessType: 'purchase-only',
  });
  await g.ctx.database.db.execute(
    sql`update artists set subscription_price = ${MONTHLY} where id = ${artist}::uuid`,
  );
  const songS = await c.song({ artistId: artist, title: 'Song S', price: 0, accessType: 'subscription' });
  const songB = await c.song({
    artistId: artist,
    title: 'Song B',
    price: PRICES.songB,
    accessType: 'purchase-only',
    albumId: albumX,
  });
  return {
    g,
    http: requests(g.ctx),
    ids: { artist, albumX, songA, songB, songS },
    admin,
    newBuyer: () => f.user('user'),
  };
}

/** The songs the buyer plays now, as the catalogue answers them (the access policy's decision). */
export async function playing(world: World, buyer: TestUser): Promise<Set<PlayedSong>> {
  const plays = await world.http.canPlay(world.ids.artist, buyer);
  const out = new Set<PlayedSong>();
  if (plays[world.ids.songA]) out.add('songA');
  if (plays[world.ids.songB]) out.add('songB');
  if (plays[world.ids.songS]) out.add('songS');
  return out;
}

/** The ledger's money of a subscription: what its orders' payments brought in, and what stands after refunds. */
export async function ledgerOfSubscription(world: World, externalId: string) {
  const [row] = await world.g.ctx.database.query<{ paid: number; net: number }>(sql`
    select coalesce(sum(p.amount), 0)::int as paid,
           (coalesce(sum(p.amount), 0) - coalesce((select sum(r.amount) from ${refunds} r join ${orders} o2
              on o2.id = r.order_id where o2.subscription_id = s.id), 0))::int as net
    from subscriptions s
    left join ${orders} o on o.subscription_id = s.id
    left join ${payments} p on p.order_id = o.id and p.status = 'succeeded'
    where s.external_id = ${externalId}
    group by s.id`);
  return { paid: row?.paid ?? 0, net: row?.net ?? 0 };
}

/** What the ledger holds for one of our orders: its status, money in, money moved back, open issues. */
export async function ledgerOf(world: World, orderId: string) {
  const db = world.g.ctx.database.db;
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  const [money] = await db
    .select({
      paid: sql<number>`coalesce((select sum(amount) from ${payments} where order_id = ${orderId}::uuid and status = 'succeeded'), 0)::int`,
      movedBack: sql<number>`coalesce((select sum(amount) from ${refunds} where order_id = ${orderId}::uuid), 0)::int`,
      refused: sql<number>`(select count(*) from ${paymentIssues} where order_id = ${orderId}::uuid and kind in ('duplicate_payment', 'amount_mismatch'))::int`,
    })
    .from(sql`(select 1) as one`);
  return {
    status: order?.status ?? 'missing',
    paid: money?.paid ?? 0,
    net: (money?.paid ?? 0) - (money?.movedBack ?? 0),
    refused: (money?.refused ?? 0) > 0,
  };
}

/**
 * Per song or album id, how many of these orders stand paid in the ledger with money left and no automatic refund
 * decided (a second payment for an owned item is refunded by the ledger, so it does not stand).
 */
export async function standingPaidOrders(world: World, orderIds: string[]): Promise<Map<string, number>> {
  if (orderIds.length === 0) return new Map();
  const rows = await world.g.ctx.database.query<{ item: string; standing: number }>(sql`
    select coalesce(o.song_id, o.album_id)::text as item, count(*)::int as standing
    from ${orders} o
    where o.id in (${sql.join(
      orderIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})
      and o.status = 'paid'
      and not exists (select 1 from ${paymentIssues} i where i.order_id = o.id
                      and i.kind in ('duplicate_payment', 'amount_mismatch')
                      and coalesce(i.resolution, '') <> ${KEPT_INSTEAD})
      and coalesce((select sum(amount) from ${payments} p where p.order_id = o.id and p.status = 'succeeded'), 0)
        > coalesce((select sum(amount) from ${refunds} r where r.order_id = o.id), 0)
    group by 1`);
  return new Map(rows.map((row) => [row.item, row.standing]));
}

/** Whether the admin is told that money of one of these orders must be returned by hand (an open `refund_failed`). */
export async function refundByHandListed(world: World, orderIds: string[]): Promise<boolean> {
  if (orderIds.length === 0) return false;
  const rows = await world.g.ctx.database.query<{ n: number }>(sql`
    select count(*)::int as n from ${paymentIssues}
    where kind = 'refund_failed' and status = 'open'
      and order_id in (${sql.join(
        orderIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`);
  return (rows[0]?.n ?? 0) > 0;
}

/** Webhooks of a gateway that were emitted and not answered 2xx yet (held, dropped, or failed). */
export function undelivered(world: World, gateway: GatewayName): number {
  return world.g.emulator
    .events(gateway)
    .filter((event) => event.lastStatus === null || event.lastStatus < 200 || event.lastStatus >= 300).length;
}

/**
 * A crash between receiving an event and applying it: the next transaction of the database runs its work and then
 * fails before its commit, as a process killed at that moment would (nothing it wrote survives).
 */
export function crashNextTransaction(world: World): () => void {
  const db = world.g.ctx.database.db as unknown as { transaction: (...args: unknown[]) => Promise<unknown> };
  const original = db.transaction;
  let armed = true;
  db.transaction = async function (this: unknown, work: unknown, config?: unknown) {
    if (!armed) return original.call(this, work, config);
    armed = false;
    db.transaction = original;
    return original.call(
      this,
      async (tx: unknown) => {
        await (work as (tx: unknown) => Promise<unknown>)(tx);
        throw new Error('crashed before commit (model test)');
      },
      config,
    );
  };
  return () => {
    db.transaction = original;
  };
}
