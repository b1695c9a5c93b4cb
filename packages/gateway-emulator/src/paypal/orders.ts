import { toDecimalString } from '@backbeat/contract';
import { HOUR_MS } from '../core/clock';
import { Lifecycle } from '../core/lifecycle';
import type { Obj } from '../core/store';
import { paypalId, TEST_BUYERS, type Buyer, type PaypalContext } from './context';
import { notFound, refuse, toMinor, unprocessable } from './dialect';

/** PayPal lets an order be approved and captured for 3 hours after it was created; then it expires. */
const ORDER_LIFETIME_MS = 3 * HOUR_MS;
const orders = new Lifecycle<'CREATED' | 'APPROVED' | 'COMPLETED' | 'VOIDED'>({
  CREATED: ['APPROVED', 'VOIDED'],
  APPROVED: ['APPROVED', 'COMPLETED', 'VOIDED'],
  COMPLETED: [],
  VOIDED: [],
});
type Money = { currency_code: string; value: string };
/** A capture as an order lists it: without the `supplementary_data` and `payee` that GET capture shows. */
const inOrder = (capture: Obj) => {
  const { supplementary_data: _related, payee: _payee, ...shown } = capture;
  return shown;
};
const MERCHANT = { email_address: 'merchant@backbeat.example', merchant_id: 'BACKBEATEMU01' };

/** Orders v2 (create, approve, capture) and Payments v2 (captures, their refunds and reversals). */
export class PaypalOrders {
  constructor(private readonly ctx: PaypalContext) {}

  create(values: {
    referenceId?: string;
    customId?: string;
    description?: string;
    invoiceId?: string;
    amount: Money;
  }): Obj {
    const now = this.ctx.iso();
    const unit: Record<string, unknown> = {
      reference_id: values.referenceId ?? 'default',
      amount: { currency_code: values.amount.currency_code, value: values.amount.value },
      payee: MERCHANT,
    };
    if (values.description) unit.description = values.description;
    if (values.customId) unit.custom_id = values.customId;
    if (values.invoiceId) unit.invoice_id = values.invoiceId;
    const id = paypalId(17);
    const order: Obj = {
      id,
      intent: 'CAPTURE',
      status: 'CREATED',
      purchase_units: [unit],
      create_time: now,
      links: [
        this.ctx.link(`/v2/checkout/orders/${id}`, 'self'),
        this.ctx.link(`/checkoutnow?token=${id}`, 'approve'),
        this.ctx.link(`/v2/checkout/orders/${id}`, 'update', 'PATCH'),
        this.ctx.link(`/v2/checkout/orders/${id}/capture`, 'capture', 'POST'),
      ],
    };
    return this.ctx.save('orders', order);
  }

  /** An order as GET answers it: an expired one (never captured within 3 hours) no longer exists. */
  find(id: string): Obj {
    const order = this.ctx.get('orders', id);
    if (this.expired(order)) notFound();
    return order;
  }

  /** The buyer approved the order on the approval page (as the chosen test buyer). */
  approve(id: string, buyer: Buyer, overrideAmount?: string): Obj {
    const order = this.ctx.get('orders', id);
    if (this.expired(order)) refuse(422, 'ORDER_EXPIRED', 'The order has expired.');
    orders.move(order, 'APPROVED', (from) =>
      refuse(
        422,
        from === 'COMPLETED' ? 'ORDER_ALREADY_CAPTURED' : 'ORDER_CANNOT_BE_APPROVED',
        `The order cannot be approved in status ${from}.`,
      ),
    );
    Object.assign(this.ctx.store.meta('orders', id), { buyer, captureAmount: overrideAmount });
    const payer = TEST_BUYERS[buyer];
    order.payer = {
      name: payer.name,
      email_address: payer.email_address,
      payer_id: payer.payer_id,
      address: { country_code: 'US' },
    };
    order.payment_source = {
      paypal: {
        email_address: payer.email_address,
        account_id: payer.payer_id,
        account_status: 'VERIFIED',
        name: payer.name,
        address: { country_code: 'US' },
      },
    };
    order.update_time = this.ctx.iso();
    this.ctx.save('orders', order);
    this.ctx.emit('CHECKOUT.ORDER.APPROVED', order, 'An order has been approved by buyer');
    return order;
  }

  capture(order: Obj): Obj {
    if (order.status === 'COMPLETED') {
      refuse(
        422,
        'ORDER_ALREADY_CAPTURED',
        "Order already captured.If 'intent=CAPTURE' only one capture per order is allowed.",
      );
    }
    if (this.expired(order)) refuse(422, 'ORDER_EXPIRED', 'The order has expired.');
    if (order.status !== 'APPROVED') {
      refuse(
        422,
        'ORDER_NOT_APPROVED',
        "Payer has not yet approved the Order for payment. Please redirect the payer to the 'rel':'approve' url returned as part of the HATEOAS links within the Create Order call or provide a valid payment_source in the request.",
      );
    }
    const meta = this.ctx.store.meta('orders', order.id) as { buyer?: Buyer; captureAmount?: string };
    const unit = (order.purchase_units as Array<Record<string, unknown>>)[0]!;
    const amount = unit.amount as Money;
    if (meta.buyer === 'declined') {
      const denied = this.ctx.save('captures', this.captureObject(order, unit, amount, 'DECLINED'));
      this.ctx.emit(
        'PAYMENT.CAPTURE.DENIED',
        denied,
        `Payment denied for ${amount.value} ${amount.currency_code}`,
      );
      refuse(
        422,
        'INSTRUMENT_DECLINED',
        "The instrument presented was either declined by the processor or bank, or it can't be used for this payment.",
      );
    }
    const captured = { currency_code: amount.currency_code, value: meta.captureAmount ?? amount.value };
    const capture = this.ctx.save('captures', this.captureObject(order, unit, captured, 'COMPLETED'));
    this.ctx.store.meta('captures', capture.id).order = order.id;
    order.status = 'COMPLETED';
    unit.payments = { captures: [inOrder(capture)] };
    order.update_time = this.ctx.iso();
    this.ctx.save('orders', order);
    this.ctx.record('T0006', capture.id, { id: order.id, type: 'ODR' }, captured, unit.custom_id);
    const summary = `Payment completed for ${captured.value} ${captured.currency_code}`;
    this.ctx.emit('PAYMENT.CAPTURE.COMPLETED', capture, summary);
    return order;
  }

  /** Refunds all or part of what remains of a capture; refused once disputed (chargeback) or fully refunded. */
  refund(captureId: string, values: { amount?: Money; noteToPayer?: string; invoiceId?: string }): Obj {
    const capture = this.ctx.get('captures', captureId);
    const meta = this.ctx.store.meta('captures', captureId) as { refunded?: number; disputed?: boolean };
    if (meta.disputed) {
      refuse(
        422,
        'REFUND_NOT_PERMITTED_DUE_TO_CHARGEBACK',
        'Refunds not allowed on this capture due to a chargeback on the card or bank. Please contact the payee to resolve the chargeback.',
      );
    }
    if (capture.status === 'REFUNDED')
      refuse(422, 'CAPTURE_FULLY_REFUNDED', 'The capture has already been fully refunded');
    if (capture.status !== 'COMPLETED' && capture.status !== 'PARTIALLY_REFUNDED') {
      refuse(422, 'CANNOT_BE_REFUNDED', `A capture in status ${String(capture.status)} cannot be refunded.`);
    }
    const total = capture.amount as Money;
    const currency = total.currency_code;
    if (values.amount && values.amount.currency_code !== currency) {
      unprocessable(
        'REFUND_CURRENCY_MISMATCH',
        'Refund must be in the same currency as the capture.',
        '/amount/currency_code',
      );
    }
    const remaining = toMinor(total.value, currency) - (meta.refunded ?? 0);
    const amount = values.amount ? toMinor(values.amount.value, currency) : remaining;
    if (amount > remaining) {
      unprocessable(
        'REFUND_AMOUNT_EXCEEDED',
        'The refund amount must be less than or equal to the capture amount that has not yet been refunded.',
        '/amount/value',
      );
    }
    return this.takeBack(capture, amount, {
      note: values.noteToPayer,
      code: 'T1107',
      event: 'PAYMENT.CAPTURE.REFUNDED',
    });
  }

  /** A dispute resolved in the buyer's favour takes the money back: `PAYMENT.CAPTURE.REVERSED`. */
  reverse(captureId: string): Obj {
    const capture = this.ctx.get('captures', captureId);
    const total = capture.amount as Money;
    const refunded = (this.ctx.store.meta('captures', captureId).refunded as number | undefined) ?? 0;
    this.ctx.restate(capture.id, 'V');
    const remaining = toMinor(total.value, total.currency_code) - refunded;
    return this.takeBack(capture, remaining, {
      note: 'Payment reversed',
      code: 'T1106',
      event: 'PAYMENT.CAPTURE.REVERSED',
    });
  }

  /** Money going back to the buyer from a capture (a refund or a reversal): the refund object, status, report line. */
  private takeBack(capture: Obj, amount: number, how: { note?: string; code: string; event: string }): Obj {
    const meta = this.ctx.store.meta('captures', capture.id) as { refunded?: number };
    const total = capture.amount as Money;
    const currency = total.currency_code;
    meta.refunded = (meta.refunded ?? 0) + amount;
    const value = { currency_code: currency, value: toDecimalString(amount, currency) };
    const refund = this.ctx.save('refunds', this.refundObject(capture, value, meta.refunded, how.note));
    capture.status = meta.refunded >= toMinor(total.value, currency) ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
    capture.update_time = this.ctx.iso();
    this.ctx.save('captures', capture);
    this.syncOrder(capture);
    const negative = { currency_code: currency, value: `-${value.value}` };
    this.ctx.record(how.code, refund.id, { id: capture.id, type: 'TXN' }, negative, capture.custom_id);
    const summary = `A ${value.value} ${currency} capture payment was ${how.code === 'T1106' ? 'reversed' : 'refunded'}`;
    this.ctx.emit(how.event, refund, summary);
    return refund;
  }

  private expired(order: Obj): boolean {
    if (order.status === 'COMPLETED' || order.status === 'VOIDED') return false;
    return this.ctx.clock.now().getTime() - new Date(String(order.create_time)).getTime() > ORDER_LIFETIME_MS;
  }

  /** The order shows its capture as it is now. */
  private syncOrder(capture: Obj): void {
    const order = this.ctx.find('orders', this.ctx.store.meta('captures', capture.id).order as string);
    if (!order) return;
    const unit = (order.purchase_units as Array<Record<string, unknown>>)[0]!;
    unit.payments = { ...(unit.payments as object), captures: [inOrder(capture)] };
    const refunds = this.ctx.store
      .values<Obj>('refunds')
      .filter((refund) =>
        (refund.links as Array<{ rel: string; href: string }>).some(
          (l) => l.rel === 'up' && l.href.endsWith(`/${capture.id}`),
        ),
      );
    (unit.payments as Record<string, unknown>).refunds = refunds;
    this.ctx.save('orders', order);
  }

  private captureObject(order: Obj, unit: Record<string, unknown>, amount: Money, status: string): Obj {
    const id = paypalId(17);
    const now = this.ctx.iso();
    const capture: Obj = {
      id,
      status,
      amount,
      final_capture: true,
      seller_protection: {
        status: 'ELIGIBLE',
        dispute_categories: ['ITEM_NOT_RECEIVED', 'UNAUTHORIZED_TRANSACTION'],
      },
      ...(status === 'COMPLETED'
        ? {
            seller_receivable_breakdown: {
              gross_amount: amount,
              paypal_fee: { currency_code: amount.currency_code, value: '0.00' },
              net_amount: amount,
            },
          }
        : {}),
      ...(unit.custom_id ? { custom_id: unit.custom_id } : {}),
      ...(unit.invoice_id ? { invoice_id: unit.invoice_id } : {}),
      supplementary_data: { related_ids: { order_id: order.id } },
      payee: MERCHANT,
      create_time: now,
      update_time: now,
      links: [
        this.ctx.link(`/v2/payments/captures/${id}`, 'self'),
        this.ctx.link(`/v2/payments/captures/${id}/refund`, 'refund', 'POST'),
        this.ctx.link(`/v2/checkout/orders/${order.id}`, 'up'),
      ],
    };
    return capture;
  }

  private refundObject(capture: Obj, amount: Money, refundedSoFar: number, note?: string): Obj {
    const id = paypalId(17);
    const now = this.ctx.iso();
    const currency = amount.currency_code;
    return {
      id,
      amount,
      status: 'COMPLETED',
      ...(note ? { note_to_payer: note } : {}),
      ...(capture.custom_id ? { custom_id: capture.custom_id } : {}),
      seller_payable_breakdown: {
        gross_amount: amount,
        paypal_fee: { currency_code: currency, value: '0.00' },
        net_amount: amount,
        total_refunded_amount: { currency_code: currency, value: toDecimalString(refundedSoFar, currency) },
      },
      payer: MERCHANT,
      create_time: now,
      update_time: now,
      links: [
        this.ctx.link(`/v2/payments/refunds/${id}`, 'self'),
        this.ctx.link(`/v2/payments/captures/${capture.id}`, 'up'),
      ],
    };
  }
}
