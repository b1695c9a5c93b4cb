import { backbeatApi } from '../../lib/api-query';
import type { PurchasesResponse, UserSubscription } from './library.types';

const list = <T>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);

const libraryApi = backbeatApi.injectEndpoints({
  endpoints: (build) => ({
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

export const { useGetPurchasesQuery, useGetSubscriptionsQuery } = libraryApi;
