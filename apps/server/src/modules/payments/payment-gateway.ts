import type { GatewayInfo, PaymentGateway as GatewayName } from '@backbeat/contract';
import { AppError } from '../../platform/errors';
import type { OrderRow, PaymentRow, SubscriptionRow } from './payments.repository';

/**
 * Money moved after a payment, as the gateway reports it: a refund, a dispute (the buyer's bank took the money
 * back) or the reversal of a dispute the seller won (the money came back). Recorded once per gateway id.
 */
export interface RefundReport {
  gateway: GatewayName;
  /** The gateway's refund or dispute id; a reversal uses its dispute's id with `:reversed`. */
  externalId: string;
  /** The gateway's id of the money it is about: its PaymentIntent, Razorpay payment, PayPal capture or sale. */
  paymentRef: string;
  kind: 'refund' | 'dispute' | 'reversal';
  /** Minor units, always positive: a refund or dispute takes them back, a reversal gives them back. */
  amount: number;
  currency: string;
  reason?: string | null;
  raw?: unknown;
}

/**
 * A verified confirmation of one payment, whatever the gateway (sandbox button, Stripe webhook, Razorpay signature,
 * PayPal capture), read from the gateway's current state. `externalId` is unique per gateway: a replay carries the
 * same id and grants nothing new. `adjustments` are the refunds and disputes the gateway already reports for this
 * money: a payment refunded before its success event arrived is recorded with them and grants nothing.
 */
export interface PaymentConfirmation {
  externalId: string;
  /** The gateway's other id for the same money, where refunds name it (see payments.reference). */
  reference?: string | null;
  status: 'succeeded' | 'failed';
  amount: number;
  currency: string;
  raw: Record<string, unknown>;
  adjustments?: RefundReport[];
}

/** What a refund call asks of a gateway. */
export interface RefundRequest {
  /** Minor units to give back; the whole payment when absent. */
  amount?: number;
  /** Shown to the buyer where the gateway supports a note. */
  reason: string | null;
  /** Repeating a refund with the same key never refunds twice (the gateways' idempotency, or ours). */
  idempotencyKey: string;
  /** Why: an admin's refund, or the ledger's own (a second payment, a capture of another amount). */
  cause: 'requested' | 'duplicate_payment' | 'amount_mismatch';
}

/**
 * One payment provider. Each gateway has its own routes for its checkout (its protocols differ); what the rest of
 * the app asks of every gateway is here.
 */
export interface PaymentGateway {
  readonly name: GatewayName;
  /** What the web app needs to offer this gateway (publishable key, script address, test mode). */
  describe(): GatewayInfo;
  /**
   * Gives money of a paid order back at the gateway. Returns the refund when the gateway reports it done at once
   * (it is recorded then, and again harmlessly when its webhook arrives), or null when it will come by webhook.
   */
  refund(order: OrderRow, payment: PaymentRow, request: RefundRequest): Promise<RefundReport | null>;
  /** Stops a gateway subscription from renewing; it plays until the end of the period paid for. */
  cancelSubscription(subscription: SubscriptionRow): Promise<void>;
  /**
   * Makes an unpaid order unpayable at the gateway where the gateway allows it (a Stripe PaymentIntent is
   * cancelled; Razorpay and PayPal orders cannot be, and are refused at capture instead). Answers what the gateway
   * says of the order now: `paid` when the money arrived meanwhile (the caller settles it instead).
   */
  cancelCheckout?(order: OrderRow): Promise<CheckoutState>;
  /**
   * Deletes the customer this gateway keeps for an account (its e-mail, name, address and saved cards): the
   * account is being deleted. A customer the gateway no longer has counts as deleted; any other failure throws,
   * and the account is kept. Absent where Backbeat creates no customer (the buyer's details stay in the gateway's
   * own checkout, or there is no gateway at all): nothing to delete.
   */
  deleteCustomer?(externalId: string): Promise<void>;
}

/** What a gateway says of an unpaid order it was asked to cancel (see PaymentGateway.cancelCheckout). */
export type CheckoutState = 'cancelled' | 'paid' | 'open';

/**
 * The scaffold of the three real gateways (Stripe, Razorpay, PayPal): what they do alike is here, what differs is
 * their data (`face`, `refundTarget`) and a few functions of their own SDK (`failure`, `paymentRef`, `refundAt`,
 * `stopRenewals`, `purchaseState`). Each of those may throw the SDK's own errors: the scaffold reads them with
 * `failure`.
 */
export abstract class GatewayScaffold implements PaymentGateway {
  abstract readonly name: Exclude<GatewayName, 'sandbox'>;

  constructor(
    /** The gateway's error as the buyer should read it (AppErrors pass through). */
    protected readonly failure: (error: unknown) => AppError,
    /** What the gateway's refunds act on, for the log when a payment names none (e.g. `PaymentIntent`). */
    protected readonly refundTarget: string,
  ) {}

  /**
   * What describe() tells the web: against the local emulator (`apiBase`) its mode is `emulator` and its checkout
   * script is the emulator's (`scriptPath`); otherwise `live` or `test`, as its keys say, and the web loads the
   * gateway's own script.
   */
  protected abstract face(): {
    label: string;
    publishableKey: string;
    apiBase?: string;
    scriptPath: string;
    live: boolean;
  };
  /** The gateway's id of the money a refund gives back, or null when the payment names none. */
  protected abstract paymentRef(order: OrderRow, payment: PaymentRow): string | null;
  /** The gateway's refund of `ref` (see refund). */
  protected abstract refundAt(
    ref: string,
    order: OrderRow,
    payment: PaymentRow,
    request: RefundRequest,
  ): Promise<RefundReport | null>;
  /** Stops the gateway's subscription `externalId` from renewing (see cancelSubscription). */
  protected abstract stopRenewals(externalId: string): Promise<void>;
  /** What the gateway says of a purchase's order now, made unpayable there where it can be (see cancelCheckout). */
  protected abstract purchaseState(externalId: string): Promise<CheckoutState>;

  describe(): GatewayInfo {
    const face = this.face();
    const emulator = face.apiBase ? face.apiBase.replace(/\/$/, '') : null;
    return {
      name: this.name,
      label: face.label,
      mode: emulator ? 'emulator' : face.live ? 'live' : 'test',
      publishableKey: face.publishableKey,
      scriptUrl: emulator ? `${emulator}${face.scriptPath}` : null,
      subscriptions: true,
    };
  }

  async refund(order: OrderRow, payment: PaymentRow, request: RefundRequest): Promise<RefundReport | null> {
    const ref = this.paymentRef(order, payment);
    if (!ref) {
      throw this.unreachable(new Error(`payment ${payment.id} names no ${this.refundTarget}`), 'unknown');
    }
    return this.refundAt(ref, order, payment, request).catch(this.rethrow);
  }

  async cancelSubscription(subscription: SubscriptionRow): Promise<void> {
    if (!subscription.externalId) return;
    await this.stopRenewals(subscription.externalId).catch(this.rethrow);
  }

  /**
   * An order the gateway never heard of has nothing to cancel, a subscription's order cancels its subscription
   * there, and a purchase is the gateway's own call (`purchaseState`, with the order's gateway id).
   */
  async cancelCheckout(order: OrderRow): Promise<CheckoutState> {
    if (!order.externalId) return 'cancelled';
    if (order.itemType === 'subscription') {
      await this.cancelSubscription({ externalId: order.externalId } as SubscriptionRow);
      return 'cancelled';
    }
    return this.purchaseState(order.externalId).catch(this.rethrow);
  }

  /** The gateway could not be reached, or answered what we could not read (see gatewayFailed). */
  protected unreachable(cause?: unknown, charged: 'nothing' | 'unknown' = 'nothing'): AppError {
    return gatewayFailed(this.name, cause, charged);
  }

  private readonly rethrow = (error: unknown): never => {
    throw this.failure(error);
  };
}

/**
 * A gateway's failure reader (its `failure`): AppErrors pass through; `refusal` says what the SDK's error is: the
 * gateway's quota (`busy`), a request of ours it refused (`rejected`), or an answer of its own (a card's decline);
 * anything else is a failure to reach it.
 */
export function gatewayFailure(
  name: GatewayName,
  refusal: (error: unknown) => 'busy' | 'rejected' | AppError | undefined,
): (error: unknown) => AppError {
  return (error) => {
    if (error instanceof AppError) return error;
    const refused = refusal(error);
    if (refused === 'busy') return gatewayBusy(name, error);
    if (refused === 'rejected') return gatewayRejected(name, error);
    return refused ?? gatewayFailed(name, error);
  };
}

export const GATEWAY_LABELS: Record<GatewayName, string> = {
  stripe: 'Stripe',
  razorpay: 'Razorpay',
  paypal: 'PayPal',
  sandbox: 'Sandbox',
};

export const gatewayUnavailable = (name: GatewayName) =>
  new AppError(503, 'GATEWAY_UNAVAILABLE', `${GATEWAY_LABELS[name]} payments are not available`);

/**
 * A gateway call that failed for a reason other than the buyer's input (network, outage, an answer we could not
 * read): 502 with a message a buyer can act on. What went wrong in detail is the caller's to log, never the buyer's
 * to read. `charged` says whether money may have moved (a refund that failed) or surely did not (a checkout).
 */
export function gatewayFailed(
  name: GatewayName,
  cause?: unknown,
  charged: 'nothing' | 'unknown' = 'nothing',
): AppError {
  const failure = new AppError(
    502,
    'GATEWAY_ERROR',
    charged === 'nothing'
      ? `${GATEWAY_LABELS[name]} could not be reached. Nothing was charged; please try again.`
      : `${GATEWAY_LABELS[name]} could not be reached. Please try again in a moment.`,
  );
  if (cause !== undefined) failure.cause = cause;
  return failure;
}

/**
 * The gateway understood the request and refused it for a reason that is ours, not the buyer's (an object it does
 * not know, a parameter it does not take): 502 with a message the buyer can act on; the gateway's words go to the log.
 */
export function gatewayRejected(name: GatewayName, cause: unknown): AppError {
  const failure = new AppError(
    502,
    'GATEWAY_REJECTED',
    `${GATEWAY_LABELS[name]} could not process this request. Nothing was charged; please try again or choose another way to pay.`,
  );
  failure.cause = cause;
  return failure;
}

/** The gateway asks us to slow down (its API quota): 503 with Retry-After; nothing was charged. */
export function gatewayBusy(name: GatewayName, cause: unknown): AppError {
  const failure = new AppError(
    503,
    'GATEWAY_BUSY',
    `${GATEWAY_LABELS[name]} is busy right now. Nothing was charged; please try again in a minute.`,
  );
  failure.cause = cause;
  Object.defineProperty(failure, 'retryAfterSeconds', { value: 60 });
  return failure;
}

/** The configured gateways by name; asking for one that is not configured answers 503 GATEWAY_UNAVAILABLE. */
export class GatewayRegistry {
  private readonly gateways = new Map<GatewayName, PaymentGateway>();

  constructor(gateways: PaymentGateway[]) {
    for (const gateway of gateways) this.gateways.set(gateway.name, gateway);
  }

  get(name: GatewayName): PaymentGateway {
    const gateway = this.gateways.get(name);
    if (!gateway) throw gatewayUnavailable(name);
    return gateway;
  }

  has(name: GatewayName): boolean {
    return this.gateways.has(name);
  }

  all(): PaymentGateway[] {
    return [...this.gateways.values()];
  }
}
