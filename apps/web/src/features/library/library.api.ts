import { backbeatApi } from '../../lib/api-query';
import type { LikedSongsResponse, PurchasesResponse, UserSubscription } from './library.types';

const LIKED_PAGE_SIZE = 20;
const list = <T>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);

const libraryApi = backbeatApi.injectEndpoints({
  endpoints: (build) => ({
    getLikedSongs: build.query<LikedSongsResponse, { page: number }>({
      query: ({ page }) => ({ url: '/songs/liked', query: { page, limit: LIKED_PAGE_SIZE } }),
      providesTags: ['LikedSongs'],
    }),
    getPurchases: build.query<PurchasesResponse, void>({
      query: () => '/user/dashboard/purchases',
      transformResponse: (response: Partial<PurchasesResponse> | null) => ({
        songs: list(response?.songs),
        albums: list(response?.albums),
        history: list(response?.history),
      }),
      providesTags: ['Purchases'],
    }),
    getSubscriptions: build.query<UserSubscription[], void>({
      query: () => '/user/dashboard/subscriptions',
      transformResponse: (response: { subscriptions?: UserSubscription[] } | null) =>
        list<UserSubscription>(response?.subscriptions),
      providesTags: ['Subscriptions'],
    }),
  }),
});

export const { useGetLikedSongsQuery, useGetPurchasesQuery, useGetSubscriptionsQuery } = libraryApi;
