import { addMonths } from '@backbeat/contract';
import type { Obj } from '../core/store';
import type { StripeContext } from './context';
import { invalidRequest } from './dialect';
import { invoiceObject, invoicePaymentObject, subscriptionObject } from './billing-objects';
import type { StripePayments } from './payments';

const DAY = 24 * 3600;
/** Stripe's default Smart Retries here: every 2 days, the subscription ends after 4 failed attempts. */
const RETRY_EVERY = 2 * DAY;
const MAX_ATTEMPTS = 4;
const INCOMPLETE_EXPIRES = 23 * 3600;

const firstItem = (subscription: Obj) => (subscription.items as { data: Obj[] }).data[0]!;
const monthsOf = (price: Obj) =>
  Number((price.recurring as { interval_count?: number } | null)?.interval_count ?? 1);
const periodEnd = (start: number, months: number) =>
  Math.floor(addMonths(new Date(start * 1000), months).getTime() / 1000);

/** Subscriptions and their invoices, renewed on the emulator's clock with Stripe's dunning. */
export class StripeBilling {
  constructor(
    private readonly ctx: StripeContext,
    private readonly payments: StripePayments,
  ) {
    payments.onSucceeded = (intent) => {
      const invoice = this.ctx.store.meta('payment_intents', intent.id).invoice;
      if (typeof invoice === 'string') this.invoicePaid(invoice);
    };
    ctx.includables.set('invoice.payments', (invoice) => ({
      object: 'list',
      data: [this.paymentOf(invoice)],
      has_more: false,
      url: `/v1/invoices/${invoice.id}/payments`,
    }));
    ctx.includables.set('invoice.confirmation_secret', (invoice) => {
      const intent = this.intentOf(invoice);
      return { client_secret: intent.client_secret, type: 'payment_intent' };
    });
  }

  createSubscription(values: {
    customer: Obj;
    price: Obj;
    paymentMethod: string | null;
    metadata: object;
  }): Obj {
    if (!values.price.recurring) {
      invalidRequest(
        `The price specified is set to \`type=one_time\` but this field only accepts prices with \`type=recurring\`.`,
        {
          param: 'items[0][price]',
        },
      );
    }
    const now = this.ctx.now();
    const subscription = subscriptionObject(now, {
      customer: values.customer.id,
      price: values.price,
      start: now,
      end: periodEnd(now, monthsOf(values.price)),
      paymentMethod: values.paymentMethod,
      metadata: values.metadata,
    });
    this.ctx.save('subscriptions', subscription);
    this.ctx.emit('customer.subscription.created', subscription);
    const item = firstItem(subscription);
    this.createInvoice(
      subscription,
      'subscription_create',
      Number(item.current_period_start),
      Number(item.current_period_end),
    );
    return this.ctx.retrieve('subscriptions', 'subscription', subscription.id);
  }

  update(
    subscription: Obj,
    values: { cancelAtPeriodEnd?: boolean; paymentMethod?: string; metadata?: object },
  ): Obj {
    if (subscription.status === 'canceled') {
      invalidRequest('A canceled subscription can only update its cancellation_details and metadata.');
    }
    const previous: Record<string, unknown> = {};
    if (
      values.cancelAtPeriodEnd !== undefined &&
      values.cancelAtPeriodEnd !== subscription.cancel_at_period_end
    ) {
      previous.cancel_at_period_end = subscription.cancel_at_period_end;
      previous.cancel_at = subscription.cancel_at;
      previous.canceled_at = subscription.canceled_at;
      subscription.cancel_at_period_end = values.cancelAtPeriodEnd;
      subscription.cancel_at = values.cancelAtPeriodEnd ? firstItem(subscription).current_period_end : null;
      subscription.canceled_at = values.cancelAtPeriodEnd ? this.ctx.now() : null;
      (subscription.cancellation_details as Record<string, unknown>).reason = values.cancelAtPeriodEnd
        ? 'cancellation_requested'
        : null;
    }
    if (values.paymentMethod) {
      this.ctx.retrieve('payment_methods', 'PaymentMethod', values.paymentMethod, 'default_payment_method');
      previous.default_payment_method = subscription.default_payment_method;
      subscription.default_payment_method = values.paymentMethod;
    }
    if (values.metadata) {
      previous.metadata = subscription.metadata;
      subscription.metadata = { ...(subscription.metadata as object), ...values.metadata };
    }
    this.ctx.save('subscriptions', subscription);
    this.ctx.emit('customer.subscription.updated', subscription, previous);
    return subscription;
  }

  cancel(subscription: Obj, reason = 'cancellation_requested'): Obj {
    if (subscription.status === 'canceled') return subscription;
    subscription.status = 'canceled';
    subscription.canceled_at = subscription.canceled_at ?? this.ctx.now();
    subscription.ended_at = this.ctx.now();
    (subscription.cancellation_details as Record<string, unknown>).reason = reason;
    this.ctx.save('subscriptions', subscription);
    this.ctx.emit('customer.subscription.deleted', subscription);
    return subscription;
  }

  /** Charges the renewal of a subscription now (the clock reached its period end, or a control route asked). */
  renew(subscription: Obj, forced?: 'paid' | 'failed'): Obj {
    const item = firstItem(subscription);
    const start = Number(item.current_period_end);
    const end = periodEnd(start, monthsOf(item.price as Obj));
    const invoice = this.createInvoice(subscription, 'subscription_cycle', start, end);
    const intent = this.intentOf(invoice);
    intent.payment_method = subscription.default_payment_method ?? null;
    const result = this.payments.attemptCharge(intent, { offSession: true, forced });
    if ('error' in result) this.invoiceFailed(invoice, subscription);
    return this.ctx.retrieve('invoices', 'invoice', invoice.id);
  }

  /** Renewals, retries and scheduled cancellations due at the emulator's time. */
  async processDue(): Promise<void> {
    const now = this.ctx.now();
    for (let pass = 0; pass < 1000; pass += 1) {
      let acted = false;
      for (const subscription of this.ctx.store.values<Obj>('subscriptions')) {
        const status = subscription.status;
        if (status === 'incomplete' && Number(subscription.created) + INCOMPLETE_EXPIRES <= now) {
          this.expireIncomplete(subscription);
          acted = true;
          continue;
        }
        if (status !== 'active' && status !== 'past_due') continue;
        if (status === 'active' && Number(firstItem(subscription).current_period_end) <= now) {
          if (subscription.cancel_at_period_end) this.cancel(subscription);
          else this.renew(subscription);
          acted = true;
        } else if (status === 'past_due') {
          const invoice = this.ctx.find('invoices', subscription.latest_invoice as string);
          if (!invoice || invoice.status === 'paid') continue;
          if (Number(invoice.next_payment_attempt ?? Infinity) > now) continue;
          if (Number(invoice.attempt_count) >= MAX_ATTEMPTS) {
            invoice.status = 'uncollectible';
            invoice.next_payment_attempt = null;
            (invoice.status_transitions as Record<string, unknown>).marked_uncollectible_at = now;
            this.ctx.save('invoices', invoice);
            this.ctx.emit('invoice.marked_uncollectible', invoice);
            this.cancel(subscription, 'payment_failed');
          } else {
            const result = this.payments.attemptCharge(this.intentOf(invoice), { offSession: true });
            if ('error' in result) this.invoiceFailed(invoice, subscription);
          }
          acted = true;
        }
      }
      if (!acted) break;
    }
  }

  /** Stripe ends a subscription whose first invoice stays unpaid for 23 hours: `incomplete_expired`. */
  private expireIncomplete(subscription: Obj): void {
    const invoice = this.ctx.find('invoices', subscription.latest_invoice as string);
    if (invoice && invoice.status === 'open') {
      invoice.status = 'void';
      (invoice.status_transitions as Record<string, unknown>).voided_at = this.ctx.now();
      this.ctx.save('invoices', invoice);
      this.ctx.emit('invoice.voided', invoice);
      const intent = this.intentOf(invoice);
      if (intent.status !== 'succeeded' && intent.status !== 'canceled') {
        Object.assign(intent, {
          status: 'canceled',
          canceled_at: this.ctx.now(),
          cancellation_reason: 'void_invoice',
          next_action: null,
        });
        this.ctx.save('payment_intents', intent);
        this.ctx.emit('payment_intent.canceled', intent);
      }
    }
    const previous = { status: subscription.status };
    subscription.status = 'incomplete_expired';
    subscription.ended_at = this.ctx.now();
    this.ctx.save('subscriptions', subscription);
    this.ctx.emit('customer.subscription.updated', subscription, previous);
    this.ctx.emit('customer.subscription.deleted', subscription);
  }

  intentOf(invoice: Obj): Obj {
    return this.ctx.retrieve(
      'payment_intents',
      'payment_intent',
      this.ctx.store.meta('invoices', invoice.id).intent as string,
    );
  }

  private paymentOf(invoice: Obj): Obj {
    return this.ctx.retrieve(
      'invoice_payments',
      'invoice_payment',
      this.ctx.store.meta('invoices', invoice.id).payment as string,
    );
  }

  private createInvoice(subscription: Obj, reason: string, start: number, end: number): Obj {
    const price = firstItem(subscription).price as Obj;
    const customer = this.ctx.find('customers', subscription.customer as string);
    const intent = this.payments.createIntent(
      {
        amount: Number(price.unit_amount),
        currency: String(price.currency),
        customer: subscription.customer as string,
        description: `Subscription ${reason === 'subscription_create' ? 'creation' : 'update'}`,
        paymentMethod: (subscription.default_payment_method as string | null) ?? null,
        setupFutureUsage: 'off_session',
      },
      false,
    );
    let number = `EMU-${String(this.ctx.store.values('invoices').length + 1).padStart(4, '0')}`;
    if (customer) {
      const sequence = Number(customer.next_invoice_sequence ?? 1);
      number = `${String(customer.invoice_prefix)}-${String(sequence).padStart(4, '0')}`;
      customer.next_invoice_sequence = sequence + 1;
      this.ctx.save('customers', customer);
    }
    const invoice = invoiceObject(this.ctx.now(), {
      subscription,
      price,
      customer,
      reason,
      start,
      end,
      number,
      intent,
    });
    const payment = invoicePaymentObject(this.ctx.now(), invoice, intent);
    this.ctx.save('invoice_payments', payment);
    Object.assign(this.ctx.store.meta('invoices', invoice.id), { intent: intent.id, payment: payment.id });
    this.ctx.store.meta('payment_intents', intent.id).invoice = invoice.id;
    this.ctx.save('invoices', invoice);
    subscription.latest_invoice = invoice.id;
    this.ctx.save('subscriptions', subscription);
    this.ctx.emit('invoice.created', invoice);
    this.ctx.emit('invoice.finalized', invoice);
    return invoice;
  }

  /** An invoice's intent succeeded: the invoice is paid and its subscription runs for the invoiced period. */
  private invoicePaid(invoiceId: string): void {
    const invoice = this.ctx.find('invoices', invoiceId);
    if (!invoice || invoice.status === 'paid') return;
    const now = this.ctx.now();
    invoice.status = 'paid';
    invoice.amount_paid = invoice.amount_due;
    invoice.amount_remaining = 0;
    invoice.attempted = true;
    invoice.attempt_count = Number(invoice.attempt_count) + 1;
    invoice.next_payment_attempt = null;
    (invoice.status_transitions as Record<string, unknown>).paid_at = now;
    this.ctx.save('invoices', invoice);
    const payment = this.paymentOf(invoice);
    payment.status = 'paid';
    payment.amount_paid = invoice.amount_due;
    (payment.status_transitions as Record<string, unknown>).paid_at = now;
    this.ctx.save('invoice_payments', payment);
    const subscriptionId = (invoice.parent as { subscription_details: { subscription: string } })
      .subscription_details.subscription;
    const subscription = this.ctx.find('subscriptions', subscriptionId);
    if (!subscription) return;
    const previous = { status: subscription.status };
    const item = firstItem(subscription);
    item.current_period_start = invoice.period_start;
    item.current_period_end = invoice.period_end;
    if (subscription.cancel_at_period_end) subscription.cancel_at = invoice.period_end;
    subscription.status = 'active';
    this.ctx.save('subscriptions', subscription);
    this.ctx.emit('invoice.paid', invoice);
    this.ctx.emit('invoice.payment_succeeded', invoice);
    this.ctx.emit('customer.subscription.updated', subscription, previous);
  }

  private invoiceFailed(invoice: Obj, subscription: Obj): void {
    invoice.attempt_count = Number(invoice.attempt_count ?? 0) + 1;
    invoice.attempted = true;
    invoice.next_payment_attempt = this.ctx.now() + RETRY_EVERY;
    this.ctx.save('invoices', invoice);
    this.ctx.emit('invoice.payment_failed', invoice);
    if (invoice.billing_reason !== 'subscription_create' && subscription.status !== 'past_due') {
      const previous = { status: subscription.status };
      subscription.status = 'past_due';
      this.ctx.save('subscriptions', subscription);
      this.ctx.emit('customer.subscription.updated', subscription, previous);
    }
  }
}
