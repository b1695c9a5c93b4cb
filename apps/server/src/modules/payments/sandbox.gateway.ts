import { randomBytes } from 'node:crypto';
import type { GatewayInfo } from '@backbeat/contract';
import type { PaymentConfirmation, PaymentGateway, RefundReport, RefundRequest } from './payment-gateway';
import type { OrderRow, PaymentRow } from './payments.repository';

export type SandboxOutcome = 'pay' | 'decline';

/**
 * The built-in demo gateway (ARCHITECTURE section 5): no money moves. Its checkout is the web's demo screen, whose
 * Pay / Decline buttons confirm the order; the confirmation then takes the same path a real gateway's would.
 */
export class SandboxGateway implements PaymentGateway {
  readonly name = 'sandbox' as const;

  describe(): GatewayInfo {
    return {
      name: 'sandbox',
      label: 'Demo checkout',
      mode: 'demo',
      publishableKey: null,
      scriptUrl: null,
      subscriptions: true,
    };
  }

  createCheckout(request: { orderId: string }): { externalId: string; checkoutUrl: string } {
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

  /** No money moved, so the refund is immediate. */
  async refund(order: OrderRow, payment: PaymentRow, request: RefundRequest): Promise<RefundReport> {
    return {
      gateway: 'sandbox',
      externalId: `sbx_re_${payment.externalId}`,
      paymentRef: payment.externalId,
      kind: 'refund',
      amount: request.amount ?? payment.amount,
      currency: payment.currency,
      reason: request.reason,
      raw: { gateway: 'sandbox', orderId: order.id },
    };
  }

  /** Sandbox subscriptions do not renew by themselves: nothing to stop at a gateway. */
  async cancelSubscription(): Promise<void> {}
}
