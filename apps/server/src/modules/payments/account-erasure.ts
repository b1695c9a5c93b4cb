import { and, eq, inArray, isNotNull, isNull, or, sql, type AnyColumn } from 'drizzle-orm';
import type { AppDb } from '../../db/client';
import { orders, paymentCustomers, paymentEvents, payments, refunds, subscriptions } from '../../db/schema';
import type { ErasedAccount, ErasureStep } from '../../platform/account-erasure';
import type { GatewayRegistry } from './payment-gateway';
import { anonymisePayload } from './personal-data';

/** The payment tables' share of a deleted account: its gateway customers, and the payloads that name it. */
export class PaymentAccountData {
  constructor(private readonly db: AppDb) {}

  /** Gateway subscriptions that would charge again: a deleted account must not be billed. */
  renewingSubscriptionsOf(userId: string) {
    return this.db
      .select()
      .from(subscriptions)
      .where(
        and(
          eq(subscriptions.userId, userId),
          isNotNull(subscriptions.externalId),
          inArray(subscriptions.status, ['active', 'past_due', 'pending']),
          eq(subscriptions.cancelAtPeriodEnd, false),
        ),
      );
  }

  customersOf(userId: string) {
    return this.db
      .select({ gateway: paymentCustomers.gateway, externalId: paymentCustomers.externalId })
      .from(paymentCustomers)
      .where(eq(paymentCustomers.userId, userId));
  }

  /**
   * Rewrites every stored gateway payload that holds the account's id or e-mail: webhook events about its orders
   * (or about no known order), and the raw confirmations and refunds of its orders. One transaction.
   */
  async anonymise(account: ErasedAccount): Promise<number> {
    return this.db.transaction(async (tx) => {
      const theirs = tx.select({ id: orders.id }).from(orders).where(eq(orders.userId, account.id));
      const mentions = (column: AnyColumn) =>
        or(
          sql`${column}::text like ${`%${account.id}%`}`,
          sql`lower(${column}::text) like ${`%${account.email.toLowerCase()}%`}`,
        );
      let rewritten = 0;
      const events = await tx
        .select({ id: paymentEvents.id, payload: paymentEvents.payload })
        .from(paymentEvents)
        .where(
          and(
            or(inArray(paymentEvents.orderId, theirs), isNull(paymentEvents.orderId)),
            mentions(paymentEvents.payload),
          ),
        );
      for (const event of events) {
        await tx
          .update(paymentEvents)
          .set({ payload: anonymisePayload(event.payload, account) })
          .where(eq(paymentEvents.id, event.id));
        rewritten += 1;
      }
      for (const table of [payments, refunds]) {
        const rows = await tx
          .select({ id: table.id, raw: table.raw })
          .from(table)
          .where(and(inArray(table.orderId, theirs), mentions(table.raw)));
        for (const row of rows) {
          await tx
            .update(table)
            .set({ raw: anonymisePayload(row.raw, account) })
            .where(eq(table.id, row.id));
          rewritten += 1;
        }
      }
      return rewritten;
    });
  }
}

/**
 * The payments module's part of deleting an account: its gateway subscriptions stop renewing (the data-deletion page
 * promises no further payments), its customer at each gateway is deleted there (Stripe keeps the e-mail, name,
 * address and cards), then its id and e-mail leave the stored payloads. Orders and payments keep
 * amounts, dates, items and gateway ids, which accounting law requires (the privacy page says so). A gateway that
 * is no longer configured cannot be asked: that is logged, not a reason to keep the account.
 */
export function paymentAccountErasure(
  data: PaymentAccountData,
  gateways: GatewayRegistry,
  log: { warn(entry: object, message: string): void },
): ErasureStep {
  return async (account) => {
    // No more charges: each renewing gateway subscription is stopped first (Stripe's also end with its customer).
    for (const subscription of await data.renewingSubscriptionsOf(account.id)) {
      if (gateways.has(subscription.gateway))
        await gateways.get(subscription.gateway).cancelSubscription(subscription);
    }
    for (const customer of await data.customersOf(account.id)) {
      if (!gateways.has(customer.gateway)) {
        log.warn(
          { gateway: customer.gateway, customer: customer.externalId },
          'a deleted account has a customer at a gateway that is not configured: delete it there by hand',
        );
        continue;
      }
      await gateways.get(customer.gateway).deleteCustomer?.(customer.externalId);
    }
    await data.anonymise(account);
  };
}
