import { z } from 'zod';
import { Id } from './common';
import { OrderStatus } from './dashboard';

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

/** Shown on the demo checkout; the sandbox never moves money. */
export const SANDBOX_CHECKOUT_LABEL = 'Demo payment - no money moves';

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

export const PAYMENT_MESSAGES = {
  paid: 'Payment complete',
  declined: 'Payment declined',
} as const;

/** Error codes of the payment calls, next to the common ones (VALIDATION_ERROR, NOT_FOUND, ...). */
export const PAYMENT_ERROR_CODES = {
  amountMismatch: 'AMOUNT_MISMATCH',
  alreadyOwned: 'ALREADY_OWNED',
  notForSale: 'NOT_FOR_SALE',
  orderDecided: 'ORDER_ALREADY_DECIDED',
  gatewayUnavailable: 'GATEWAY_UNAVAILABLE',
  notSubscribed: 'NOT_SUBSCRIBED',
} as const;

// ---------------------------------------------------------------------------------------------------------------
// Subscriptions to an artist (SPEC: POST / DELETE /subscriptions/artist/{id})

export const SUBSCRIPTION_CYCLES = ['1m', '3m', '6m', '12m'] as const;
export type SubscriptionCycle = (typeof SUBSCRIPTION_CYCLES)[number];
/** Months paid for by one order of each cycle; the price is the artist's monthly price times the months. */
export const SUBSCRIPTION_CYCLE_MONTHS: Record<SubscriptionCycle, number> = {
  '1m': 1,
  '3m': 3,
  '6m': 6,
  '12m': 12,
};

export const SubscriptionArtistParams = z.object({ id: Id });
export type SubscriptionArtistParams = z.infer<typeof SubscriptionArtistParams>;

/**
 * `POST /api/subscriptions/artist/:id` (sign-in required) -> 201 `CreateSandboxOrderResponse` for the sandbox
 * gateway: an order for one cycle and its demo checkout; paying it starts the subscription, or extends it from the
 * end of the period already paid for. `amount`, when given, must equal the server's price (400 AMOUNT_MISMATCH).
 * A gateway that is not configured answers 503 GATEWAY_UNAVAILABLE; an active subscription 409 ALREADY_OWNED.
 */
export const SubscribeArtistBody = z.object({
  gateway: z.enum(PAYMENT_GATEWAYS, { error: "must be 'stripe', 'razorpay', 'paypal' or 'sandbox'" }),
  cycle: z
    .enum(SUBSCRIPTION_CYCLES, { error: 'Invalid subscription cycle. Use 1m, 3m, 6m, or 12m.' })
    .default('1m'),
  amount: z.number({ error: 'must be a number' }).int('must be whole minor units').nonnegative().optional(),
});
export type SubscribeArtistBody = z.input<typeof SubscribeArtistBody>;

/**
 * `DELETE /api/subscriptions/artist/:id` -> `{ message: 'Subscription cancelled' }`. The subscription still plays
 * until the end of the period paid for; without an active subscription the answer is 404 NOT_SUBSCRIBED.
 */
export const SUBSCRIPTION_MESSAGES = {
  cancelled: 'Subscription cancelled',
} as const;
