import {
  dateBoundEnd,
  dateBoundStart,
  type PurchasedAlbumsResponse,
  type PurchasedSongsResponse,
  type RevenueBreakdown,
  type RevenueSummaryResponse,
  type SubscriberStatsResponse,
  type TransactionsCsvQuery,
  type TransactionsQuery,
  type TransactionsResponse,
  type UserPurchasesResponse,
  type UserSubscriptionsResponse,
} from '@backbeat/contract';
import { canManageArtist, type Viewer } from '../access';
import { forbidden, notFound } from '../../platform/errors';
import { pageWindow, pagination } from '../../platform/pagination';
import { presentAlbum, type SongView } from '../catalog';
import type {
  DashboardArtist,
  DashboardRepository,
  RevenueRow,
  TransactionFilter,
} from './dashboard.repository';
import {
  presentHistoryEntry,
  presentSoldItem,
  presentSubscription,
  presentTransaction,
} from './dashboard.presenter';

export interface DashboardDeps {
  repo: DashboardRepository;
  songView: SongView;
  now?: () => Date;
}

/** Per-currency totals of the artist's revenue rows; the artist's own currency always appears first. */
function revenueBreakdown(rows: RevenueRow[], artistCurrency: string): RevenueBreakdown {
  const amounts = (row: RevenueRow) => ({
    songRevenue: row.songRevenue,
    albumRevenue: row.albumRevenue,
    subscriptionRevenue: row.subscriptionRevenue,
    totalRevenue: row.songRevenue + row.albumRevenue + row.subscriptionRevenue,
    currency: row.currency,
  });
  const empty = { currency: artistCurrency, songRevenue: 0, albumRevenue: 0, subscriptionRevenue: 0 };
  const main = amounts(rows.find((row) => row.currency === artistCurrency) ?? empty);
  const others = rows
    .filter((row) => row.currency !== artistCurrency)
    .map(amounts)
    .filter((entry) => entry.songRevenue || entry.albumRevenue || entry.subscriptionRevenue);
  return { ...main, byCurrency: [main, ...others] };
}

/**
 * The user dashboard (own purchases, orders and subscriptions) and the artist/admin dashboard. Admins see every
 * artist; an artist account only the profiles it owns (others 403); listeners are refused by the routes.
 */
export class DashboardService {
  private readonly now: () => Date;

  constructor(private readonly deps: DashboardDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** The repository, for the CSV export's keyset batches (the route streams them). */
  get repository(): DashboardRepository {
    return this.deps.repo;
  }

  async purchases(viewer: Viewer): Promise<UserPurchasesResponse> {
    const [songRows, albumRows, orderRows] = await Promise.all([
      this.deps.repo.purchasedSongsOf(viewer.id),
      this.deps.repo.purchasedAlbumsOf(viewer.id),
      this.deps.repo.ordersOf(viewer.id),
    ]);
    return {
      songs: await this.deps.songView.present(viewer, songRows),
      albums: albumRows.map(presentAlbum),
      history: orderRows.map(presentHistoryEntry),
    };
  }

  async subscriptions(viewer: Viewer): Promise<UserSubscriptionsResponse> {
    const rows = await this.deps.repo.subscriptionsOf(viewer.id);
    const now = this.now();
    return { subscriptions: rows.map((row) => presentSubscription(row, now)) };
  }

  async transactions(viewer: Viewer, query: TransactionsQuery): Promise<TransactionsResponse> {
    const filter = await this.transactionFilter(viewer, query);
    const { rows, total, capped } = await this.deps.repo.transactions(
      filter,
      query.sort,
      pageWindow(query.page, query.limit),
    );
    const withEmail = viewer.role === 'admin';
    return {
      transactions: rows.map((row) => presentTransaction(row, withEmail)),
      pagination: { ...pagination(query.page, query.limit, total), totalCapped: capped },
    };
  }

  /**
   * The orders a viewer may list with the query's filters: admins any artist's (or all); an artist account its own
   * artist's only (none while it has no profile); another artist's is 403.
   */
  async transactionFilter(viewer: Viewer, query: TransactionsCsvQuery): Promise<TransactionFilter> {
    let artistId: string | null | undefined;
    if (query.artistId) {
      artistId = (await this.manageableArtist(viewer, query.artistId)).id;
    } else if (viewer.role !== 'admin') {
      artistId = (await this.deps.repo.artistOwnedBy(viewer.id))?.id ?? null;
    }
    return {
      artistId,
      status: query.status,
      gateway: query.gateway,
      itemType: query.itemType,
      from: query.from ? dateBoundStart(query.from) : undefined,
      to: query.to ? dateBoundEnd(query.to) : undefined,
    };
  }

  async purchasedSongs(viewer: Viewer, artistId: string): Promise<PurchasedSongsResponse> {
    await this.manageableArtist(viewer, artistId);
    const rows = await this.deps.repo.soldSongsOf(artistId);
    return {
      songs: rows.map((row) => {
        const { cover, ...item } = presentSoldItem(row);
        return { ...item, coverImage: cover };
      }),
    };
  }

  async purchasedAlbums(viewer: Viewer, artistId: string): Promise<PurchasedAlbumsResponse> {
    await this.manageableArtist(viewer, artistId);
    const rows = await this.deps.repo.soldAlbumsOf(artistId);
    return { albums: rows.map(presentSoldItem) };
  }

  async subscriberStats(viewer: Viewer, artistId: string): Promise<SubscriberStatsResponse> {
    const artist = await this.manageableArtist(viewer, artistId);
    const [activeSubscribers, revenueRows] = await Promise.all([
      this.deps.repo.activeSubscriberCount(artistId, this.now()),
      this.deps.repo.revenueOf(artistId),
    ]);
    const revenue = revenueBreakdown(revenueRows, artist.currency);
    return { activeSubscribers, totalRevenue: revenue.subscriptionRevenue, currency: artist.currency };
  }

  async revenueSummary(viewer: Viewer, artistId: string): Promise<RevenueSummaryResponse> {
    const artist = await this.manageableArtist(viewer, artistId);
    return { revenue: revenueBreakdown(await this.deps.repo.revenueOf(artistId), artist.currency) };
  }

  /** The artist, if it exists (404) and the viewer may read its dashboard (403). */
  async manageableArtist(viewer: Viewer, artistId: string): Promise<DashboardArtist> {
    const artist = await this.deps.repo.findArtist(artistId);
    if (!artist) throw notFound('Artist not found', 'ARTIST_NOT_FOUND');
    if (!canManageArtist(viewer, artist)) {
      throw forbidden("You can only view your own artist's dashboard", 'NOT_YOUR_ARTIST');
    }
    return artist;
  }
}
