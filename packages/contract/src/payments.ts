/**
 * Over 400 lines on purpose: the zod schemas of the whole payments API (checkouts per gateway, orders, history,
 * refunds, subscriptions and the admin's payments health), one file as the OpenAPI document has one payments tag.
 */
import { z } from 'zod';
import { Id } from './common';
import { SUBSCRIPTION_CYCLES } from './constants/subscriptions';
import { OrderStatus, PaymentHistoryEntry } from './dashboard';

/** The payments' plain values live in ./constants (zod-free, for the web) and are exported here as before. */
export { PAYMENT_ERROR_CODES, PAYMENT_MESSAGES, SANDBOX_CHECKOUT_LABEL } from './constants/payments';
export {
  INVALID_CYCLE_MESSAGE,
  SUBSCRIPTION_CYCLE_MONTHS,
  SUBSCRIPTION_CYCLES,
  SUBSCRIPTION_MESSAGES,
  type SubscriptionCycle,
} from './constants/subscriptions';

/**
 * Commerce through the built-in `sandbox` gateway (ARCHITECTURE section 5): the same order -> verified
 * confirmation -> entitlement path the real gateways (stripe, razorpay, paypal) will take. The server prices every
 * order from the catalogue; money is integer minor units plus an ISO currency.
 */
export const PAYMENT_GATEWAYS = ['stripe', 'razorpay', 'paypal', 'sandbox'] as const;
export type PaymentGateway = (typeof PAYMENT_GATEWAYS)[number];

/** What can be bought once: a song or an album (subscriptions have their own calls). */
export const PurchasableItemType = z.enum(['song', 'album'], { error: "must be 'song' or 'album'" });
export type PurchasableItemType = z.infer<typeof PurchasableItemType>;

/** The order statuses (the `OrderStatus` type is the dashboard contract's, exported once). */
export const ORDER_STATUSES = OrderStatus.options;

/**
 * `POST /api/payments/sandbox/create-order` (sign-in required). `amount` is what the client showed; a different
 * amount than the server's price is refused (400, code AMOUNT_MISMATCH), so a stale price never charges.
 */
export const CreateSandboxOrderBody = z.object({
  itemType: PurchasableItemType,
  itemId: Id,
  amount: z.number({ error: 'must be a number' }).int('must be whole minor units').nonnegative(),
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/, 'must be an ISO 4217 code')
    .optional(),
});
export type CreateSandboxOrderBody = z.infer<typeof CreateSandboxOrderBody>;

/** An order as its buyer sees it. */
export const Order = z.object({
  _id: z.string(),
  itemType: z.enum(['song', 'album', 'subscription']),
  /** The song, album or artist id. */
  itemId: z.string().nullable(),
  itemTitle: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  gateway: z.enum(PAYMENT_GATEWAYS),
  status: z.enum(ORDER_STATUSES),
  /** Subscription cycle (1m, 3m, 6m, 12m); null for purchases. */
  cycle: z.string().nullable().optional(),
  /** A renewal the gateway charged for a running subscription. */
  renewal: z.boolean().optional(),
  createdAt: z.string(),
});
export type Order = z.infer<typeof Order>;

/** 201 from create-order: the order and the address of the demo checkout screen for it. */
export const CreateSandboxOrderResponse = z.object({ order: Order, checkoutUrl: z.string() });
export type CreateSandboxOrderResponse = z.infer<typeof CreateSandboxOrderResponse>;

/** `GET /api/payments/sandbox/orders/:id` (the buyer only; anyone else gets 404). */
export const OrderParams = z.object({ id: Id });
export type OrderParams = z.infer<typeof OrderParams>;
export const OrderResponse = z.object({ order: Order });
export type OrderResponse = z.infer<typeof OrderResponse>;

/**
 * `POST /api/payments/sandbox/orders/:id/confirm` — the demo checkout's Pay or Decline button. Paying grants the
 * entitlement in the same transaction as the payment row; repeating the call grants nothing new and answers the
 * same. A decided order cannot change its outcome (409, code ORDER_ALREADY_DECIDED).
 */
export const ConfirmSandboxOrderBody = z.object({
  outcome: z.enum(['pay', 'decline'], { error: "must be 'pay' or 'decline'" }),
});
export type ConfirmSandboxOrderBody = z.infer<typeof ConfirmSandboxOrderBody>;
export const ConfirmSandboxOrderResponse = z.object({ order: Order, message: z.string() });
export type ConfirmSandboxOrderResponse = z.infer<typeof ConfirmSandboxOrderResponse>;

// ---------------------------------------------------------------------------------------------------------------
// Subscriptions to an artist (SPEC: POST / DELETE /subscriptions/artist/{id})

export const SubscriptionArtistParams = z.object({ id: Id });
export type SubscriptionArtistParams = z.infer<typeof SubscriptionArtistParams>;

/** The billing address Stripe keeps with a subscription's customer (all optional; the country is ISO 3166-1). */
export const BillingAddress = z.object({
  line1: z.string().max(200).optional(),
  line2: z.string().max(200).optional(),
  city: z.string().max(100).optional(),
  state: z.string().max(100).optional(),
  postalCode: z.string().max(20).optional(),
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code')
    .optional(),
});
export type BillingAddress = z.infer<typeof BillingAddress>;

/**
 * `POST /api/subscriptions/artist/:id` (sign-in required) -> 201 `CreateSandboxOrderResponse` for the sandbox
 * gateway: an order for one cycle and its demo checkout; paying it starts the subscription, or extends it from the
 * end of the period already paid for. `amount`, when given, must equal the server's price (400 AMOUNT_MISMATCH).
 * A gateway that is not configured answers 503 GATEWAY_UNAVAILABLE; an active subscription 409 ALREADY_OWNED.
 *
 * The cycle is checked by the service so that a wrong one reads exactly the SPEC's message
 * ('Invalid subscription cycle. Use 1m, 3m, 6m, or 12m.', code INVALID_CYCLE) with no field prefix.
 */
export const SubscribeArtistBody = z
  .object({
    /** Optional (SPEC: Razorpay's body is `{ cycle }` alone): without it, Stripe when a card is given, else Razorpay. */
    gateway: z
      .enum(PAYMENT_GATEWAYS, { error: "must be 'stripe', 'razorpay', 'paypal' or 'sandbox'" })
      .optional(),
    cycle: z.string().max(10).optional().describe('1m, 3m, 6m or 12m (default 1m)'),
    amount: z.number({ error: 'must be a number' }).int('must be whole minor units').nonnegative().optional(),
    /** Stripe: the card saved through the setup intent (required for Stripe). */
    paymentMethodId: z.string().min(1).max(255).optional(),
    /** Stripe: the cardholder's name and billing address, kept on the Stripe customer. */
    name: z.string().max(200).optional(),
    address: BillingAddress.optional(),
  })
  // A body naming neither a gateway nor a cycle (nor a card) says nothing about how to pay.
  .refine(
    (body) => body.gateway !== undefined || body.cycle !== undefined || body.paymentMethodId !== undefined,
    {
      message: 'is required (or give the cycle, for Razorpay)',
      path: ['gateway'],
    },
  );
export type SubscribeArtistBody = z.input<typeof SubscribeArtistBody>;

/**
 * 201 from `POST /api/subscriptions/artist/:id`, by gateway:
 * - sandbox: `order` and `checkoutUrl` (the demo checkout);
 * - stripe: `transactionId` (our order) and `clientSecret` of the first invoice's PaymentIntent (confirm it in
 *   Stripe.js for 3-D Secure; null when nothing is left to confirm), `subscriptionId`;
 * - razorpay: `subscriptionId` and `cycle` (open Razorpay Checkout with it), `keyId`;
 * - paypal: `subscriptionId` (PayPal's, for the buttons' createSubscription) and `approveUrl`.
 */
export const SubscribeArtistResponse = z.object({
  transactionId: z.string(),
  gateway: z.enum(PAYMENT_GATEWAYS),
  cycle: z.enum(SUBSCRIPTION_CYCLES),
  order: Order,
  checkoutUrl: z.string().optional(),
  clientSecret: z.string().nullable().optional(),
  subscriptionId: z.string().optional(),
  keyId: z.string().optional(),
  approveUrl: z.string().optional(),
});
export type SubscribeArtistResponse = z.infer<typeof SubscribeArtistResponse>;

// ---------------------------------------------------------------------------------------------------------------
// Gateways (ARCHITECTURE section 5): Stripe, Razorpay, PayPal through their official SDKs

/**
 * How a gateway runs: `live` (real keys), `test` (the provider's test keys), `emulator` (the local gateway emulator
 * that stands in for the provider offline; development only), `demo` (the built-in sandbox).
 */
export const GatewayMode = z.enum(['live', 'test', 'emulator', 'demo']);
export type GatewayMode = z.infer<typeof GatewayMode>;

/** What the web app needs to offer a gateway: its publishable key and where its browser script loads from. */
export const GatewayInfo = z.object({
  name: z.enum(PAYMENT_GATEWAYS),
  label: z.string(),
  mode: GatewayMode,
  /** Stripe publishable key, Razorpay key id, PayPal client id; null for the sandbox. */
  publishableKey: z.string().nullable(),
  /** The browser script's address when it is not the provider's own CDN (the emulator's stand-in). */
  scriptUrl: z.string().nullable(),
  subscriptions: z.boolean(),
  /** The smallest charge it takes in the catalogue's currency (minor units); the web offers it only from there. */
  minimumAmount: z.number().int().optional(),
});
export type GatewayInfo = z.infer<typeof GatewayInfo>;

/** `GET /api/payments/gateways` (public): the configured gateways; the web app offers only these. */
export const GatewaysResponse = z.object({ gateways: z.array(GatewayInfo), currency: z.string() });
export type GatewaysResponse = z.infer<typeof GatewaysResponse>;

/** The body of every gateway's purchase call: what is bought and the price the client showed (minor units). */
export const CreatePurchaseBody = CreateSandboxOrderBody;
export type CreatePurchaseBody = CreateSandboxOrderBody;

/** `POST /api/payments/stripe/create-payment` -> the PaymentIntent's client secret (SPEC: clientSecret). */
export const StripeCreatePaymentResponse = z.object({
  clientSecret: z.string(),
  transactionId: z.string(),
  paymentIntentId: z.string(),
});
export type StripeCreatePaymentResponse = z.infer<typeof StripeCreatePaymentResponse>;

/** `POST /api/subscriptions/setup-intent` -> a SetupIntent's client secret, to save a card for a subscription. */
export const SetupIntentResponse = z.object({ clientSecret: z.string() });
export type SetupIntentResponse = z.infer<typeof SetupIntentResponse>;

/** A Razorpay order as the SDK returns it (the fields Checkout needs; others pass through). */
export const RazorpayOrder = z
  .object({
    id: z.string(),
    entity: z.string(),
    amount: z.number(),
    currency: z.string(),
    receipt: z.string().nullable().optional(),
    status: z.string(),
  })
  .passthrough();

/** `POST /api/payments/razorpay/create-order` -> `{ order }` (SPEC), our `transactionId` and the key id for Checkout. */
export const RazorpayCreateOrderResponse = z.object({
  order: RazorpayOrder,
  transactionId: z.string(),
  keyId: z.string(),
});
export type RazorpayCreateOrderResponse = z.infer<typeof RazorpayCreateOrderResponse>;

/**
 * `POST /api/payments/razorpay/verify`: Razorpay Checkout's result, for an order or a subscription. The signature
 * is checked with the SDK's helper before anything is read or written; a bad one is 400 INVALID_SIGNATURE.
 */
export const RazorpayVerifyBody = z
  .object({
    razorpay_payment_id: z.string().min(1).max(100),
    razorpay_order_id: z.string().min(1).max(100).optional(),
    razorpay_subscription_id: z.string().min(1).max(100).optional(),
    razorpay_signature: z.string().min(1).max(200),
  })
  .refine((body) => Boolean(body.razorpay_order_id) !== Boolean(body.razorpay_subscription_id), {
    message: 'give razorpay_order_id or razorpay_subscription_id',
    path: ['razorpay_order_id'],
  });
export type RazorpayVerifyBody = z.infer<typeof RazorpayVerifyBody>;

/** The settled order and a message ('Payment complete'). */
export const PaymentResultResponse = z.object({ order: Order, message: z.string() });
export type PaymentResultResponse = z.infer<typeof PaymentResultResponse>;

/** `POST /api/payments/paypal/create-order`; `currency` defaults to USD (SPEC) and must be the item's currency. */
export const PaypalCreateOrderBody = z.object({
  itemType: PurchasableItemType,
  itemId: Id,
  amount: z.number({ error: 'must be a number' }).int('must be whole minor units').nonnegative(),
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/, 'must be an ISO 4217 code')
    .default('USD'),
});
export type PaypalCreateOrderBody = z.input<typeof PaypalCreateOrderBody>;

export const PaypalLink = z.object({ href: z.string(), rel: z.string(), method: z.string().optional() });

/** -> PayPal's order id and links (SPEC: id, links), and our `transactionId`. */
export const PaypalCreateOrderResponse = z.object({
  id: z.string(),
  links: z.array(PaypalLink),
  status: z.string().optional(),
  transactionId: z.string(),
});
export type PaypalCreateOrderResponse = z.infer<typeof PaypalCreateOrderResponse>;

/** `POST /api/payments/paypal/capture-order { orderId }` (PayPal's order id). */
export const PaypalCaptureBody = z.object({ orderId: z.string().min(1).max(64) });
export type PaypalCaptureBody = z.infer<typeof PaypalCaptureBody>;

/**
 * -> `{ data }` (SPEC): PayPal's capture result; plus our order and a message. Settled only when the captured amount
 * and currency equal the order's.
 */
export const PaypalCaptureResponse = z.object({
  data: z.record(z.string(), z.unknown()),
  order: Order,
  message: z.string(),
});
export type PaypalCaptureResponse = z.infer<typeof PaypalCaptureResponse>;

/** `POST /api/payments/paypal/confirm-subscription { subscriptionId }` after the buyer approved it in PayPal. */
export const PaypalConfirmSubscriptionBody = z.object({ subscriptionId: z.string().min(1).max(64) });
export type PaypalConfirmSubscriptionBody = z.infer<typeof PaypalConfirmSubscriptionBody>;

/** Webhooks answer 200 `{ received: true }` once the event is recorded (or was before). */
export const WebhookResponse = z.object({ received: z.boolean() });
export type WebhookResponse = z.infer<typeof WebhookResponse>;

/** `GET /api/payments/history`: every order, renewal and refund of the signed-in user, newest first. */
export const PaymentHistoryResponse = z.object({ history: z.array(PaymentHistoryEntry) });
export type PaymentHistoryResponse = z.infer<typeof PaymentHistoryResponse>;

/** `POST /api/admin/orders/:id/refund` (admin): gives the money back through the order's gateway and revokes. */
export const RefundOrderBody = z.object({ reason: z.string().max(500).optional() });
export type RefundOrderBody = z.infer<typeof RefundOrderBody>;

export const PAYMENT_EVENT_MESSAGES = {
  refunded: 'Order refunded',
  pending: 'Payment received; waiting for the gateway to confirm it',
} as const;

// ---------------------------------------------------------------------------------------------------------------
// Reconciliation with each provider and what needs an admin's eye (admin only)

/** Money the ledger could not settle on its own (see the server's payment_issues). */
export const PaymentIssueKind = z.enum([
  'amount_mismatch',
  'duplicate_payment',
  'unknown_payment',
  'refund_failed',
  'cancel_failed',
]);
export const PaymentIssue = z.object({
  _id: z.string(),
  gateway: z.enum(PAYMENT_GATEWAYS),
  kind: PaymentIssueKind,
  /** The gateway's id of the money or object concerned. */
  externalId: z.string(),
  orderId: z.string().nullable(),
  amount: z.number().int().nullable(),
  currency: z.string().nullable(),
  detail: z.string(),
  status: z.enum(['open', 'resolved']),
  resolution: z.string().nullable(),
  createdAt: z.string(),
  resolvedAt: z.string().nullable(),
});
export type PaymentIssue = z.infer<typeof PaymentIssue>;

/** One run of the reconciliation with a gateway: the window it read and what it applied that webhooks missed. */
export const ReconciliationRunEntry = z.object({
  _id: z.string(),
  gateway: z.enum(PAYMENT_GATEWAYS),
  trigger: z.enum(['schedule', 'admin']),
  status: z.enum(['running', 'succeeded', 'failed']),
  windowStart: z.string(),
  windowEnd: z.string(),
  examined: z.number().int(),
  fixed: z.number().int(),
  problems: z.number().int(),
  /** What it changed, in words (at most 200). */
  fixes: z.array(z.string()),
  error: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ReconciliationRunEntry = z.infer<typeof ReconciliationRunEntry>;

/** `GET /api/admin/payments/health`: the latest reconciliation runs of each gateway and the payment issues. */
export const PaymentsHealthResponse = z.object({
  gateways: z.array(z.enum(PAYMENT_GATEWAYS)),
  runs: z.array(ReconciliationRunEntry),
  issues: z.array(PaymentIssue),
});
export type PaymentsHealthResponse = z.infer<typeof PaymentsHealthResponse>;

/** `POST /api/admin/payments/reconcile?gateway=`: runs the reconciliation of every configured gateway (or one) now. */
export const ReconcileQuery = z.object({
  gateway: z
    .enum(['stripe', 'razorpay', 'paypal'], { error: "must be 'stripe', 'razorpay' or 'paypal'" })
    .optional(),
});
export type ReconcileQuery = z.infer<typeof ReconcileQuery>;
export const ReconcileResponse = z.object({ runs: z.array(ReconciliationRunEntry) });
export type ReconcileResponse = z.infer<typeof ReconcileResponse>;

/** `POST /api/admin/payments/issues/:id/resolve`: an admin settled an issue by hand and says how. */
export const ResolveIssueBody = z.object({
  resolution: z.string().trim().min(1, 'say how it was settled').max(500),
});
export type ResolveIssueBody = z.infer<typeof ResolveIssueBody>;
export const PaymentIssueParams = z.object({ id: Id });
export const PaymentIssueResponse = z.object({ issue: PaymentIssue });
export type PaymentIssueResponse = z.infer<typeof PaymentIssueResponse>;
