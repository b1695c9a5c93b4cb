import { toDecimalString } from '@backbeat/contract';
import type { Obj } from '../core/store';
import type { PaypalBilling } from './billing';
import { paypalId, type PaypalContext } from './context';
import { paypalV1Error, toMinor } from './dialect';

/** Subscription sales (v1) after they were paid: refunds from Backbeat and reversals after a lost dispute. */
export class PaypalSales {
  constructor(
    private readonly ctx: PaypalContext,
    private readonly billing: PaypalBilling,
  ) {}

  /** v1 sale refund: all or part of what remains; refused once fully refunded, over the amount or disputed. */
  refundSale(saleId: string, values: { total?: string; currency?: string; description?: string }): Obj {
    const sale = this.ctx.get('sales', saleId);
    const meta = this.ctx.store.meta('sales', saleId) as { refunded?: number; disputed?: boolean };
    const amount = sale.amount as { total: string; currency: string };
    if (sale.state === 'refunded')
      paypalV1Error(
        400,
        'TRANSACTION_ALREADY_REFUNDED',
        'Requested transaction has already been fully refunded.',
      );
    if (meta.disputed)
      paypalV1Error(
        400,
        'TRANSACTION_REFUSED',
        'The request was refused. This transaction is under dispute.',
      );
    if (values.currency && values.currency !== amount.currency)
      paypalV1Error(400, 'CURRENCY_MISMATCH', 'The refund currency must be the sale currency.');
    const remaining = toMinor(amount.total, amount.currency) - (meta.refunded ?? 0);
    const value = values.total ? toMinor(values.total, amount.currency) : remaining;
    if (value > remaining)
      paypalV1Error(400, 'REFUND_EXCEEDED_TRANSACTION_AMOUNT', 'Refund amount exceeds transaction amount');
    meta.refunded = (meta.refunded ?? 0) + value;
    const id = paypalId(17);
    const now = this.ctx.iso();
    const total = toDecimalString(value, amount.currency);
    const refund: Obj = {
      id,
      state: 'completed',
      amount: { total, currency: amount.currency },
      refund_from_received_amount: { value: total, currency: amount.currency },
      refund_from_transaction_fee: { value: '0.00', currency: amount.currency },
      total_refunded_amount: {
        value: toDecimalString(meta.refunded, amount.currency),
        currency: amount.currency,
      },
      sale_id: sale.id,
      parent_payment: `PAYID-${paypalId(24)}`,
      ...(values.description ? { description: values.description } : {}),
      ...(sale.custom ? { custom: sale.custom } : {}),
      create_time: now,
      update_time: now,
      links: [
        this.ctx.link(`/v1/payments/refund/${id}`, 'self'),
        this.ctx.link(`/v1/payments/sale/${sale.id}`, 'sale'),
      ],
    };
    this.ctx.save('sale_refunds', refund);
    sale.state = meta.refunded >= toMinor(amount.total, amount.currency) ? 'refunded' : 'partially_refunded';
    sale.update_time = now;
    this.ctx.save('sales', sale);
    const subscription = this.ctx.find('subscriptions', sale.billing_agreement_id as string);
    if (subscription)
      this.billing.restateTransaction(
        subscription,
        sale.id,
        sale.state === 'refunded' ? 'REFUNDED' : 'PARTIALLY_REFUNDED',
      );
    this.ctx.record(
      'T1107',
      id,
      { id: sale.id, type: 'TXN' },
      { currency_code: amount.currency, value: `-${total}` },
      sale.custom,
    );
    this.ctx.emit('PAYMENT.SALE.REFUNDED', refund, `A ${total} ${amount.currency} sale payment was refunded`);
    return refund;
  }

  /** A dispute lost by the merchant takes a sale back: `PAYMENT.SALE.REVERSED`. */
  reverseSale(saleId: string): Obj {
    const sale = this.ctx.get('sales', saleId);
    const meta = this.ctx.store.meta('sales', saleId) as { refunded?: number };
    const amount = sale.amount as { total: string; currency: string };
    const remaining = toMinor(amount.total, amount.currency) - (meta.refunded ?? 0);
    meta.refunded = toMinor(amount.total, amount.currency);
    const total = toDecimalString(remaining, amount.currency);
    const now = this.ctx.iso();
    sale.state = 'reversed';
    sale.update_time = now;
    this.ctx.save('sales', sale);
    const reversal: Obj = {
      id: paypalId(17),
      state: 'completed',
      amount: { total: `-${total}`, currency: amount.currency },
      sale_id: sale.id,
      reason_code: 'CHARGEBACK',
      ...(sale.custom ? { custom: sale.custom } : {}),
      create_time: now,
      update_time: now,
      links: [this.ctx.link(`/v1/payments/sale/${sale.id}`, 'sale')],
    };
    this.ctx.restate(sale.id, 'V');
    const subscription = this.ctx.find('subscriptions', sale.billing_agreement_id as string);
    if (subscription) this.billing.restateTransaction(subscription, sale.id, 'REFUNDED');
    this.ctx.record(
      'T1106',
      reversal.id,
      { id: sale.id, type: 'TXN' },
      { currency_code: amount.currency, value: `-${total}` },
      sale.custom,
    );
    this.ctx.emit(
      'PAYMENT.SALE.REVERSED',
      reversal,
      `A ${total} ${amount.currency} sale payment was reversed`,
    );
    return reversal;
  }
}
