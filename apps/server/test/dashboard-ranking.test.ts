import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemPlaysRollup, itemRevenueRollup } from '../src/db/schema';
import { seededRandom } from '../src/modules/media/seeded-random';
import { DashboardAnalyticsRepository } from '../src/modules/dashboard/dashboard-analytics.repository';
import { addDays, rangeTiers } from '../src/modules/dashboard/dashboard-range';
import { rankingSources } from '../src/modules/dashboard/dashboard-ranking';
import { openTestDatabase } from './test-app';

/*
 * The bounded ranking (each touched month's head by gross or plays, then a bound on everything outside the heads)
 * must give exactly what summing every row gives, on skewed data (where the bound holds) and on flat data (where it
 * reads deeper or falls back), for ranges inside a month, across month boundaries and of whole months.
 */
let db: Awaited<ReturnType<typeof openTestDatabase>>;
let repo: DashboardAnalyticsRepository;

async function fill(skew: number, seed: number) {
  const random = seededRandom(seed);
  const items = Array.from({ length: 300 }, () => randomUUID());
  const plays = new Map<string, number>();
  const money = new Map<string, { gross: number; refunded: number }>();
  for (let n = 0; n < 6000; n += 1) {
    const item = items[Math.floor(random() ** skew * items.length)]!;
    const day = addDays('2025-01-01', Math.floor(random() * 120));
    for (const [grain, bucket] of [
      ['day', day],
      ['month', `${day.slice(0, 7)}-01`],
    ] as const) {
      const key = `${item}|${grain}|${bucket}`;
      plays.set(key, (plays.get(key) ?? 0) + 1);
      const entry = money.get(key) ?? { gross: 0, refunded: 0 };
      entry.gross += 100;
      if (random() < 0.1) entry.refunded += 100;
      money.set(key, entry);
    }
  }
  const rows = [...plays].map(([key, count]) => {
    const [itemId, grain, bucket] = key.split('|') as [string, 'day' | 'month', string];
    return { itemType: 'song' as const, itemId, grain, bucket, plays: count };
  });
  const moneyRows = [...money].map(([key, value]) => {
    const [itemId, grain, bucket] = key.split('|') as [string, 'day' | 'month', string];
    return { itemType: 'song' as const, itemId, grain, bucket, currency: 'USD', ...value };
  });
  await db.database.db.delete(itemPlaysRollup);
  await db.database.db.delete(itemRevenueRollup);
  for (let i = 0; i < rows.length; i += 500)
    await db.database.db.insert(itemPlaysRollup).values(rows.slice(i, i + 500));
  for (let i = 0; i < moneyRows.length; i += 500) {
    await db.database.db.insert(itemRevenueRollup).values(moneyRows.slice(i, i + 500));
  }
}

beforeAll(async () => {
  db = await openTestDatabase();
  repo = new DashboardAnalyticsRepository(db.database.db);
});
afterAll(() => db.drop());

describe('pruned rankings equal full sums', () => {
  const ranges = [
    { from: '2025-01-01', to: '2025-01-20' },
    { from: '2025-01-15', to: '2025-04-10' },
    { from: '2025-02-01', to: '2025-03-31' },
    { from: '2025-01-31', to: '2025-02-01' },
    { from: '2025-02-27', to: '2025-04-30' },
  ];
  it.each([
    ['skewed', 4, 11],
    ['flat', 1, 12],
  ])('%s data, by plays and by revenue, several ranges and sizes', async (_name, skew, seed) => {
    await fill(skew, seed);
    let fallbacks = 0;
    for (const range of ranges) {
      const tiers = rangeTiers(range);
      for (const limit of [1, 5, 10]) {
        const fullPlays = await repo.rankItemsByPlays('song', tiers, null, limit);
        const prunedPlays = await repo.rankBounded(
          rankingSources.itemPlays('song', null),
          tiers,
          limit,
          async () => {
            fallbacks += 1;
            return fullPlays;
          },
        );
        expect(prunedPlays).toEqual(fullPlays);
        const fullMoney = await repo.rankItemsByRevenue('song', tiers, 'USD', null, limit);
        const prunedMoney = await repo.rankBounded(
          rankingSources.itemRevenue('song', 'USD', null),
          tiers,
          limit,
          async () => {
            fallbacks += 1;
            return fullMoney;
          },
        );
        expect(prunedMoney).toEqual(fullMoney);
      }
    }
    // Skewed data never needs the full sum; flat data with many rows per bucket does.
    if (skew > 1) expect(fallbacks).toBe(0);
  });
});
