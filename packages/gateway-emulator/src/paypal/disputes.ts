import { newestFirst } from '../core/lists';
import type { Obj } from '../core/store';
import type { PaypalSales } from './sales';
import { paypalId, type PaypalContext } from './context';
import { refuse } from './dialect';
import type { PaypalOrders } from './orders';

/** Customer disputes on a capture or a sale: opened by the buyer, resolved for the buyer (money back) or the seller. */
export class PaypalDisputes {
  constructor(
    private readonly ctx: PaypalContext,
    private readonly orders: PaypalOrders,
    private readonly sales: PaypalSales,
  ) {}

  open(transactionId: string): Obj {
    const capture = this.ctx.find('captures', transactionId);
    const sale = capture ? undefined : this.ctx.find('sales', transactionId);
    if (!capture && !sale) refuse(404, 'INVALID_RESOURCE_ID', 'Specified resource ID does not exist.');
    const amount = capture
      ? (capture.amount as { currency_code: string; value: string })
      : {
          currency_code: (sale!.amount as { currency: string }).currency,
          value: (sale!.amount as { total: string }).total,
        };
    const id = `PP-D-${paypalId(5).replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) % 10))}`;
    const now = this.ctx.iso();
    const custom = capture?.custom_id ?? sale?.custom;
    const dispute: Obj = {
      id,
      dispute_id: id,
      create_time: now,
      update_time: now,
      disputed_transactions: [
        {
          seller_transaction_id: transactionId,
          buyer_transaction_id: paypalId(17),
          create_time: now,
          transaction_status: 'COMPLETED',
          gross_amount: amount,
          ...(custom ? { custom: String(custom) } : {}),
          seller: { merchant_id: 'BACKBEATEMU01', name: 'Backbeat (emulator)' },
        },
      ],
      reason: 'MERCHANDISE_OR_SERVICE_NOT_RECEIVED',
      status: 'OPEN',
      dispute_amount: amount,
      dispute_life_cycle_stage: 'CHARGEBACK',
      dispute_channel: 'INTERNAL',
      seller_response_due_date: this.ctx.iso(
        new Date(this.ctx.clock.now().getTime() + 10 * 24 * 3600 * 1000),
      ),
      links: [this.ctx.link(`/v1/customer/disputes/${id}`, 'self')],
    };
    this.ctx.store.meta(capture ? 'captures' : 'sales', transactionId).disputed = true;
    this.ctx.save('disputes', dispute);
    this.ctx.emit('CUSTOMER.DISPUTE.CREATED', this.view(dispute), 'A new dispute opened with Case # ' + id);
    return this.view(dispute);
  }

  /** PayPal decides: for the buyer (the money is reversed to them) or for the seller (nothing moves). */
  resolve(id: string, favour: 'buyer' | 'seller'): Obj {
    const dispute = this.ctx.get('disputes', id);
    if (dispute.status === 'RESOLVED')
      refuse(422, 'DISPUTE_ALREADY_RESOLVED', 'The dispute is already resolved.');
    const transactionId = (dispute.disputed_transactions as Array<{ seller_transaction_id: string }>)[0]!
      .seller_transaction_id;
    const isCapture = Boolean(this.ctx.find('captures', transactionId));
    const amount = dispute.dispute_amount as { currency_code: string; value: string };
    dispute.status = 'RESOLVED';
    dispute.update_time = this.ctx.iso();
    dispute.dispute_outcome =
      favour === 'buyer'
        ? { outcome_code: 'RESOLVED_BUYER_FAVOUR', amount_refunded: amount }
        : { outcome_code: 'RESOLVED_SELLER_FAVOUR' };
    this.ctx.save('disputes', dispute);
    this.ctx.store.meta(isCapture ? 'captures' : 'sales', transactionId).disputed = false;
    if (favour === 'buyer') {
      if (isCapture) this.orders.reverse(transactionId);
      else this.sales.reverseSale(transactionId);
    }
    this.ctx.emit(
      'CUSTOMER.DISPUTE.RESOLVED',
      this.view(dispute),
      `Dispute ${id} resolved in the ${favour}'s favour`,
    );
    return this.view(dispute);
  }

  /**
   * "List disputes": summaries, newest update first, filtered by `start_time` (created at or after),
   * `update_time_after` / `update_time_before` and `disputed_transaction_id`, in pages of `page_size` linked by
   * `next_page_token`.
   */
  list(input: {
    start_time?: string;
    update_time_after?: string;
    update_time_before?: string;
    disputed_transaction_id?: string;
    page_size?: number;
    next_page_token?: string;
  }): { items: Array<Record<string, unknown>>; links: Array<ReturnType<PaypalContext['link']>> } {
    const at = (value: unknown) => Date.parse(String(value));
    const matching = newestFirst(
      this.ctx.store
        .values<Obj>('disputes')
        .filter(
          (dispute) =>
            (!input.start_time || at(dispute.create_time) >= at(input.start_time)) &&
            (!input.update_time_after || at(dispute.update_time) > at(input.update_time_after)) &&
            (!input.update_time_before || at(dispute.update_time) < at(input.update_time_before)) &&
            (!input.disputed_transaction_id ||
              (dispute.disputed_transactions as Array<{ seller_transaction_id: string }>).some(
                (t) => t.seller_transaction_id === input.disputed_transaction_id,
              )),
        ),
      (dispute) => at(dispute.update_time),
    );
    const size = input.page_size ?? 10;
    const offset = Number(input.next_page_token ?? 0);
    const links = [this.ctx.link('/v1/customer/disputes', 'self')];
    if (offset + size < matching.length) {
      links.push(
        this.ctx.link(`/v1/customer/disputes?page_size=${size}&next_page_token=${offset + size}`, 'next'),
      );
    }
    return {
      items: matching.slice(offset, offset + size).map((dispute) => ({
        dispute_id: dispute.dispute_id,
        create_time: dispute.create_time,
        update_time: dispute.update_time,
        reason: dispute.reason,
        status: dispute.status,
        dispute_amount: dispute.dispute_amount,
        links: [this.ctx.link(`/v1/customer/disputes/${String(dispute.dispute_id)}`, 'self')],
      })),
      links,
    };
  }

  /** A dispute as PayPal shows it (its id is `dispute_id`). */
  view(dispute: Obj): Obj {
    const { id: _id, ...shown } = dispute;
    return shown as Obj;
  }
}
