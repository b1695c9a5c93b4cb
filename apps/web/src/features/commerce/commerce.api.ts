import { backbeatApi } from '../../lib/api-query';
import type * as Commerce from './commerce.types';

const orderPath = (id: string) => `/payments/sandbox/orders/${encodeURIComponent(id)}`;
const subscriptionPath = (artistId: string) => `/subscriptions/artist/${encodeURIComponent(artistId)}`;

/**
 * The sandbox gateway's calls. Nothing here invalidates the catalogue: an order grants nothing until it is paid,
 * and the paid confirmation refreshes everything at once (see use-refresh-after-payment).
 */
const commerceApi = backbeatApi.injectEndpoints({
  endpoints: (build) => ({
    createSandboxOrder: build.mutation<Commerce.CreateSandboxOrderResponse, Commerce.CreateSandboxOrderBody>({
      query: (body) => ({ url: '/payments/sandbox/create-order', method: 'POST', body }),
    }),
    getSandboxOrder: build.query<Commerce.Order, string>({
      query: (id) => orderPath(id),
      transformResponse: (response: Commerce.OrderResponse) => response.order,
    }),
    confirmSandboxOrder: build.mutation<
      Commerce.ConfirmSandboxOrderResponse,
      { id: string } & Commerce.ConfirmSandboxOrderBody
    >({
      query: ({ id, outcome }) => ({ url: `${orderPath(id)}/confirm`, method: 'POST', body: { outcome } }),
      // The checkout screen shows the decided order straight away, without asking again.
      onQueryStarted: async ({ id }, { dispatch, queryFulfilled }) => {
        try {
          const { data } = await queryFulfilled;
          void dispatch(commerceApi.util.upsertQueryData('getSandboxOrder', id, data.order));
        } catch {
          // The caller shows the error.
        }
      },
    }),
    subscribeToArtist: build.mutation<
      Commerce.SubscribeResponse,
      { artistId: string } & Commerce.SubscribeArtistBody
    >({
      query: ({ artistId, ...body }) => ({ url: subscriptionPath(artistId), method: 'POST', body }),
    }),
    cancelArtistSubscription: build.mutation<{ message?: string }, string>({
      query: (artistId) => ({ url: subscriptionPath(artistId), method: 'DELETE' }),
      invalidatesTags: (_result, error) => (error ? [] : ['Subscriptions', 'Songs']),
    }),
  }),
});

export const {
  useCreateSandboxOrderMutation,
  useGetSandboxOrderQuery,
  useConfirmSandboxOrderMutation,
  useSubscribeToArtistMutation,
  useCancelArtistSubscriptionMutation,
} = commerceApi;
