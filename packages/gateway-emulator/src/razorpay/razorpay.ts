/**
 * Over 400 lines on purpose: Razorpay's account state and every change it goes through (orders paid, captured,
 * refunded, disputed; subscriptions charged on the clock, cancelled; the events each change emits) in one place, so
 * the routes (routes.ts) and controls stay thin.
 */
import { addMonths } from '@backbeat/contract';
import { DAY_MS, type Clock } from '../core/clock';
import { controlRoutes } from '../core/control';
import { ProviderState } from '../core/provider';
import { Router } from '../core/router';
import { randomId, type Obj, type Store } from '../core/store';
import type { WebhookDispatcher } from '../core/webhooks';
import { checkoutRoutes } from './checkout';
import {
  notFound,
  razorpayCheckoutSignature,
  RazorpayDialect,
  razorpayWebhookSignature,
  refuse,
  type RazorpayCredentials,
} from './dialect';
import {
  DISPUTE_STATES,
  disputeObject,
  invoiceObject,
  orderObject,
  PAYMENT_STATES,
  paymentObject,
  refundObject,
  type PaymentError,
} from './objects';
import { razorpayControl, razorpayRoutes } from './routes';

/** Razorpay refunds a payment that stays authorized (never captured) for five days. */
const AUTO_REFUND_AFTER_SECONDS = (5 * DAY_MS) / 1000;

export interface RazorpaySettings {
  /** The dashboard's "automatic capture" setting: off (the default) leaves payments `authorized` until captured. */
  autoCapture: boolean;
}

/**
 * Razorpay's REST API (orders, payments with capture, refunds, plans, subscriptions, disputes) with state, its
 * Checkout as a test page, and webhooks signed as Razorpay signs them. Subscription charges follow the clock.
 */
export class RazorpayEmulator extends ProviderState {
  readonly router: Router;

  constructor(
    readonly credentials: RazorpayCredentials,
    store: Store,
    clock: Clock,
    private readonly webhooks: WebhookDispatcher,
    readonly settings: RazorpaySettings = { autoCapture: false },
  ) {
    super(store, clock);
    this.router = new Router(new RazorpayDialect(credentials))
      .add(...razorpayRoutes(this))
      .add(...checkoutRoutes(this))
      .add(...razorpayControl(this))
      .add(...controlRoutes('razorpay', clock, webhooks));
    clock.onAdvance(() => this.processDue());
  }

  now(): number {
    return this.clock.nowSeconds();
  }

  protected missing(): never {
    return notFound();
  }

  setAutoCapture(on: boolean): void {
    this.settings.autoCapture = on;
  }

  /** Sends an event whose payload carries snapshots of the named entities. */
  emit(event: string, entities: Record<string, Obj>): void {
    const body = JSON.stringify({
      entity: 'event',
      account_id: 'acc_BackbeatEmulator',
      event,
      contains: Object.keys(entities),
      payload: Object.fromEntries(
        Object.entries(entities).map(([name, entity]) => [name, { entity: structuredClone(entity) }]),
      ),
      created_at: this.now(),
    });
    const eventId = randomId('evt_', 14);
    this.webhooks.send('razorpay', eventId, event, body, () => ({
      'x-razorpay-signature': razorpayWebhookSignature(body, this.credentials.webhookSecret),
      'x-razorpay-event-id': eventId,
    }));
  }

  createOrder(values: { amount: number; currency: string; receipt: string | null; notes: object }): Obj {
    return this.save('orders', orderObject(this.now(), values));
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Checkout: a buyer pays an order (authorized; captured at once only with automatic capture)

  payOrder(order: Obj, failure: PaymentError | undefined, email?: string) {
    if (order.status === 'paid') refuse('Order already paid', { field: 'order_id' });
    const payment = this.save(
      'payments',
      paymentObject(this.now(), {
        amount: Number(order.amount),
        currency: String(order.currency),
        orderId: order.id,
        error: failure,
        email,
      }),
    );
    order.attempts = Number(order.attempts) + 1;
    order.status = order.status === 'created' ? 'attempted' : order.status;
    this.save('orders', order);
    if (failure) {
      this.emit('payment.failed', { payment });
      return { payment, failure };
    }
    this.emit('payment.authorized', { payment });
    if (this.settings.autoCapture) this.capture(payment, Number(payment.amount), String(payment.currency));
    return {
      payment,
      response: {
        razorpay_payment_id: payment.id,
        razorpay_order_id: order.id,
        razorpay_signature: razorpayCheckoutSignature(
          { orderId: order.id, paymentId: payment.id },
          this.credentials.keySecret,
        ),
      },
    };
  }

  /** Captures an authorized payment for exactly its amount, once; its order becomes paid (`order.paid`). */
  capture(payment: Obj, amount: number, currency: string): Obj {
    if (payment.status === 'captured' || payment.captured === true)
      refuse('This payment has already been captured', { field: 'payment_id' });
    if (payment.status !== 'authorized') {
      refuse('Only payments which have been authorized and not yet captured can be captured', {
        field: 'payment_id',
      });
    }
    if (currency !== payment.currency)
      refuse('Currency should be same as payment currency', { field: 'currency' });
    if (amount !== payment.amount)
      refuse('Capture amount must be equal to the amount authorized', { field: 'amount' });
    PAYMENT_STATES.move(payment, 'captured', () => notFound());
    payment.captured = true;
    payment.fee = Math.round(amount * 0.02);
    payment.tax = Math.round(Number(payment.fee) * 0.18);
    this.save('payments', payment);
    this.emit('payment.captured', { payment });
    const order = this.find('orders', payment.order_id as string);
    if (order && order.status !== 'paid') {
      Object.assign(order, { status: 'paid', amount_paid: order.amount, amount_due: 0 });
      this.save('orders', order);
      this.emit('order.paid', { payment, order });
    }
    return payment;
  }

  refund(
    payment: Obj,
    values: { amount?: number; notes?: object; receipt?: string; speed?: string },
    automatic = false,
  ): Obj {
    if (payment.status !== 'captured' && !automatic) {
      refuse(
        payment.status === 'refunded'
          ? 'The payment has been fully refunded already'
          : 'The payment has not been captured',
        {
          field: 'payment_id',
        },
      );
    }
    const remaining = Number(payment.amount) - Number(payment.amount_refunded);
    const amount = values.amount ?? remaining;
    if (amount <= 0) refuse('The amount must be at least 100.', { field: 'amount' });
    if (amount > remaining)
      refuse('The refund amount provided is greater than amount captured', { field: 'amount' });
    const refund = this.save(
      'refunds',
      refundObject(this.now(), payment, {
        amount,
        notes: values.notes ?? {},
        receipt: values.receipt ?? null,
        speed: values.speed ?? 'normal',
      }),
    );
    payment.amount_refunded = Number(payment.amount_refunded) + amount;
    payment.refund_status = payment.amount_refunded === payment.amount ? 'full' : 'partial';
    if (payment.refund_status === 'full') payment.status = 'refunded';
    this.save('payments', payment);
    this.emit('refund.created', { refund, payment });
    this.emit('refund.processed', { refund, payment });
    if (!automatic) this.emit('payment.refunded', { payment, refund });
    return refund;
  }

  openDispute(payment: Obj): Obj {
    if (payment.status !== 'captured' && payment.status !== 'refunded')
      refuse('Only captured payments can be disputed');
    const dispute = this.save('disputes', disputeObject(this.now(), payment));
    this.emit('payment.dispute.created', { payment, dispute });
    return dispute;
  }

  /** The bank decides a dispute: `payment.dispute.won` or `.lost` (the amount is deducted), then `.closed`. */
  closeDispute(dispute: Obj, outcome: 'won' | 'lost'): Obj {
    DISPUTE_STATES.move(dispute, outcome, (from) => refuse(`The dispute is already ${from}`));
    if (outcome === 'lost') dispute.amount_deducted = dispute.amount;
    this.save('disputes', dispute);
    const payment = this.get('payments', String(dispute.payment_id));
    this.emit(`payment.dispute.${outcome}`, { payment, dispute });
    this.emit('payment.dispute.closed', { payment, dispute });
    return dispute;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Subscriptions: the first charge at checkout, then one per cycle on the clock (always captured)

  paySubscription(subscription: Obj, failure: PaymentError | undefined, email?: string) {
    if (subscription.status !== 'created') refuse(`Subscription is ${String(subscription.status)}`);
    const plan = this.get('plans', String(subscription.plan_id));
    if (failure) {
      const payment = this.subscriptionPayment(subscription, plan, failure, email);
      this.emit('payment.failed', { payment });
      return { payment, failure };
    }
    const start = this.now();
    const end = Math.floor(addMonths(new Date(start * 1000), Number(plan.interval)).getTime() / 1000);
    const payment = this.subscriptionPayment(subscription, plan, undefined, email, { start, end });
    Object.assign(subscription, {
      status: 'active',
      payment_method: 'card',
      current_start: start,
      current_end: end,
      charge_at: end,
      start_at: start,
      paid_count: 1,
      remaining_count: Number(subscription.total_count) - 1,
      auth_attempts: 0,
    });
    this.save('subscriptions', subscription);
    this.emit('subscription.authenticated', { subscription });
    this.emit('payment.authorized', { payment: { ...payment, status: 'authorized', captured: false } });
    this.emit('payment.captured', { payment });
    this.emit('subscription.activated', { subscription });
    this.emit('subscription.charged', { subscription, payment });
    return {
      payment,
      response: {
        razorpay_payment_id: payment.id,
        razorpay_subscription_id: subscription.id,
        razorpay_signature: razorpayCheckoutSignature(
          { subscriptionId: subscription.id, paymentId: payment.id },
          this.credentials.keySecret,
        ),
      },
    };
  }

  /** One subscription charge at its charge time: paid moves the period, failed makes it pending, then halted. */
  charge(subscription: Obj, forced?: 'paid' | 'failed'): void {
    const plan = this.get('plans', String(subscription.plan_id));
    const meta = this.store.meta('subscriptions', subscription.id);
    if (forced === 'failed' || (forced === undefined && meta.failCharges === true)) {
      const payment = this.subscriptionPayment(subscription, plan, {
        code: 'BAD_REQUEST_ERROR',
        description: 'Payment failed',
        reason: 'payment_failed',
        source: 'bank',
        step: 'payment_authorization',
      });
      subscription.auth_attempts = Number(subscription.auth_attempts ?? 0) + 1;
      this.emit('payment.failed', { payment });
      if (Number(subscription.auth_attempts) >= 4) {
        subscription.status = 'halted';
        this.save('subscriptions', subscription);
        this.emit('subscription.halted', { subscription });
      } else {
        subscription.status = 'pending';
        subscription.charge_at = this.now() + 24 * 3600;
        this.save('subscriptions', subscription);
        this.emit('subscription.pending', { subscription });
      }
      return;
    }
    const start = Number(subscription.current_end);
    const end = Math.floor(addMonths(new Date(start * 1000), Number(plan.interval)).getTime() / 1000);
    const payment = this.subscriptionPayment(subscription, plan, undefined, undefined, { start, end });
    Object.assign(subscription, {
      status: 'active',
      current_start: start,
      current_end: end,
      charge_at: end,
      paid_count: Number(subscription.paid_count) + 1,
      remaining_count: Math.max(0, Number(subscription.remaining_count) - 1),
      auth_attempts: 0,
    });
    this.save('subscriptions', subscription);
    this.emit('payment.captured', { payment });
    this.emit('subscription.charged', { subscription, payment });
    if (Number(subscription.remaining_count) === 0) {
      subscription.status = 'completed';
      subscription.ended_at = this.now();
      this.save('subscriptions', subscription);
      this.emit('subscription.completed', { subscription });
    }
  }

  cancelSubscription(subscription: Obj, atCycleEnd: boolean): Obj {
    if (['cancelled', 'completed', 'expired'].includes(String(subscription.status))) {
      refuse(`Subscription is not cancellable in ${String(subscription.status)} status.`);
    }
    if (atCycleEnd && subscription.status === 'active') {
      this.store.meta('subscriptions', subscription.id).cancelAtCycleEnd = true;
      Object.assign(subscription, {
        has_scheduled_changes: true,
        change_scheduled_at: subscription.current_end,
      });
      this.save('subscriptions', subscription);
      this.emit('subscription.updated', { subscription });
    } else {
      Object.assign(subscription, { status: 'cancelled', ended_at: this.now() });
      this.save('subscriptions', subscription);
      this.emit('subscription.cancelled', { subscription });
    }
    return subscription;
  }

  /** Charges due, cancellations at cycle end, and the auto-refund of payments never captured. */
  async processDue(): Promise<void> {
    const now = this.now();
    for (const payment of this.store.values<Obj>('payments')) {
      if (payment.status === 'authorized' && Number(payment.created_at) + AUTO_REFUND_AFTER_SECONDS <= now) {
        this.refund(payment, {}, true);
      }
    }
    for (let pass = 0; pass < 1000; pass += 1) {
      let acted = false;
      for (const subscription of this.store.values<Obj>('subscriptions')) {
        if (subscription.status !== 'active' && subscription.status !== 'pending') continue;
        if (
          this.store.meta('subscriptions', subscription.id).cancelAtCycleEnd &&
          Number(subscription.current_end) <= now
        ) {
          Object.assign(subscription, { status: 'cancelled', ended_at: now, has_scheduled_changes: false });
          this.save('subscriptions', subscription);
          this.emit('subscription.cancelled', { subscription });
          acted = true;
        } else if (Number(subscription.charge_at) <= now) {
          this.charge(subscription);
          acted = true;
        }
      }
      if (!acted) break;
    }
  }

  /**
   * A subscription's payment: Razorpay bills it through an invoice (with the billing period it pays for) and an
   * order of its own.
   */
  private subscriptionPayment(
    subscription: Obj,
    plan: Obj,
    failure?: PaymentError,
    email?: string,
    period?: { start: number; end: number },
  ): Obj {
    const item = plan.item as { amount: number; currency: string };
    const order = this.createOrder({
      amount: item.amount,
      currency: item.currency,
      receipt: null,
      notes: {},
    });
    const invoiceId = randomId('inv_', 14);
    const payment = this.save(
      'payments',
      paymentObject(this.now(), {
        amount: item.amount,
        currency: item.currency,
        orderId: order.id,
        invoiceId,
        error: failure,
        email,
        customerId: subscription.customer_id as string | null,
      }),
    );
    this.save(
      'invoices',
      invoiceObject(this.now(), {
        id: invoiceId,
        subscriptionId: String(subscription.id),
        paymentId: String(payment.id),
        orderId: String(order.id),
        customerId: (subscription.customer_id as string | null) ?? null,
        amount: item.amount,
        currency: item.currency,
        paid: !failure,
        period: period ?? null,
      }),
    );
    order.attempts = 1;
    if (failure) {
      order.status = 'attempted';
      this.save('orders', order);
      return payment;
    }
    Object.assign(payment, {
      status: 'captured',
      captured: true,
      fee: Math.round(item.amount * 0.02),
      tax: 0,
    });
    Object.assign(order, { status: 'paid', amount_paid: order.amount, amount_due: 0 });
    this.save('orders', order);
    return this.save('payments', payment);
  }
}
