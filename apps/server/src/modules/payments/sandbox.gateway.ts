import { randomBytes } from 'node:crypto';
import type { Checkout, CheckoutRequest, PaymentConfirmation, PaymentGateway } from './payment-gateway';

export type SandboxOutcome = 'pay' | 'decline';

/**
 * The built-in demo gateway (ARCHITECTURE section 5): no money moves. Its checkout is the web's demo screen, whose
 * Pay / Decline buttons confirm the order; the confirmation then takes the same path a real gateway's would.
 */
export class SandboxGateway implements PaymentGateway {
  readonly name = 'sandbox' as const;

  async createCheckout(request: CheckoutRequest): Promise<Checkout> {
    return {
      externalId: `sbx_ord_${randomBytes(12).toString('hex')}`,
      checkoutUrl: `/checkout/sandbox/${request.orderId}`,
    };
  }

  /**
   * The buyer's decision on the demo checkout. The payment id derives from the order's, so a second confirmation
   * of one order collides on the unique (gateway, external id) key instead of paying twice.
   */
  confirm(
    order: { id: string; externalId: string | null; amount: number; currency: string },
    outcome: SandboxOutcome,
  ): PaymentConfirmation {
    return {
      externalId: `sbx_pay_${order.externalId ?? order.id}`,
      status: outcome === 'pay' ? 'succeeded' : 'failed',
      amount: order.amount,
      currency: order.currency,
      raw: { gateway: 'sandbox', orderId: order.id, outcome },
    };
  }
}
