import type {
  ArtistSubscribersQuery,
  ArtistSubscribersResponse,
  DashboardOverviewResponse,
  DashboardRangeQuery,
  DashboardSeriesQuery,
  PlaysSeriesResponse,
  RevenueAmounts,
  RevenueSeriesResponse,
  SubscribersSeriesResponse,
  TopItemsQuery,
  TopItemsResponse,
} from '@backbeat/contract';
import type { Viewer } from '../access';
import { forbidden, notFound } from '../../platform/errors';
import { pageWindow, pagination } from '../../platform/pagination';
import { mediaUrl } from '../../platform/media-url';
import {
  PLATFORM_SCOPE,
  type DashboardAnalyticsRepository,
  type ItemDetails,
  type MoneyRow,
  type RankedRow,
} from './dashboard-analytics.repository';
import { rankingSources } from './dashboard-ranking';
import {
  addDays,
  periodEnd,
  periodOf,
  periodsOf,
  previousRange,
  rangeTiers,
  resolveRange,
  utcDay,
  type DayRange,
} from './dashboard-range';
import type { DashboardService } from './dashboard.service';

export interface DashboardAnalyticsDeps {
  repo: DashboardAnalyticsRepository;
  /** Resolves and checks `artistId` (404, 403) the way the SPEC's dashboard calls do. */
  dashboard: Pick<DashboardService, 'manageableArtist'>;
  /** The artist an artist account manages, if any. */
  ownArtist(userId: string): Promise<{ id: string; currency: string } | null>;
  /** The catalogue currency: the platform's main currency. */
  currency: string;
  now: () => Date;
}

/** Whose figures a call reads: one artist's, or (admins without `artistId`) the platform's. */
interface Scope {
  scope: string;
  artistId: string | null;
  currency: string;
}

const zeroAmounts = (currency: string): RevenueAmounts => ({
  currency,
  songRevenue: 0,
  albumRevenue: 0,
  subscriptionRevenue: 0,
  totalRevenue: 0,
  refunded: 0,
  sales: 0,
  refunds: 0,
});

function addMoney(target: RevenueAmounts, row: MoneyRow): void {
  const song = row.songGross - row.songRefunded;
  const album = row.albumGross - row.albumRefunded;
  const subscription = row.subscriptionGross - row.subscriptionRefunded;
  target.songRevenue += song;
  target.albumRevenue += album;
  target.subscriptionRevenue += subscription;
  target.totalRevenue += song + album + subscription;
  target.refunded += row.songRefunded + row.albumRefunded + row.subscriptionRefunded;
  target.sales += row.sales;
  target.refunds += row.refunds;
}

/** The main currency first, then the others alphabetically. */
const currenciesOf = (main: string, rows: MoneyRow[]) => [
  main,
  ...[...new Set(rows.map((row) => row.currency))].filter((currency) => currency !== main).sort(),
];

/**
 * The dashboards' figures over time: overview cards, revenue / subscriber / play series, rankings, and an artist's
 * subscribers. Admins read the platform (or any artist); an artist account its own artist, whatever it asks.
 */
export class DashboardAnalyticsService {
  constructor(private readonly deps: DashboardAnalyticsDeps) {}

  /** The range's cards, and the same figures for the period of the same length before it (each card's change). */
  async overview(viewer: Viewer, query: DashboardRangeQuery): Promise<DashboardOverviewResponse> {
    const { scope, currency } = await this.scopeOf(viewer, query.artistId);
    const range = this.range(query);
    const before = previousRange(range);
    const [current, previous, activeSubscribers, activeBefore] = await Promise.all([
      this.flows(scope, currency, range),
      this.flows(scope, currency, before),
      this.deps.repo.subscribersNow(scope, this.deps.now()),
      // At the end of the previous period: everything started minus ended before the range's first day.
      this.deps.repo.subscribersBefore(scope, range.from),
    ]);
    return {
      range,
      currency,
      ...current,
      activeSubscribers,
      previous: { range: before, ...previous, activeSubscribers: activeBefore },
    };
  }

  /** Money, plays and subscriber movements over one range, from the rollups. */
  private async flows(scope: string, currency: string, range: DayRange) {
    const tiers = rangeTiers(range);
    const [money, plays, days] = await Promise.all([
      this.deps.repo.revenueTotals(scope, tiers),
      this.deps.repo.playsTotal(scope, tiers),
      this.deps.repo.subscriberDays(scope, range),
    ]);
    const revenue = currenciesOf(currency, money).map((code) => {
      const amounts = zeroAmounts(code);
      for (const row of money) if (row.currency === code) addMoney(amounts, row);
      return amounts;
    });
    return {
      revenue,
      plays: plays.plays,
      previewPlays: plays.previewPlays,
      newSubscribers: days.reduce((sum, day) => sum + day.starts, 0),
      endedSubscribers: days.reduce((sum, day) => sum + day.ends, 0),
    };
  }

  async revenueSeries(viewer: Viewer, query: DashboardSeriesQuery): Promise<RevenueSeriesResponse> {
    const { scope, currency } = await this.scopeOf(viewer, query.artistId);
    const range = this.range(query);
    const rows = await this.deps.repo.revenueBuckets(scope, rangeTiers(range), query.bucket === 'month');
    const periods = periodsOf(range, query.bucket);
    const series = currenciesOf(currency, rows).map((code) => {
      const points = new Map(periods.map((period) => [period, zeroAmounts(code)]));
      for (const row of rows) {
        if (row.currency === code) addMoney(points.get(periodOf(row.bucket, query.bucket))!, row);
      }
      return {
        currency: code,
        points: periods.map((period) => {
          const { currency: _currency, ...amounts } = points.get(period)!;
          void _currency;
          return { period, ...amounts };
        }),
      };
    });
    return { range, bucket: query.bucket, currency, series };
  }

  async subscribersSeries(viewer: Viewer, query: DashboardSeriesQuery): Promise<SubscribersSeriesResponse> {
    const { scope } = await this.scopeOf(viewer, query.artistId);
    const range = this.range(query);
    const [before, days] = await Promise.all([
      this.deps.repo.subscribersBefore(scope, range.from),
      this.deps.repo.subscriberDays(scope, range),
    ]);
    // One pass over the days: the running count carries from period to period.
    const byDay = new Map(days.map((entry) => [entry.day, entry]));
    let running = before;
    const points = periodsOf(range, query.bucket).map((period) => {
      const last = periodEnd(period, query.bucket, range);
      let started = 0;
      let ended = 0;
      for (let day = period < range.from ? range.from : period; day <= last; day = addDays(day, 1)) {
        const entry = byDay.get(day);
        if (entry) {
          started += entry.starts;
          ended += entry.ends;
        }
      }
      running += started - ended;
      return { period, activeSubscribers: running, newSubscribers: started, endedSubscribers: ended };
    });
    return { range, bucket: query.bucket, points };
  }

  async playsSeries(viewer: Viewer, query: DashboardSeriesQuery): Promise<PlaysSeriesResponse> {
    const { scope } = await this.scopeOf(viewer, query.artistId);
    const range = this.range(query);
    const rows = await this.deps.repo.playsBuckets(scope, rangeTiers(range), query.bucket === 'month');
    const points = new Map(
      periodsOf(range, query.bucket).map((period) => [period, { period, plays: 0, previewPlays: 0 }]),
    );
    for (const row of rows) {
      const period = periodOf(row.bucket, query.bucket);
      const point = points.get(period) ?? { period, plays: 0, previewPlays: 0 };
      points.set(period, point);
      point.plays += row.plays;
      point.previewPlays += row.previewPlays;
    }
    return { range, bucket: query.bucket, points: [...points.values()] };
  }

  async topItems(viewer: Viewer, query: TopItemsQuery): Promise<TopItemsResponse> {
    if (query.type === 'artist' && (viewer.role !== 'admin' || query.artistId)) {
      throw forbidden('Artist rankings are platform-wide, for admins', 'ADMIN_ONLY');
    }
    const { artistId, currency: mainCurrency } = await this.scopeOf(viewer, query.artistId);
    const currency = query.currency ?? mainCurrency;
    const range = this.range(query);
    const tiers = rangeTiers(range);
    const { repo } = this.deps;
    const rank = (limit: number): Promise<RankedRow[]> => {
      if (query.type === 'artist') {
        return query.by === 'revenue'
          ? repo.rankBounded(rankingSources.artistRevenue(currency), tiers, limit, () =>
              repo.rankArtistsByRevenue(tiers, currency, limit),
            )
          : repo.rankBounded(rankingSources.artistPlays(), tiers, limit, () =>
              repo.rankArtistsByPlays(tiers, limit),
            );
      }
      const type = query.type;
      return query.by === 'revenue'
        ? repo.rankBounded(rankingSources.itemRevenue(type, currency, artistId), tiers, limit, () =>
            repo.rankItemsByRevenue(type, tiers, currency, artistId, limit),
          )
        : repo.rankBounded(rankingSources.itemPlays(type, artistId), tiers, limit, () =>
            repo.rankItemsByPlays(type, tiers, artistId, limit),
          );
    };
    // Deleted items keep their history in the rollups but are not listed: rank a few more than asked, and again
    // with more when deleted ones took places.
    let ranked: RankedRow[] = [];
    let details = new Map<string, ItemDetails>();
    for (let limit = query.limit + 5; ; limit *= 4) {
      const rows = await rank(limit);
      details = await repo.itemDetails(
        query.type,
        rows.map((row) => row.id),
      );
      ranked = rows.filter((row) => details.has(row.id)).slice(0, query.limit);
      if (ranked.length === query.limit || rows.length < limit) break;
    }
    const ids = ranked.map((row) => row.id);
    const figures =
      query.type === 'artist'
        ? await repo.artistFigures(ids, tiers, currency)
        : await repo.itemFigures(query.type, ids, tiers, currency);
    const items = ranked.flatMap((row) => {
      const detail = details.get(row.id);
      const figure = figures.get(row.id);
      if (!detail || !figure) return [];
      return [
        {
          _id: row.id,
          title: detail.title,
          image: mediaUrl(detail.image),
          artist:
            detail.artistId && detail.artistName !== null
              ? { _id: detail.artistId, name: detail.artistName }
              : null,
          revenue: figure.revenue,
          sales: figure.sales,
          plays: figure.plays,
        },
      ];
    });
    return { range, type: query.type, by: query.by, currency, items };
  }

  /** The artist's subscribers now, newest first. */
  async subscribers(
    viewer: Viewer,
    artistId: string,
    query: ArtistSubscribersQuery,
  ): Promise<ArtistSubscribersResponse> {
    await this.deps.dashboard.manageableArtist(viewer, artistId);
    const { rows, total } = await this.deps.repo.subscribersOf(
      artistId,
      this.deps.now(),
      pageWindow(query.page, query.limit),
    );
    return {
      subscribers: rows.map((row) => ({
        _id: row.id,
        user: { _id: row.userId, name: row.userName },
        status: row.status,
        cycle: row.cycle,
        gateway: row.gateway,
        since: row.createdAt.toISOString(),
        currentPeriodEnd: row.currentPeriodEnd?.toISOString() ?? null,
        cancelAtPeriodEnd: row.cancelAtPeriodEnd || row.status === 'cancelled',
      })),
      pagination: pagination(query.page, query.limit, total),
    };
  }

  private range(query: { from?: string; to?: string }): DayRange {
    return resolveRange(query, utcDay(this.deps.now()));
  }

  /** An admin without `artistId`: the platform. Otherwise the artist (404, 403 as the SPEC calls answer). */
  private async scopeOf(viewer: Viewer, artistId: string | undefined): Promise<Scope> {
    if (artistId) {
      const artist = await this.deps.dashboard.manageableArtist(viewer, artistId);
      return { scope: artist.id, artistId: artist.id, currency: artist.currency };
    }
    if (viewer.role === 'admin') {
      return { scope: PLATFORM_SCOPE, artistId: null, currency: this.deps.currency };
    }
    const own = await this.deps.ownArtist(viewer.id);
    if (!own) {
      throw notFound(
        'Your account has no artist profile yet: create it in the Studio first',
        'NO_ARTIST_PROFILE',
      );
    }
    return { scope: own.id, artistId: own.id, currency: own.currency };
  }
}
