import type { PaymentGateway as GatewayName } from '@backbeat/contract';
import { AppError } from '../../platform/errors';

/** What a gateway needs to open a checkout for an order row that already exists. */
export interface CheckoutRequest {
  orderId: string;
  amount: number;
  currency: string;
  description: string;
}

/** The gateway's id for the order and where the buyer pays it. */
export interface Checkout {
  externalId: string;
  checkoutUrl: string;
}

/**
 * A verified confirmation of one order, whatever the gateway (sandbox button, Stripe webhook, Razorpay signature,
 * PayPal capture). `externalId` is unique per gateway: a replay carries the same id and grants nothing new.
 */
export interface PaymentConfirmation {
  externalId: string;
  status: 'succeeded' | 'failed';
  amount: number;
  currency: string;
  raw: Record<string, unknown>;
}

/** One payment provider. Only `sandbox` exists today; stripe, razorpay and paypal implement the same interface. */
export interface PaymentGateway {
  readonly name: GatewayName;
  /** Called after the order row is written; the order is refused when this throws. */
  createCheckout(request: CheckoutRequest): Promise<Checkout>;
}

const GATEWAY_LABELS: Record<GatewayName, string> = {
  stripe: 'Stripe',
  razorpay: 'Razorpay',
  paypal: 'PayPal',
  sandbox: 'Sandbox',
};

export const gatewayUnavailable = (name: GatewayName) =>
  new AppError(503, 'GATEWAY_UNAVAILABLE', `${GATEWAY_LABELS[name]} payments are not available`);

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
}
