import { backbeatApi } from '../../lib/api-query';
import type {
  PurchasedItem,
  RefundResult,
  RevenueBreakdown,
  SubscriberStats,
  Transaction,
} from './dashboard.types';

const list = <T>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);
const byId = (id: string) => encodeURIComponent(id);

const dashboardApi = backbeatApi.injectEndpoints({
  endpoints: (build) => ({
    getTransactions: build.query<Transaction[], { artistId?: string; page?: number; limit?: number }>({
      query: ({ artistId, page = 1, limit = 20 }) => ({
        url: '/admin/dashboard/transactions',
        query: { artistId, page, limit },
      }),
      transformResponse: (response: { transactions?: Transaction[] } | null) =>
        list<Transaction>(response?.transactions),
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
      providesTags: ['Dashboard'],
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
  useGetTransactionsQuery,
  useGetPurchasedSongsQuery,
  useGetPurchasedAlbumsQuery,
  useGetSubscriberCountQuery,
  useGetRevenueSummaryQuery,
  useRefundOrderMutation,
} = dashboardApi;
