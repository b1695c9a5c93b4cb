import type {
  ArtistSubscribersResponse,
  DashboardOverviewResponse,
  PaymentIssueResponse,
  PaymentsHealthResponse,
  ReconcileResponse,
  PlaysSeriesResponse,
  RevenueSeriesResponse,
  SubscribersSeriesResponse,
  TopItemsResponse,
  TransactionsResponse,
} from '@backbeat/contract';
import { backbeatApi } from '../../lib/api-query';
import type {
  DashboardScope,
  SeriesArgs,
  TopItemsArgs,
  TransactionFilters,
  PurchasedItem,
  RefundResult,
  RevenueBreakdown,
  SubscriberStats,
} from './dashboard.types';

const list = <T>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);
const byId = (id: string) => encodeURIComponent(id);

/** A report of `GET /admin/dashboard/<name>`, its arguments as the query string; refreshed with the dashboards. */
const dashboardReport = (name: string) => ({
  query: (args: object) => ({ url: `/admin/dashboard/${name}`, query: { ...args } }),
  providesTags: ['Dashboard' as const],
});

export const dashboardApi = backbeatApi.injectEndpoints({
  endpoints: (build) => ({
    /** One page of the transactions table with its filters, order and pagination. */
    getTransactionsPage: build.query<TransactionsResponse, TransactionFilters>({
      query: (filters) => ({ url: '/admin/dashboard/transactions', query: { ...filters } }),
      providesTags: ['Dashboard'],
    }),
    /** Reconciliation runs per gateway and the payments that need an admin's eye. */
    getPaymentsHealth: build.query<PaymentsHealthResponse, void>({
      query: () => '/admin/payments/health',
      providesTags: ['PaymentsHealth'],
    }),
    /** Reconciles with every gateway now; what it fixed changes the dashboards too. */
    reconcileNow: build.mutation<ReconcileResponse, void>({
      query: () => ({ url: '/admin/payments/reconcile', method: 'POST' }),
      invalidatesTags: ['PaymentsHealth', 'Dashboard'],
    }),
    resolvePaymentIssue: build.mutation<PaymentIssueResponse, { issueId: string; resolution: string }>({
      query: ({ issueId, resolution }) => ({
        url: `/admin/payments/issues/${byId(issueId)}/resolve`,
        method: 'POST',
        body: { resolution },
      }),
      invalidatesTags: ['PaymentsHealth'],
    }),
    getOverview: build.query<DashboardOverviewResponse, DashboardScope>(dashboardReport('overview')),
    getRevenueSeries: build.query<RevenueSeriesResponse, SeriesArgs>(dashboardReport('revenue')),
    getSubscribersSeries: build.query<SubscribersSeriesResponse, SeriesArgs>(dashboardReport('subscribers')),
    getPlaysSeries: build.query<PlaysSeriesResponse, SeriesArgs>(dashboardReport('plays')),
    getTopItems: build.query<TopItemsResponse, TopItemsArgs>(dashboardReport('top')),
    getArtistSubscribers: build.query<ArtistSubscribersResponse, { artistId: string; page: number }>({
      query: ({ artistId, page }) => ({
        url: `/admin/dashboard/subscribers/${byId(artistId)}`,
        query: { page, limit: 10 },
      }),
      providesTags: ['Dashboard'],
    }),
    getPurchasedSongs: build.query<PurchasedItem[], string>({
      query: (artistId) => `/admin/dashboard/purchased-songs/${byId(artistId)}`,
      transformResponse: (response: { songs?: PurchasedItem[] } | null) =>
        list<PurchasedItem>(response?.songs),
      providesTags: ['Dashboard'],
    }),
    getPurchasedAlbums: build.query<PurchasedItem[], string>({
      query: (artistId) => `/admin/dashboard/purchased-albums/${byId(artistId)}`,
      transformResponse: (response: { albums?: PurchasedItem[] } | null) =>
        list<PurchasedItem>(response?.albums),
      providesTags: ['Dashboard'],
    }),
    getSubscriberCount: build.query<SubscriberStats, string>({
      query: (artistId) => `/admin/dashboard/subscriber-count/${byId(artistId)}`,
      providesTags: (_result, _error, artistId) => ['Dashboard', { type: 'SubscriberCount', id: artistId }],
    }),
    getRevenueSummary: build.query<RevenueBreakdown, string>({
      query: (artistId) => `/admin/dashboard/revenue-summary/${byId(artistId)}`,
      transformResponse: (response: { revenue?: RevenueBreakdown } & Partial<RevenueBreakdown>) =>
        response.revenue ?? {
          songRevenue: response.songRevenue ?? 0,
          albumRevenue: response.albumRevenue ?? 0,
          subscriptionRevenue: response.subscriptionRevenue ?? 0,
          totalRevenue: response.totalRevenue ?? 0,
          currency: response.currency,
        },
      providesTags: ['Dashboard'],
    }),
    /** Refunds a paid order through its gateway (admin); the server revokes what it granted. */
    refundOrder: build.mutation<RefundResult, { orderId: string; reason?: string }>({
      query: ({ orderId, reason }) => ({
        url: `/admin/orders/${byId(orderId)}/refund`,
        method: 'POST',
        body: reason ? { reason } : {},
      }),
      invalidatesTags: ['Dashboard', 'Purchases', 'Subscriptions'],
    }),
  }),
});

export const {
  useGetTransactionsPageQuery,
  useGetOverviewQuery,
  useGetRevenueSeriesQuery,
  useGetSubscribersSeriesQuery,
  useGetPlaysSeriesQuery,
  useGetTopItemsQuery,
  useGetArtistSubscribersQuery,
  useGetPurchasedSongsQuery,
  useGetPurchasedAlbumsQuery,
  useGetSubscriberCountQuery,
  useGetRevenueSummaryQuery,
  useRefundOrderMutation,
  useGetPaymentsHealthQuery,
  useReconcileNowMutation,
  useResolvePaymentIssueMutation,
} = dashboardApi;
