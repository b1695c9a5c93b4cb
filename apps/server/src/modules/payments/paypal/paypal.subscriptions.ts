import type { Subscription } from '@paypal/paypal-server-sdk';
import {
  addMonths,
  SUBSCRIPTION_CYCLE_MONTHS,
  SUBSCRIPTION_CYCLES,
  type SubscriptionCycle,
} from '@backbeat/contract';
import type { PaymentsRepository } from '../payments.repository';
import { orderNotFound } from '../payments.service';
import type { PaypalTruth } from './paypal.events';
import { readSales } from './paypal.facts';
import { paypalFailure, paypalIssue, type PaypalGateway } from './paypal.gateway';

const PAID = new Set(['COMPLETED', 'PARTIALLY_REFUNDED', 'REFUNDED']);
const DAY_MS = 24 * 3600 * 1000;

/**
 * PayPal subscriptions as the ledger sees them: each payment is a sale with its own id (what refunds and disputes
 * name), read from the subscription's transaction list, paying for the period from its time to the next billing
 * time (or one cycle, for an older sale).
 */
export class PaypalSubscriptions {
  constructor(
    private readonly gateway: PaypalGateway,
    private readonly repo: PaymentsRepository,
    private readonly clock: () => Date,
  ) {}

  async fetch(id: string): Promise<Subscription> {
    try {
      const { result } = await this.gateway.subscriptions.getSubscription({ id });
      return result;
    } catch (error) {
      if (paypalIssue(error)?.status === 404) throw orderNotFound();
      throw paypalFailure(error);
    }
  }

  /** The subscription's sale `saleId` (or its latest paid one) as a payment with the period it pays for. */
  async saleTruth(subscriptionId: string, saleId: string | null): Promise<PaypalTruth> {
    const remote = await this.fetch(subscriptionId);
    const from = remote.createTime
      ? new Date(remote.createTime)
      : new Date(this.clock().getTime() - 400 * DAY_MS);
    const to = new Date(this.clock().getTime() + DAY_MS);
    const sales = readSales(
      await this.gateway.subscriptionTransactions(subscriptionId, new Date(from.getTime() - DAY_MS), to),
    )
      .filter((sale) => PAID.has(sale.status) && sale.saleId)
      .sort((a, b) => a.time.getTime() - b.time.getTime());
    const sale = saleId ? sales.find((candidate) => candidate.saleId === saleId) : sales.at(-1);
    const status = remote.status ?? '';
    if (!sale) return { kind: 'sale', subscriptionId, payment: null, status };
    const next = remote.billingInfo?.nextBillingTime;
    const latest = sales.at(-1) === sale;
    const periodEnd =
      latest && next ? new Date(next) : addMonths(sale.time, await this.cycleMonths(subscriptionId));
    return {
      kind: 'sale',
      subscriptionId,
      status,
      payment: {
        confirmation: {
          externalId: sale.saleId,
          status: 'succeeded',
          amount: sale.amount,
          currency: sale.currency.toUpperCase(),
          raw: { subscription: subscriptionId, sale: sale.saleId, paid_at: sale.time.toISOString() },
        },
        periodStart: sale.time,
        periodEnd,
      },
    };
  }

  private async cycleMonths(subscriptionId: string): Promise<number> {
    const row = await this.repo.subscriptions.findSubscriptionByExternal('paypal', subscriptionId);
    const cycle = row?.cycle ?? '1m';
    return (SUBSCRIPTION_CYCLES as readonly string[]).includes(cycle)
      ? SUBSCRIPTION_CYCLE_MONTHS[cycle as SubscriptionCycle]
      : 1;
  }
}
