import type {
  CreatePurchaseBody,
  GatewaysResponse,
  Order,
  OrderResponse,
  PaymentHistoryResponse,
  PaymentResultResponse,
  PaypalCaptureResponse,
  PaypalCreateOrderBody,
  PaypalCreateOrderResponse,
  RazorpayCreateOrderResponse,
  RazorpayVerifyBody,
  SetupIntentResponse,
  StripeCreatePaymentResponse,
} from '@backbeat/contract';
import { backbeatApi } from '../../lib/api-query';

/**
 * The gateways' calls (SPEC section 7, Payments and Subscriptions). Nothing here invalidates the catalogue: an order
 * grants nothing until it is paid, and a settled order refreshes everything at once (use-refresh-after-payment).
 */
export const paymentsApi = backbeatApi.injectEndpoints({
  endpoints: (build) => ({
    getGateways: build.query<GatewaysResponse, void>({ query: () => '/payments/gateways' }),
    getOrder: build.query<Order, string>({
      query: (id) => `/payments/orders/${encodeURIComponent(id)}`,
      transformResponse: (response: OrderResponse) => response.order,
    }),
    getPaymentHistory: build.query<PaymentHistoryResponse, void>({
      query: () => '/payments/history',
      providesTags: ['Purchases'],
    }),
    createStripePayment: build.mutation<StripeCreatePaymentResponse, CreatePurchaseBody>({
      query: (body) => ({ url: '/payments/stripe/create-payment', method: 'POST', body }),
    }),
    createSetupIntent: build.mutation<SetupIntentResponse, void>({
      query: () => ({ url: '/subscriptions/setup-intent', method: 'POST', body: {} }),
    }),
    createRazorpayOrder: build.mutation<RazorpayCreateOrderResponse, CreatePurchaseBody>({
      query: (body) => ({ url: '/payments/razorpay/create-order', method: 'POST', body }),
    }),
    verifyRazorpay: build.mutation<PaymentResultResponse, RazorpayVerifyBody>({
      query: (body) => ({ url: '/payments/razorpay/verify', method: 'POST', body }),
    }),
    createPaypalOrder: build.mutation<PaypalCreateOrderResponse, PaypalCreateOrderBody>({
      query: (body) => ({ url: '/payments/paypal/create-order', method: 'POST', body }),
    }),
    capturePaypalOrder: build.mutation<PaypalCaptureResponse, { orderId: string }>({
      query: (body) => ({ url: '/payments/paypal/capture-order', method: 'POST', body }),
    }),
    confirmPaypalSubscription: build.mutation<PaymentResultResponse, { subscriptionId: string }>({
      query: (body) => ({ url: '/payments/paypal/confirm-subscription', method: 'POST', body }),
    }),
  }),
});

export const {
  useGetGatewaysQuery,
  useGetOrderQuery,
  useGetPaymentHistoryQuery,
  useCreateStripePaymentMutation,
  useCreateSetupIntentMutation,
  useCreateRazorpayOrderMutation,
  useVerifyRazorpayMutation,
  useCreatePaypalOrderMutation,
  useCapturePaypalOrderMutation,
  useConfirmPaypalSubscriptionMutation,
} = paymentsApi;
