import { addMonths } from '@backbeat/contract';
import { DAY_MS } from '../core/clock';
import type { Obj } from '../core/store';
import { paypalId, TEST_BUYERS, type Buyer, type PaypalContext } from './context';
import { refuse } from './dialect';

type Money = { currency_code: string; value: string };
/** PayPal retries a failed subscription payment daily and suspends after `payment_failure_threshold` (3) failures. */
const FAILURE_THRESHOLD = 3;

/** Catalog products, billing plans, subscriptions and their sales (v1), with sale refunds and reversals. */
export class PaypalBilling {
  constructor(private readonly ctx: PaypalContext) {}

  createProduct(values: { name: string; description?: string; type?: string; category?: string }): Obj {
    const id = `PROD-${paypalId(17)}`;
    return this.ctx.save('products', {
      id,
      name: values.name,
      ...(values.description ? { description: values.description } : {}),
      type: values.type ?? 'DIGITAL',
      ...(values.category ? { category: values.category } : {}),
      ...this.ctx.editable(`/v1/catalogs/products/${id}`),
    });
  }

  createPlan(values: {
    productId: string;
    name: string;
    billingCycles: unknown[];
    paymentPreferences?: object;
    description?: string;
  }): Obj {
    const id = `P-${paypalId(24)}`;
    return this.ctx.save('plans', {
      id,
      product_id: values.productId,
      name: values.name,
      status: 'ACTIVE',
      ...(values.description ? { description: values.description } : {}),
      billing_cycles: values.billingCycles,
      payment_preferences: {
        auto_bill_outstanding: true,
        setup_fee_failure_action: 'CANCEL',
        payment_failure_threshold: FAILURE_THRESHOLD,
        ...values.paymentPreferences,
      },
      quantity_supported: false,
      ...this.ctx.editable(`/v1/billing/plans/${id}`),
    });
  }

  createSubscription(values: {
    planId: string;
    customId?: string;
    returnUrl?: string;
    cancelUrl?: string;
  }): Obj {
    const id = `I-${paypalId(12)}`;
    const now = this.ctx.iso();
    const subscription: Obj = {
      id,
      plan_id: values.planId,
      status: 'APPROVAL_PENDING',
      ...(values.customId ? { custom_id: values.customId } : {}),
      quantity: '1',
      plan_overridden: false,
      create_time: now,
      status_update_time: now,
      links: [
        this.ctx.link(
          `/webapps/billing/subscriptions?ba_token=BA-${paypalId(17)}&subscription_id=${id}`,
          'approve',
        ),
        this.ctx.link(`/v1/billing/subscriptions/${id}`, 'edit', 'PATCH'),
        this.ctx.link(`/v1/billing/subscriptions/${id}`, 'self'),
      ],
    };
    Object.assign(this.ctx.store.meta('subscriptions', id), {
      returnUrl: values.returnUrl,
      cancelUrl: values.cancelUrl,
    });
    this.ctx.save('subscriptions', subscription);
    this.ctx.emit('BILLING.SUBSCRIPTION.CREATED', subscription, 'Subscription created');
    return subscription;
  }

  price(subscription: Obj): Money & { months: number } {
    const plan = this.ctx.get('plans', String(subscription.plan_id));
    const cycle = (plan.billing_cycles as Array<Record<string, unknown>>)[0]!;
    const price = (cycle.pricing_scheme as { fixed_price: Money }).fixed_price;
    const frequency = cycle.frequency as { interval_count?: number };
    return {
      currency_code: price.currency_code,
      value: price.value,
      months: Number(frequency.interval_count ?? 1),
    };
  }

  approve(id: string, buyer: Buyer): Obj {
    const subscription = this.ctx.get('subscriptions', id);
    if (subscription.status !== 'APPROVAL_PENDING')
      refuse(422, 'SUBSCRIPTION_STATUS_INVALID', 'This subscription cannot be approved.');
    if (buyer === 'declined')
      refuse(
        422,
        'INSTRUMENT_DECLINED',
        'The instrument presented was either declined by the processor or bank.',
      );
    const payer = TEST_BUYERS[buyer];
    subscription.subscriber = {
      payer_id: payer.payer_id,
      email_address: payer.email_address,
      name: payer.name,
    };
    subscription.start_time = this.ctx.iso();
    subscription.status = 'ACTIVE';
    subscription.status_update_time = this.ctx.iso();
    this.ctx.save('subscriptions', subscription);
    this.ctx.emit('BILLING.SUBSCRIPTION.ACTIVATED', subscription, 'Subscription activated');
    this.sale(subscription);
    return subscription;
  }

  /** A subscription payment (a v1 sale) for the next cycle: it moves the billing info forward. */
  sale(subscription: Obj): Obj {
    const price = this.price(subscription);
    const meta = this.ctx.store.meta('subscriptions', subscription.id) as {
      nextBilling?: string;
      cycles?: number;
      failures?: number;
    };
    const paidAt = this.ctx.clock.now();
    const start = meta.nextBilling ? new Date(meta.nextBilling) : paidAt;
    const next = addMonths(start < paidAt ? paidAt : start, price.months);
    const now = this.ctx.iso(paidAt);
    const id = paypalId(17);
    const sale: Obj = {
      id,
      state: 'completed',
      amount: { total: price.value, currency: price.currency_code, details: { subtotal: price.value } },
      payment_mode: 'INSTANT_TRANSFER',
      protection_eligibility: 'ELIGIBLE',
      protection_eligibility_type: 'ITEM_NOT_RECEIVED_ELIGIBLE,UNAUTHORIZED_PAYMENT_ELIGIBLE',
      transaction_fee: { value: '0.00', currency: price.currency_code },
      billing_agreement_id: subscription.id,
      ...(subscription.custom_id ? { custom: subscription.custom_id } : {}),
      create_time: now,
      update_time: now,
      links: [
        this.ctx.link(`/v1/payments/sale/${id}`, 'self'),
        this.ctx.link(`/v1/payments/sale/${id}/refund`, 'refund', 'POST'),
      ],
    };
    this.ctx.save('sales', sale);
    this.transaction(subscription, { id, status: 'COMPLETED', amount: price, time: now });
    meta.cycles = (meta.cycles ?? 0) + 1;
    meta.failures = 0;
    meta.nextBilling = next.toISOString();
    subscription.status = 'ACTIVE';
    subscription.billing_info = {
      outstanding_balance: { currency_code: price.currency_code, value: '0.00' },
      cycle_executions: [
        {
          tenure_type: 'REGULAR',
          sequence: 1,
          cycles_completed: meta.cycles,
          cycles_remaining: 0,
          current_pricing_scheme_version: 1,
          total_cycles: 0,
        },
      ],
      last_payment: { amount: { currency_code: price.currency_code, value: price.value }, time: now },
      next_billing_time: this.ctx.iso(next),
      failed_payments_count: 0,
    };
    subscription.update_time = now;
    this.ctx.save('subscriptions', subscription);
    this.ctx.record(
      'T0002',
      id,
      { id: subscription.id, type: 'SUB' },
      { currency_code: price.currency_code, value: price.value },
      subscription.custom_id,
    );
    this.ctx.emit(
      'PAYMENT.SALE.COMPLETED',
      sale,
      `Payment completed for ${price.value} ${price.currency_code}`,
    );
    return sale;
  }

  /** The next billing of an active subscription: paid (a sale) or failed (then suspended after 3 failures). */
  bill(subscription: Obj, forced?: 'paid' | 'failed'): void {
    const meta = this.ctx.store.meta('subscriptions', subscription.id) as {
      failures?: number;
      retryAt?: string;
      failCharges?: boolean;
    };
    if (!(forced === 'failed' || (forced === undefined && meta.failCharges === true))) {
      this.sale(subscription);
      return;
    }
    meta.failures = (meta.failures ?? 0) + 1;
    const price = this.price(subscription);
    const now = this.ctx.iso();
    const info = (subscription.billing_info ?? {}) as Record<string, unknown>;
    info.failed_payments_count = meta.failures;
    info.last_failed_payment = {
      amount: { currency_code: price.currency_code, value: price.value },
      time: now,
      reason_code: 'PAYMENT_DENIED',
    };
    subscription.billing_info = info;
    meta.retryAt = new Date(this.ctx.clock.now().getTime() + DAY_MS).toISOString();
    this.transaction(subscription, { id: paypalId(17), status: 'DECLINED', amount: price, time: now });
    this.ctx.save('subscriptions', subscription);
    this.ctx.emit('BILLING.SUBSCRIPTION.PAYMENT.FAILED', subscription, 'Subscription payment failed');
    if (meta.failures >= FAILURE_THRESHOLD) {
      Object.assign(subscription, { status: 'SUSPENDED', status_update_time: now });
      this.ctx.save('subscriptions', subscription);
      this.ctx.emit('BILLING.SUBSCRIPTION.SUSPENDED', subscription, 'Subscription suspended');
    }
  }

  async processDue(): Promise<void> {
    const now = this.ctx.clock.now();
    for (let pass = 0; pass < 1000; pass += 1) {
      let acted = false;
      for (const subscription of this.ctx.store.values<Obj>('subscriptions')) {
        const meta = this.ctx.store.meta('subscriptions', subscription.id) as {
          failures?: number;
          retryAt?: string;
          nextBilling?: string;
        };
        if (subscription.status !== 'ACTIVE' || !meta.nextBilling) continue;
        const due = (meta.failures ?? 0) > 0 ? meta.retryAt! : meta.nextBilling;
        if (new Date(due) <= now) {
          this.bill(subscription);
          acted = true;
        }
      }
      if (!acted) break;
    }
  }

  cancel(id: string, reason = 'Cancelled'): Obj {
    const subscription = this.ctx.get('subscriptions', id);
    if (subscription.status !== 'ACTIVE' && subscription.status !== 'SUSPENDED') {
      refuse(
        422,
        'SUBSCRIPTION_STATUS_INVALID',
        'Invalid subscription status for cancel action; subscription status should be active or suspended.',
      );
    }
    Object.assign(subscription, {
      status: 'CANCELLED',
      status_change_note: reason,
      status_update_time: this.ctx.iso(),
    });
    this.ctx.save('subscriptions', subscription);
    this.ctx.emit('BILLING.SUBSCRIPTION.CANCELLED', subscription, 'Subscription cancelled');
    return subscription;
  }

  /** The subscription's payments as `GET /v1/billing/subscriptions/{id}/transactions` lists them. */
  transactions(subscription: Obj, from: Date, to: Date): Obj[] {
    const lines =
      (this.ctx.store.meta('subscriptions', subscription.id).transactions as Obj[] | undefined) ?? [];
    return lines.filter((line) => new Date(String(line.time)) >= from && new Date(String(line.time)) <= to);
  }

  private transaction(
    subscription: Obj,
    values: { id: string; status: string; amount: Money; time: string },
  ): void {
    const meta = this.ctx.store.meta('subscriptions', subscription.id) as { transactions?: Obj[] };
    const subscriber = subscription.subscriber as
      { email_address: string; name: { given_name: string; surname: string } } | undefined;
    const zero = { currency_code: values.amount.currency_code, value: '0.00' };
    const gross = { currency_code: values.amount.currency_code, value: values.amount.value };
    (meta.transactions ??= []).push({
      id: values.id,
      status: values.status,
      amount_with_breakdown: { gross_amount: gross, fee_amount: zero, net_amount: gross },
      ...(subscriber ? { payer_name: subscriber.name, payer_email: subscriber.email_address } : {}),
      time: values.time,
    });
    this.ctx.store.changed();
  }

  restateTransaction(subscription: Obj, saleId: string, status: string): void {
    const lines =
      (this.ctx.store.meta('subscriptions', subscription.id).transactions as Obj[] | undefined) ?? [];
    const line = lines.find((entry) => entry.id === saleId);
    if (line) line.status = status;
    this.ctx.store.changed();
  }
}
