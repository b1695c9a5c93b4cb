import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { albums, artists, plays, songs, subscriptions } from '../src/db/schema';
import { DashboardRepository } from '../src/modules/dashboard/dashboard.repository';
import { transactionsCsv } from '../src/modules/dashboard/transactions-csv';
import { PaymentLedger } from '../src/modules/payments/payment-ledger';
import { createPaymentsTransactor, PaymentsRepository } from '../src/modules/payments/payments.repository';
import { catalogFixtures } from './catalog-fixtures';
import { commerceFixtures, requests, type TestUser } from './payments.fixtures';
import { createTestApp, type TestContext } from './test-app';

/*
 * One known ledger, written through the payment path the app uses (the demo gateway's checkout, the ledger's
 * renewal as a gateway's invoice.paid calls it, admin refunds, a cancellation, plays, previews of locked songs), on
 * a clock the test moves.
 * Every figure of every dashboard call is then checked to the cent. Nova sells in USD and one album in EUR; the
 * Euro Band sells in EUR.
 */

let ctx: TestContext;
let http: ReturnType<typeof requests>;
let clock = new Date('2025-01-06T10:00:00Z');
const at = (iso: string) => (clock = new Date(iso));
const ids: Record<string, string> = {};
const people = {} as Record<'b1' | 'b2' | 'b3' | 'nova' | 'euro' | 'lonely' | 'listener' | 'admin', TestUser>;
const FORMULA_TITLE = "=cmd|' /C calc'!A0";

async function buy(
  user: TestUser,
  itemType: 'song' | 'album',
  itemId: string,
  amount: number,
  outcome: 'pay' | 'decline' = 'pay',
) {
  const created = await http.post('/api/payments/sandbox/create-order', { itemType, itemId, amount }, user);
  expect(created.statusCode, created.body).toBe(201);
  const orderId = created.json<{ order: { _id: string } }>().order._id;
  const confirmed = await http.post(`/api/payments/sandbox/orders/${orderId}/confirm`, { outcome }, user);
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return orderId;
}

async function subscribe(user: TestUser, artistId: string, cycle: '1m' | '3m') {
  const created = await http.post(
    `/api/subscriptions/artist/${artistId}`,
    { gateway: 'sandbox', cycle },
    user,
  );
  expect(created.statusCode, created.body).toBe(201);
  const orderId = created.json<{ transactionId: string }>().transactionId;
  const paid = await http.post(`/api/payments/sandbox/orders/${orderId}/confirm`, { outcome: 'pay' }, user);
  expect(paid.statusCode, paid.body).toBe(200);
  return orderId;
}

async function refund(orderId: string) {
  const res = await http.post(`/api/admin/orders/${orderId}/refund`, {}, people.admin);
  expect(res.statusCode, res.body).toBe(200);
}

/**
 * A counted full play, as the streaming service records one (after the song's audio was fetched: the rules of
 * what counts are stream-plays.test.ts's): the figures here are the ledger's, on the test's clock.
 */
async function play(user: TestUser, songId: string) {
  await ctx.database.db
    .insert(plays)
    .values({ userId: user.id, songId, secondsListened: 60, kind: 'full', playedAt: clock });
}

/**
 * A 30-second preview of a locked song, recorded as the preview service records one when its audio is first
 * fetched (previews.test.ts plays one through the API and reads the dashboards): a figure apart from plays.
 */
async function preview(user: TestUser | null, songId: string) {
  await ctx.database.db
    .insert(plays)
    .values({ userId: user?.id ?? null, songId, secondsListened: 0, kind: 'preview', playedAt: clock });
}

/** A renewal as a gateway's paid invoice applies it: the ledger's own renewal path, on the test's clock. */
async function renew(externalId: string, periodEnd: string) {
  const db = ctx.database.db;
  const ledger = new PaymentLedger({
    transaction: createPaymentsTransactor(db),
    repo: new PaymentsRepository(db),
    entitlements: ctx.app.services.entitlements,
    jobs: ctx.app.services.jobs,
    clock: () => clock,
  });
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.userId, people.b1.id));
  await ledger.run(async (unit) => {
    const locked = await unit.repo.subscriptions.lockSubscription(row!.id);
    const settled = await ledger.applySubscriptionPayment(unit, locked!, {
      confirmation: { externalId, status: 'succeeded', amount: 499, currency: 'USD', raw: {} },
      periodStart: clock,
      periodEnd: new Date(periodEnd),
    });
    expect(settled?.changed).toBe(true);
  });
}

const get = async (url: string, user: TestUser | null = people.admin) => {
  const res = await ctx.app.inject({ method: 'GET', url, headers: user ? user.headers : {} });
  const json = res.headers['content-type']?.toString().startsWith('application/json');
  return { status: res.statusCode, body: json ? res.json() : res.body, raw: res };
};

const money = (currency: string, values: Partial<Record<string, number>>) => ({
  currency,
  songRevenue: 0,
  albumRevenue: 0,
  subscriptionRevenue: 0,
  totalRevenue: 0,
  refunded: 0,
  sales: 0,
  refunds: 0,
  ...values,
});

beforeAll(async () => {
  ctx = await createTestApp({ services: { clock: () => clock } });
  http = requests(ctx);
  const f = catalogFixtures(ctx.database);
  const c = commerceFixtures(ctx);
  const db = ctx.database.db;
  for (const name of ['b1', 'b2', 'b3', 'listener'] as const) people[name] = await f.user('user', name);
  people.nova = await f.user('artist', 'Nova Account');
  people.euro = await f.user('artist', 'Euro Account');
  people.lonely = await f.user('artist', 'No Profile');
  people.admin = await f.user('admin', 'Admin');
  ids.nova = (await f.artist({ name: 'Nova Reyes', ownerUserId: people.nova.id })).id;
  ids.euro = (await f.artist({ name: 'Euro Band', ownerUserId: people.euro.id })).id;
  await db.update(artists).set({ currency: 'EUR' }).where(eq(artists.id, ids.euro));
  ids.s1 = await c.song({ artistId: ids.nova, title: 'Low Tide', price: 129, accessType: 'purchase-only' });
  ids.a1 = await c.album({ artistId: ids.nova, title: 'Deep Water', price: 999, isPremium: true });
  ids.t1 = await c.song({
    artistId: ids.nova,
    title: 'Abyss',
    price: 99,
    accessType: 'purchase-only',
    albumId: ids.a1,
  });
  ids.a2 = await c.album({ artistId: ids.nova, title: 'Euro Edition', price: 800 });
  await db.update(albums).set({ currency: 'EUR' }).where(eq(albums.id, ids.a2));
  ids.e1 = await c.song({
    artistId: ids.euro,
    title: FORMULA_TITLE,
    price: 250,
    accessType: 'purchase-only',
  });
  await db.update(songs).set({ currency: 'EUR' }).where(eq(songs.id, ids.e1));

  at('2025-01-06T10:00:00Z');
  ids.o1 = await buy(people.b1, 'song', ids.s1, 129);
  await play(people.b1, ids.s1);
  await play(people.b1, ids.s1);
  at('2025-01-07T12:00:00Z');
  ids.o2 = await buy(people.b2, 'album', ids.a1, 999);
  await play(people.b2, ids.t1);
  at('2025-01-08T09:00:00Z');
  ids.o3 = await subscribe(people.b1, ids.nova, '1m');
  at('2025-01-08T09:30:00Z');
  ids.o4 = await buy(people.b3, 'song', ids.s1, 129, 'decline');
  await preview(people.b3, ids.s1);
  at('2025-01-13T15:00:00Z');
  ids.o5 = await buy(people.b3, 'album', ids.a2, 800);
  at('2025-01-14T08:00:00Z');
  ids.o6 = await buy(people.b2, 'song', ids.e1, 250);
  await play(people.b2, ids.e1);
  at('2025-01-20T10:00:00Z');
  ids.o7 = await subscribe(people.b2, ids.nova, '3m');
  at('2025-01-21T11:00:00Z');
  await refund(ids.o2);
  at('2025-02-03T20:00:00Z');
  await play(people.b1, ids.s1);
  await preview(null, ids.t1);
  at('2025-02-08T09:00:00Z');
  await renew('sbx_renewal_1', '2025-03-08T09:00:00Z');
  at('2025-02-10T12:00:00Z');
  expect((await http.del(`/api/subscriptions/artist/${ids.nova}`, people.b1)).statusCode).toBe(200);
  at('2025-02-15T10:00:00Z');
  await refund(ids.o7);
  at('2025-02-20T12:00:00Z');
});
afterAll(() => ctx.close());

const jan = 'from=2025-01-01&to=2025-01-31';
const janFeb = 'from=2025-01-01&to=2025-02-28';

describe('the SPEC calls on the known ledger', () => {
  it('revenue-summary: payments less refunds per kind; EUR apart', async () => {
    const usd = {
      songRevenue: 129,
      albumRevenue: 0,
      subscriptionRevenue: 998,
      totalRevenue: 1127,
      currency: 'USD',
    };
    const eur = {
      songRevenue: 0,
      albumRevenue: 800,
      subscriptionRevenue: 0,
      totalRevenue: 800,
      currency: 'EUR',
    };
    const { body } = await get(`/api/admin/dashboard/revenue-summary/${ids.nova}`);
    expect(body).toEqual({ revenue: { ...usd, byCurrency: [usd, eur] } });
    const euro = await get(`/api/admin/dashboard/revenue-summary/${ids.euro}`, people.euro);
    const euroEur = {
      songRevenue: 250,
      albumRevenue: 0,
      subscriptionRevenue: 0,
      totalRevenue: 250,
      currency: 'EUR',
    };
    expect(euro.body).toEqual({ revenue: { ...euroEur, byCurrency: [euroEur] } });
  });

  it('subscriber-count: the cancelled subscription still paid through; subscription revenue net of the refund', async () => {
    const { body } = await get(`/api/admin/dashboard/subscriber-count/${ids.nova}`, people.nova);
    expect(body).toEqual({ activeSubscribers: 1, totalRevenue: 998, currency: 'USD' });
  });

  it('purchased songs and albums: owners now, revenue net of refunds in the item currency', async () => {
    expect((await get(`/api/admin/dashboard/purchased-songs/${ids.nova}`)).body).toEqual({
      songs: [
        { _id: ids.s1, title: 'Low Tide', coverImage: null, purchases: 1, revenue: 129, currency: 'USD' },
      ],
    });
    expect((await get(`/api/admin/dashboard/purchased-albums/${ids.nova}`)).body).toEqual({
      albums: [
        { _id: ids.a2, title: 'Euro Edition', cover: null, purchases: 1, revenue: 800, currency: 'EUR' },
        { _id: ids.a1, title: 'Deep Water', cover: null, purchases: 0, revenue: 0, currency: 'USD' },
      ],
    });
  });
});

describe('overview', () => {
  it('Nova in January: every kind, the refund, plays and subscriber movements', async () => {
    const { status, body } = await get(`/api/admin/dashboard/overview?artistId=${ids.nova}&${jan}`);
    expect(status).toBe(200);
    expect(body).toEqual({
      range: { from: '2025-01-01', to: '2025-01-31' },
      currency: 'USD',
      revenue: [
        money('USD', {
          songRevenue: 129,
          albumRevenue: 0,
          subscriptionRevenue: 499 + 1497,
          totalRevenue: 129 + 499 + 1497,
          refunded: 999,
          sales: 4,
          refunds: 1,
        }),
        money('EUR', { albumRevenue: 800, totalRevenue: 800, sales: 1 }),
      ],
      plays: 3,
      previewPlays: 1,
      activeSubscribers: 1,
      newSubscribers: 2,
      endedSubscribers: 0,
      // December, the 31 days before: nothing happened yet.
      previous: {
        range: { from: '2024-12-01', to: '2024-12-31' },
        revenue: [money('USD', {})],
        plays: 0,
        previewPlays: 0,
        activeSubscribers: 0,
        newSubscribers: 0,
        endedSubscribers: 0,
      },
    });
  });

  it('compares a range with the period of the same length before it: 31 days from Feb 1 against January', async () => {
    const { body } = await get(
      `/api/admin/dashboard/overview?artistId=${ids.nova}&from=2025-02-01&to=2025-03-03`,
    );
    expect(body.previous).toEqual({
      range: { from: '2025-01-01', to: '2025-01-31' },
      revenue: [
        money('USD', {
          songRevenue: 129,
          albumRevenue: 0,
          subscriptionRevenue: 499 + 1497,
          totalRevenue: 129 + 499 + 1497,
          refunded: 999,
          sales: 4,
          refunds: 1,
        }),
        money('EUR', { albumRevenue: 800, totalRevenue: 800, sales: 1 }),
      ],
      plays: 3,
      previewPlays: 1,
      // Both January subscriptions were running at the end of January 31.
      activeSubscribers: 2,
      newSubscribers: 2,
      endedSubscribers: 0,
    });
  });

  it('gives the previous period the very figures that range answers on its own (the platform, 28 days)', async () => {
    const { body } = await get('/api/admin/dashboard/overview?from=2025-02-01&to=2025-02-28');
    const { from, to } = body.previous.range;
    expect({ from, to }).toEqual({ from: '2025-01-04', to: '2025-01-31' });
    const own = (await get(`/api/admin/dashboard/overview?from=${from}&to=${to}`)).body;
    const { activeSubscribers: _now, previous: _before, currency: _currency, ...figures } = own;
    const { activeSubscribers: _atEnd, ...previousFigures } = body.previous;
    expect(previousFigures).toEqual(figures);
  });

  it('the platform in February (admin): a renewal less a refund is negative', async () => {
    const { body } = await get('/api/admin/dashboard/overview?from=2025-02-01&to=2025-02-28');
    const { previous: _previous, ...current } = body;
    expect(current).toEqual({
      range: { from: '2025-02-01', to: '2025-02-28' },
      currency: 'USD',
      revenue: [
        money('USD', {
          subscriptionRevenue: 499 - 1497,
          totalRevenue: -998,
          refunded: 1497,
          sales: 1,
          refunds: 1,
        }),
      ],
      plays: 1,
      previewPlays: 1,
      activeSubscribers: 1,
      newSubscribers: 0,
      endedSubscribers: 1,
    });
  });

  it('ranges crossing month boundaries: partial months at both ends, with and without whole months between', async () => {
    const partial = (
      await get(`/api/admin/dashboard/overview?artistId=${ids.nova}&from=2025-01-14&to=2025-02-09`)
    ).body;
    expect(partial.revenue).toEqual([
      money('USD', {
        albumRevenue: -999,
        subscriptionRevenue: 1497 + 499,
        totalRevenue: 1497 + 499 - 999,
        refunded: 999,
        sales: 2,
        refunds: 1,
      }),
    ]);
    expect(partial.plays).toBe(1);
    // Active subscribers are those of now (the clock: 2025-02-20), whatever the range.
    expect(partial).toMatchObject({ activeSubscribers: 1, newSubscribers: 1, endedSubscribers: 0 });
    const spanning = (
      await get(`/api/admin/dashboard/overview?artistId=${ids.nova}&from=2024-12-15&to=2025-02-09`)
    ).body;
    expect(spanning.revenue).toEqual([
      money('USD', {
        songRevenue: 129,
        subscriptionRevenue: 499 + 1497 + 499,
        totalRevenue: 129 + 499 + 1497 + 499,
        refunded: 999,
        sales: 5,
        refunds: 1,
      }),
      money('EUR', { albumRevenue: 800, totalRevenue: 800, sales: 1 }),
    ]);
    expect(spanning.plays).toBe(4);
    const artists = (await get('/api/admin/dashboard/top?type=artist&from=2025-01-07&to=2025-02-08')).body;
    expect(artists.items).toEqual([
      { _id: ids.nova, title: 'Nova Reyes', image: null, artist: null, revenue: 2495, sales: 4, plays: 2 },
    ]);
    const songs = (
      await get(`/api/admin/dashboard/top?type=song&artistId=${ids.nova}&from=2025-01-06&to=2025-02-03`)
    ).body;
    expect(
      songs.items.map((i: { _id: string; revenue: number; plays: number }) => [i._id, i.revenue, i.plays]),
    ).toEqual([[ids.s1, 129, 3]]);
  });

  it('an artist account gets its own artist without asking; the default range is the 30 days to today', async () => {
    const { body } = await get('/api/admin/dashboard/overview', people.euro);
    expect(body.range).toEqual({ from: '2025-01-22', to: '2025-02-20' });
    expect(body.currency).toBe('EUR');
    expect(body.revenue).toEqual([money('EUR', {})]);
    const own = await get(`/api/admin/dashboard/overview?${jan}`, people.euro);
    expect(own.body.revenue).toEqual([money('EUR', { songRevenue: 250, totalRevenue: 250, sales: 1 })]);
    expect(own.body).toMatchObject({ plays: 1, previewPlays: 0 });
  });
});

describe('series', () => {
  it('revenue by day, zero-filled, per currency', async () => {
    const { body } = await get(`/api/admin/dashboard/revenue?from=2025-01-06&to=2025-01-08&bucket=day`);
    expect(body.currency).toBe('USD');
    expect(body.series.map((s: { currency: string }) => s.currency)).toEqual(['USD']);
    const point = (period: string, values: Partial<Record<string, number>>) => {
      const { currency: _c, ...rest } = money('USD', values);
      void _c;
      return { period, ...rest };
    };
    expect(body.series[0].points).toEqual([
      point('2025-01-06', { songRevenue: 129, totalRevenue: 129, sales: 1 }),
      point('2025-01-07', { albumRevenue: 999, totalRevenue: 999, sales: 1 }),
      point('2025-01-08', { subscriptionRevenue: 499, totalRevenue: 499, sales: 1 }),
    ]);
  });

  it('revenue by week and by month (month rows for whole months, day rows around them)', async () => {
    const weeks = (
      await get(`/api/admin/dashboard/revenue?artistId=${ids.nova}&from=2025-01-15&to=2025-01-26&bucket=week`)
    ).body;
    expect(weeks.series.map((s: { currency: string }) => s.currency)).toEqual(['USD']);
    expect(
      weeks.series[0].points.map((p: { period: string; totalRevenue: number }) => [p.period, p.totalRevenue]),
    ).toEqual([
      ['2025-01-13', 0],
      ['2025-01-20', 1497 - 999],
    ]);
    const months = (await get(`/api/admin/dashboard/revenue?from=2024-12-20&to=2025-02-10&bucket=month`))
      .body;
    const usd = months.series[0].points.map(
      (p: { period: string; totalRevenue: number; refunded: number }) => [
        p.period,
        p.totalRevenue,
        p.refunded,
      ],
    );
    expect(usd).toEqual([
      ['2024-12-01', 0, 0],
      ['2025-01-01', 129 + 999 + 499 + 1497 - 999, 999],
      ['2025-02-01', 499, 0],
    ]);
    expect(months.series[1]).toMatchObject({ currency: 'EUR' });
    expect(months.series[1].points.map((p: { totalRevenue: number }) => p.totalRevenue)).toEqual([
      0, 1050, 0,
    ]);
  });

  it('subscribers at the end of each week and month, with starts and ends', async () => {
    const weeks = (
      await get(
        `/api/admin/dashboard/subscribers?artistId=${ids.nova}&from=2025-01-06&to=2025-03-16&bucket=week`,
      )
    ).body;
    expect(
      weeks.points.map((p: Record<string, number>) => [
        p.period,
        p.activeSubscribers,
        p.newSubscribers,
        p.endedSubscribers,
      ]),
    ).toEqual([
      ['2025-01-06', 1, 1, 0],
      ['2025-01-13', 1, 0, 0],
      ['2025-01-20', 2, 1, 0],
      ['2025-01-27', 2, 0, 0],
      ['2025-02-03', 2, 0, 0],
      ['2025-02-10', 1, 0, 1],
      ['2025-02-17', 1, 0, 0],
      ['2025-02-24', 1, 0, 0],
      ['2025-03-03', 0, 0, 1],
      ['2025-03-10', 0, 0, 0],
    ]);
    const months = (await get('/api/admin/dashboard/subscribers?from=2025-01-15&to=2025-03-31&bucket=month'))
      .body;
    expect(months.points).toEqual([
      { period: '2025-01-01', activeSubscribers: 2, newSubscribers: 1, endedSubscribers: 0 },
      { period: '2025-02-01', activeSubscribers: 1, newSubscribers: 0, endedSubscribers: 1 },
      { period: '2025-03-01', activeSubscribers: 0, newSubscribers: 0, endedSubscribers: 1 },
    ]);
    const days = (await get(`/api/admin/dashboard/subscribers?from=2025-01-07&to=2025-01-08`)).body;
    expect(days.points.map((p: { activeSubscribers: number }) => p.activeSubscribers)).toEqual([0, 1]);
  });

  it('plays by day and month, previews of locked songs apart', async () => {
    const days = (await get(`/api/admin/dashboard/plays?artistId=${ids.nova}&from=2025-01-05&to=2025-01-08`))
      .body;
    expect(days.points).toEqual([
      { period: '2025-01-05', plays: 0, previewPlays: 0 },
      { period: '2025-01-06', plays: 2, previewPlays: 0 },
      { period: '2025-01-07', plays: 1, previewPlays: 0 },
      { period: '2025-01-08', plays: 0, previewPlays: 1 },
    ]);
    const months = (await get(`/api/admin/dashboard/plays?${janFeb}&bucket=month`)).body;
    expect(months.points).toEqual([
      { period: '2025-01-01', plays: 4, previewPlays: 1 },
      { period: '2025-02-01', plays: 1, previewPlays: 1 },
    ]);
    const euro = (await get(`/api/admin/dashboard/plays?${janFeb}&bucket=month`, people.euro)).body;
    expect(euro.points).toEqual([
      { period: '2025-01-01', plays: 1, previewPlays: 0 },
      { period: '2025-02-01', plays: 0, previewPlays: 0 },
    ]);
  });
});

describe('top songs, albums and artists', () => {
  const top = async (query: string, user: TestUser = people.admin) =>
    (await get(`/api/admin/dashboard/top?${janFeb}&${query}`, user)).body;

  it('by revenue: positive net only, in the asked currency, with sales and plays', async () => {
    expect((await top(`type=song&artistId=${ids.nova}`)).items).toEqual([
      {
        _id: ids.s1,
        title: 'Low Tide',
        image: null,
        artist: { _id: ids.nova, name: 'Nova Reyes' },
        revenue: 129,
        sales: 1,
        plays: 3,
      },
    ]);
    expect((await top('type=album')).items).toEqual([]);
    const eurAlbums = await top('type=album&currency=eur');
    expect(eurAlbums.currency).toBe('EUR');
    expect(eurAlbums.items.map((i: { _id: string; revenue: number }) => [i._id, i.revenue])).toEqual([
      [ids.a2, 800],
    ]);
    const artistsUsd = await top('type=artist');
    expect(artistsUsd.items).toEqual([
      { _id: ids.nova, title: 'Nova Reyes', image: null, artist: null, revenue: 1127, sales: 5, plays: 4 },
    ]);
    const artistsEur = await top('type=artist&currency=EUR');
    expect(artistsEur.items.map((i: { title: string; revenue: number }) => [i.title, i.revenue])).toEqual([
      ['Nova Reyes', 800],
      ['Euro Band', 250],
    ]);
  });

  it('by plays: full plays only (the previews of Low Tide and Abyss rank nothing)', async () => {
    const songsByPlays = (await top('type=song&by=plays')).items;
    expect(songsByPlays[0]).toMatchObject({ _id: ids.s1, plays: 3, revenue: 129 });
    expect(
      songsByPlays
        .slice(1)
        .map((i: { _id: string }) => i._id)
        .sort(),
    ).toEqual([ids.t1, ids.e1].sort());
    expect((await top('type=album&by=plays')).items).toEqual([
      {
        _id: ids.a1,
        title: 'Deep Water',
        image: null,
        artist: { _id: ids.nova, name: 'Nova Reyes' },
        revenue: 0,
        sales: 1,
        plays: 1,
      },
    ]);
  });

  it('an artist account ranks its own songs only and may not rank artists', async () => {
    expect((await top('type=song&by=plays', people.euro)).items.map((i: { _id: string }) => i._id)).toEqual([
      ids.e1,
    ]);
    const res = await get(`/api/admin/dashboard/top?type=artist`, people.nova);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('ADMIN_ONLY');
  });
});

describe('transactions, CSV and subscribers', () => {
  it('filters by item type and sorts by amount', async () => {
    const { body } = await get(
      `/api/admin/dashboard/transactions?artistId=${ids.nova}&itemType=subscription&sort=-amount`,
    );
    expect(body.transactions.map((t: { amount: number; status: string }) => [t.amount, t.status])).toEqual([
      [1497, 'refunded'],
      [499, 'paid'],
      [499, 'paid'],
    ]);
    expect(body.pagination).toEqual({ page: 1, limit: 20, total: 3, totalPages: 1, totalCapped: false });
    const all = (await get('/api/admin/dashboard/transactions?sort=createdAt')).body;
    expect(all.transactions.map((t: { _id: string }) => t._id).slice(0, 3)).toEqual([ids.o1, ids.o2, ids.o3]);
    expect(all.pagination.total).toBe(8);
  });

  it('CSV: the same rows and order as the list, formulas defused, e-mail for admins only', async () => {
    const list = (await get('/api/admin/dashboard/transactions?sort=-amount&limit=100')).body.transactions;
    const res = (await get('/api/admin/dashboard/transactions.csv?sort=-amount')).raw;
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="backbeat-transactions-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = res.body.trimEnd().split('\n');
    expect(lines[0]).toBe(
      'Date (UTC),Order,Type,Item,Artist,Buyer,Buyer e-mail,Gateway,Status,Amount,Currency',
    );
    expect(lines).toHaveLength(1 + list.length);
    expect(lines.slice(1).map((line: string) => line.split(',')[1])).toEqual(
      list.map((t: { _id: string }) => t._id),
    );
    const euroLine = lines.find((line: string) => line.includes(ids.o6!))!;
    expect(euroLine).toContain(`,'${FORMULA_TITLE},`);
    expect(euroLine).toContain(',2.50,EUR');
    const artistCsv = (await get(`/api/admin/dashboard/transactions.csv?itemType=album`, people.nova)).raw
      .body;
    expect(artistCsv.split('\n')[0]).toBe(
      'Date (UTC),Order,Type,Item,Artist,Buyer,Gateway,Status,Amount,Currency',
    );
    expect(artistCsv.trimEnd().split('\n')).toHaveLength(3);
  });

  it("lists an artist's subscribers now", async () => {
    const { body } = await get(`/api/admin/dashboard/subscribers/${ids.nova}`, people.nova);
    expect(body.pagination).toEqual({ page: 1, limit: 20, total: 1, totalPages: 1 });
    expect(body.subscribers).toEqual([
      {
        _id: expect.any(String),
        user: { _id: people.b1.id, name: 'b1' },
        status: 'cancelled',
        cycle: '1m',
        gateway: 'sandbox',
        since: '2025-01-08T09:00:00.000Z',
        currentPeriodEnd: '2025-03-08T09:00:00.000Z',
        cancelAtPeriodEnd: true,
      },
    ]);
  });
});

describe('who may read what', () => {
  const calls = [
    '/api/admin/dashboard/overview',
    '/api/admin/dashboard/revenue',
    '/api/admin/dashboard/subscribers',
    '/api/admin/dashboard/plays',
    '/api/admin/dashboard/top?type=song',
    '/api/admin/dashboard/transactions.csv',
  ];

  it.each(calls)('%s: guests 401, listeners 403, another artist 403', async (url) => {
    expect((await get(url, null)).status).toBe(401);
    expect((await get(url, people.listener)).status).toBe(403);
    const sep = url.includes('?') ? '&' : '?';
    const other = await get(`${url}${sep}artistId=${ids.nova}`, people.euro);
    expect(other.status).toBe(403);
    expect(other.body.code).toBe('NOT_YOUR_ARTIST');
  });

  it('an artist account without a profile is told to create one', async () => {
    const res = await get('/api/admin/dashboard/overview', people.lonely);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NO_ARTIST_PROFILE');
  });

  it.each([
    ['/api/admin/dashboard/revenue?bucket=hour', 'bucket'],
    ['/api/admin/dashboard/revenue?from=2020-01-01&to=2025-01-01&bucket=day', 'bucket'],
    ['/api/admin/dashboard/overview?from=2025-02-01&to=2025-01-01', 'from'],
    ['/api/admin/dashboard/overview?from=2025-13-01', 'from'],
    ['/api/admin/dashboard/top?type=playlist', 'type'],
    ['/api/admin/dashboard/top?type=song&by=likes', 'by'],
    ['/api/admin/dashboard/top?type=song&currency=dollars', 'currency'],
    ['/api/admin/dashboard/top?type=song&limit=51', 'limit'],
    ['/api/admin/dashboard/transactions?itemType=ticket', 'itemType'],
    ['/api/admin/dashboard/transactions?sort=price', 'sort'],
    ['/api/admin/dashboard/transactions?page=501&limit=20', 'page'],
    ['/api/admin/dashboard/transactions.csv?status=lost', 'status'],
  ])('%s answers 400 naming %s', async (url, field) => {
    const res = await get(url);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.message).toContain(field);
  });
});

describe('the rollups equal a recomputation from the ledger', () => {
  it('rebuilding them from payments, refunds, plays and subscriptions changes no figure', async () => {
    const snapshot = async () =>
      ctx.database.query(sql`
        select 'revenue' as t, scope::text as k, grain::text as g, bucket::text as b, currency as c,
               song_gross + album_gross + subscription_gross as gross,
               song_refunded + album_refunded + subscription_refunded as back, sales, refunds
        from revenue_rollup where song_gross + album_gross + subscription_gross + sales + refunds
                                  + song_refunded + album_refunded + subscription_refunded <> 0
        union all select 'item', item_id::text, grain::text, bucket::text, currency, gross, refunded, sales, refunds
        from item_revenue_rollup
        union all select 'plays', scope::text, grain::text, bucket::text, '', plays, preview_plays, 0, 0
        from plays_rollup
        union all select 'item-plays', item_id::text, grain::text, bucket::text, '', plays, 0, 0, 0 from item_plays_rollup
        union all select 'subscribers', scope::text, '', day::text, '', starts, ends, 0, 0
        from subscriber_rollup where starts <> 0 or ends <> 0
        order by 1, 2, 3, 4, 5`);
    const incremental = await snapshot();
    expect(incremental.length).toBeGreaterThan(20);
    await ctx.database.query(sql`select dashboard_rebuild_rollups()`);
    expect(await snapshot()).toEqual(incremental);
  });
});

describe('the CSV export pages by the exact row', () => {
  it('resumes after a batch edge between rows of one millisecond (PostgreSQL keeps microseconds)', async () => {
    // Three orders in one millisecond, microseconds apart: a cursor cut to milliseconds would skip or repeat them.
    const picked = await ctx.database.query<{ id: string }>(sql`select id from orders order by id limit 3`);
    for (const [index, row] of picked.entries()) {
      await ctx.database.query(
        sql`update orders set created_at = ${`2025-03-03T12:00:00.123${index + 1}00Z`}::timestamptz
            where id = ${row.id}::uuid`,
      );
    }
    const repo = new DashboardRepository(ctx.database.db);
    for (const sort of ['-createdAt', 'createdAt', '-amount', 'amount'] as const) {
      let text = '';
      for await (const chunk of transactionsCsv(repo, {}, sort, false, 1)) text += String(chunk);
      const all = await ctx.database.query<{ count: number }>(sql`select count(*)::int as count from orders`);
      const orderIds = text
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => line.split(',')[1]);
      expect(new Set(orderIds).size, sort).toBe(all[0]!.count);
      expect(orderIds, sort).toHaveLength(all[0]!.count);
    }
  });
});
