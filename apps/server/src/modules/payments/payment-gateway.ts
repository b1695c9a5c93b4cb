import type { GatewayInfo, PaymentGateway as GatewayName } from '@backbeat/contract';
import { AppError } from '../../platform/errors';
import type { RefundReport } from './payment-ledger';
import type { OrderRow, PaymentRow, SubscriptionRow } from './payments.repository';

/**
 * A verified confirmation of one order, whatever the gateway (sandbox button, Stripe webhook, Razorpay signature,
 * PayPal capture). `externalId` is unique per gateway: a replay carries the same id and grants nothing new.
 */
export interface PaymentConfirmation {
  externalId: string;
  /** The gateway's other id for the same money, where refunds name it (see payments.reference). */
  reference?: string | null;
  status: 'succeeded' | 'failed';
  amount: number;
  currency: string;
  raw: Record<string, unknown>;
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
   * Gives the money of a paid order back at the gateway. Returns the refund when the gateway reports it done at
   * once (it is recorded then, and again harmlessly when its webhook arrives), or null when it will come by webhook.
   */
  refund(order: OrderRow, payment: PaymentRow, reason: string | null): Promise<RefundReport | null>;
  /** Stops a gateway subscription from renewing; it plays until the end of the period paid for. */
  cancelSubscription(subscription: SubscriptionRow): Promise<void>;
  /**
   * Deletes the customer this gateway keeps for an account (its e-mail, name, address and saved cards): the
   * account is being deleted. A customer the gateway no longer has counts as deleted; any other failure throws,
   * and the account is kept.
   */
  deleteCustomer(externalId: string): Promise<void>;
}

export const GATEWAY_LABELS: Record<GatewayName, string> = {
  stripe: 'Stripe',
  razorpay: 'Razorpay',
  paypal: 'PayPal',
  sandbox: 'Sandbox',
};

export const gatewayUnavailable = (name: GatewayName) =>
  new AppError(503, 'GATEWAY_UNAVAILABLE', `${GATEWAY_LABELS[name]} payments are not available`);

/** A gateway call that failed for a reason other than the buyer's input (network, outage): 502, never a 500. */
export const gatewayFailed = (name: GatewayName, detail?: string) =>
  new AppError(
    502,
    'GATEWAY_ERROR',
    `${GATEWAY_LABELS[name]} could not be reached${detail ? `: ${detail}` : ''}. Nothing was charged; please try again.`,
  );

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
