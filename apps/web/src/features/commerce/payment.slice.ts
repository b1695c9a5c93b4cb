import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { PaymentGateway, SubscriptionCycle } from '@backbeat/contract';
import { SUBSCRIPTION_MESSAGES } from './commerce.constants';

export type PaymentStatus = 'idle' | 'loading' | 'succeeded' | 'failed';

/** A PayPal link as the create-order call returns it. */
export interface PaypalLinkState {
  href: string;
  rel: string;
  method?: string;
}

/**
 * The payment state of SPEC section 3: the gateway in use, Stripe's client secret and our transaction id,
 * Razorpay's order (and its id) or subscription id, PayPal's order id, links and capture response, the cancel
 * message, the success flag and the current cycle. Transitions follow SPEC section 4.
 */
export interface PaymentState {
  gateway: PaymentGateway | null;
  status: PaymentStatus;
  clientSecret: string | null;
  transactionId: string | null;
  razorpayOrder: Record<string, unknown> | null;
  razorpayOrderId: string | null;
  razorpaySubscriptionId: string | null;
  paypalOrderId: string | null;
  paypalLinks: PaypalLinkState[];
  paypalCapture: Record<string, unknown> | null;
  cancelMessage: string | null;
  success: boolean;
  currentCycle: SubscriptionCycle;
  /** The failure as received: the server's whole error body, or the error message (SPEC section 8). */
  error: unknown;
}

export const initialPaymentState: PaymentState = {
  gateway: null,
  status: 'idle',
  clientSecret: null,
  transactionId: null,
  razorpayOrder: null,
  razorpayOrderId: null,
  razorpaySubscriptionId: null,
  paypalOrderId: null,
  paypalLinks: [],
  paypalCapture: null,
  cancelMessage: null,
  success: false,
  currentCycle: '1m',
  error: null,
};

const paymentSlice = createSlice({
  name: 'payment',
  initialState: initialPaymentState,
  reducers: {
    /** Starting a payment sets loading and the gateway, clearing old errors (SPEC section 4). */
    paymentStarted(state, action: PayloadAction<{ gateway: PaymentGateway; cycle?: SubscriptionCycle }>) {
      state.status = 'loading';
      state.gateway = action.payload.gateway;
      state.error = null;
      state.success = false;
      if (action.payload.cycle) state.currentCycle = action.payload.cycle;
    },
    stripeIntentReady(state, action: PayloadAction<{ clientSecret: string; transactionId: string | null }>) {
      state.clientSecret = action.payload.clientSecret;
      state.transactionId = action.payload.transactionId;
    },
    razorpayOrderReady(
      state,
      action: PayloadAction<{ order: Record<string, unknown> & { id: string }; transactionId: string }>,
    ) {
      state.razorpayOrder = action.payload.order;
      state.razorpayOrderId = action.payload.order.id;
      state.transactionId = action.payload.transactionId;
    },
    razorpaySubscriptionReady(
      state,
      action: PayloadAction<{ subscriptionId: string; transactionId: string }>,
    ) {
      state.razorpaySubscriptionId = action.payload.subscriptionId;
      state.transactionId = action.payload.transactionId;
    },
    paypalOrderReady(
      state,
      action: PayloadAction<{ id: string; links: PaypalLinkState[]; transactionId: string }>,
    ) {
      state.paypalOrderId = action.payload.id;
      state.paypalLinks = action.payload.links;
      state.transactionId = action.payload.transactionId;
    },
    /** A successful PayPal capture sets the success flag; a failed one clears it. */
    paypalCaptured(state, action: PayloadAction<Record<string, unknown>>) {
      state.paypalCapture = action.payload;
      state.success = true;
      state.status = 'succeeded';
    },
    paypalCaptureFailed(state, action: PayloadAction<unknown>) {
      state.success = false;
      state.status = 'failed';
      state.error = action.payload;
    },
    paymentSucceeded(state) {
      state.status = 'succeeded';
      state.success = true;
    },
    /** On any failure the status is failed and the error stored as received. */
    paymentFailed(state, action: PayloadAction<unknown>) {
      state.status = 'failed';
      state.success = false;
      state.error = action.payload;
    },
    /** Cancelling a subscription stores the server's message, or 'Subscription cancelled'. */
    subscriptionCancelled(state, action: PayloadAction<string | undefined>) {
      state.cancelMessage = action.payload || SUBSCRIPTION_MESSAGES.cancelled;
      state.status = 'succeeded';
    },
    cycleChosen(state, action: PayloadAction<SubscriptionCycle>) {
      state.currentCycle = action.payload;
    },
    paymentReset() {
      return initialPaymentState;
    },
  },
});

export const {
  paymentStarted,
  stripeIntentReady,
  razorpayOrderReady,
  razorpaySubscriptionReady,
  paypalOrderReady,
  paypalCaptured,
  paypalCaptureFailed,
  paymentSucceeded,
  paymentFailed,
  subscriptionCancelled,
  cycleChosen,
  paymentReset,
} = paymentSlice.actions;
export const paymentReducer = paymentSlice.reducer;
