import { createHmac, randomUUID } from 'node:crypto';
import { luhnValid } from './cards';
import {
  addMonths,
  escapeHtml,
  money,
  page,
  randomId,
  type Clock,
  type Store,
  type WebhookDispatcher,
} from './core';
import { basicAuth, json, Router, type EmulatorRequest, type EmulatorResponse } from './http';

export interface RazorpayCredentials {
  keyId: string;
  keySecret: string;
  webhookSecret: string;
}

type Obj = Record<string, unknown> & { id: string };

/** Razorpay's error body: `{ error: { code, description, source, step, reason, metadata, field } }`. */
const rzpError = (status: number, description: string, field?: string): EmulatorResponse =>
  json(status, {
    error: {
      code: status === 401 ? 'BAD_REQUEST_ERROR' : 'BAD_REQUEST_ERROR',
      description,
      source: 'business',
      step: 'payment_initiation',
      reason: 'input_validation_failed',
      metadata: {},
      ...(field ? { field } : {}),
    },
  });
const notFound = () => rzpError(400, 'The id provided does not exist');
const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;
const int = (value: unknown): number | undefined => {
  const parsed = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isInteger(parsed) ? parsed : undefined;
};
const notes = (value: unknown): Record<string, string> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, String(v)]))
    : {};

/** Razorpay's webhook signature: hex HMAC-SHA256 of the exact body with the webhook secret. */
export function razorpayWebhookSignature(body: string, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/** Checkout's result signature: HMAC-SHA256 of `order_id|payment_id` (or `payment_id|subscription_id`). */
export function razorpayCheckoutSignature(
  ids: { orderId?: string; subscriptionId?: string; paymentId: string },
  keySecret: string,
): string {
  const payload = ids.orderId ? `${ids.orderId}|${ids.paymentId}` : `${ids.paymentId}|${ids.subscriptionId}`;
  return createHmac('sha256', keySecret).update(payload).digest('hex');
}

/**
 * Razorpay's REST API (orders, payments, refunds, plans, subscriptions, disputes) with state, its Checkout as a test
 * page, and webhooks signed as Razorpay signs them. Subscription charges follow the emulator's clock.
 */
export class RazorpayEmulator {
  readonly router = new Router();
  baseUrl = '';

  constructor(
    private readonly credentials: RazorpayCredentials,
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly webhooks: WebhookDispatcher,
  ) {
    this.routes();
    clock.onAdvance(() => this.processDue());
  }

  private now(): number {
    return this.clock.nowSeconds();
  }

  private save<T extends Obj>(collection: string, value: T): T {
    return this.store.put(collection, value.id, value);
  }

  private find(collection: string, id: string): Obj | undefined {
    return this.store.get<Obj>(collection, id);
  }

  private authorised(request: EmulatorRequest): EmulatorResponse | null {
    const auth = basicAuth(request.headers);
    if (auth?.user === this.credentials.keyId && auth.password === this.credentials.keySecret) return null;
    return json(401, {
      error: {
        code: 'BAD_REQUEST_ERROR',
        description: 'Authentication failed',
        source: 'NA',
        step: 'NA',
        reason: 'NA',
      },
    });
  }

  private emit(event: string, entities: Record<string, Obj>): void {
    const body = JSON.stringify({
      entity: 'event',
      account_id: 'acc_BackbeatEmulator',
      event,
      contains: Object.keys(entities),
      payload: Object.fromEntries(Object.entries(entities).map(([name, entity]) => [name, { entity }])),
      created_at: this.now(),
    });
    const eventId = randomId('evt_', 14);
    this.webhooks.send('razorpay', eventId, event, body, () => ({
      'x-razorpay-signature': razorpayWebhookSignature(body, this.credentials.webhookSecret),
      'x-razorpay-event-id': eventId,
    }));
  }

  private newPayment(values: {
    amount: number;
    currency: string;
    orderId?: string | null;
    invoiceId?: string | null;
    captured: boolean;
    error?: { code: string; description: string; reason: string };
    email?: string;
  }): Obj {
    const payment: Obj = {
      id: randomId('pay_', 14),
      entity: 'payment',
      amount: values.amount,
      currency: values.currency,
      status: values.error ? 'failed' : 'captured',
      order_id: values.orderId ?? null,
      invoice_id: values.invoiceId ?? null,
      international: false,
      method: 'card',
      amount_refunded: 0,
      refund_status: null,
      captured: !values.error,
      description: null,
      card_id: randomId('card_', 14),
      email: values.email ?? 'buyer@example.com',
      contact: '+919000090000',
      notes: {},
      fee: values.error ? null : Math.round(values.amount * 0.02),
      tax: values.error ? null : 0,
      error_code: values.error?.code ?? null,
      error_description: values.error?.description ?? null,
      error_source: values.error ? 'customer' : null,
      error_step: values.error ? 'payment_authentication' : null,
      error_reason: values.error?.reason ?? null,
      created_at: this.now(),
    };
    return this.save('payments', payment);
  }

  // -----------------------------------------------------------------------------------------------------------
  // Checkout (the page the Checkout stand-in opens) and subscriptions

  /** Pays (or fails) an order or a subscription from the test checkout; answers what Checkout hands its caller. */
  pay(target: { orderId?: string; subscriptionId?: string }, outcome: 'success' | 'failure', email?: string) {
    const failure =
      outcome === 'failure'
        ? {
            code: 'BAD_REQUEST_ERROR',
            description: 'Payment failed because the card was declined by the bank.',
            reason: 'payment_failed',
          }
        : undefined;
    if (target.orderId) {
      const order = this.find('orders', target.orderId);
      if (!order) return { error: 'The id provided does not exist' } as const;
      if (order.status === 'paid') return { error: 'Order already paid' } as const;
      const payment = this.newPayment({
        amount: Number(order.amount),
        currency: String(order.currency),
        orderId: order.id,
        captured: !failure,
        error: failure,
        email,
      });
      order.attempts = Number(order.attempts) + 1;
      if (failure) {
        order.status = 'attempted';
        this.save('orders', order);
        this.emit('payment.failed', { payment });
        return {
          failure: {
            ...failure,
            source: 'customer',
            step: 'payment_authentication',
            metadata: { order_id: order.id, payment_id: payment.id },
          },
        } as const;
      }
      order.status = 'paid';
      order.amount_paid = order.amount;
      order.amount_due = 0;
      this.save('orders', order);
      this.emit('payment.authorized', { payment: { ...payment, status: 'authorized', captured: false } });
      this.emit('payment.captured', { payment });
      this.emit('order.paid', { payment, order });
      return {
        response: {
          razorpay_payment_id: payment.id,
          razorpay_order_id: order.id,
          razorpay_signature: razorpayCheckoutSignature(
            { orderId: order.id, paymentId: payment.id },
            this.credentials.keySecret,
          ),
        },
      } as const;
    }
    const subscription = this.find('subscriptions', target.subscriptionId ?? '');
    if (!subscription) return { error: 'The id provided does not exist' } as const;
    if (subscription.status !== 'created')
      return { error: `Subscription is ${String(subscription.status)}` } as const;
    const plan = this.find('plans', String(subscription.plan_id))!;
    const item = plan.item as { amount: number; currency: string };
    if (failure) {
      const payment = this.newPayment({
        amount: item.amount,
        currency: item.currency,
        captured: false,
        error: failure,
        email,
      });
      this.emit('payment.failed', { payment });
      return {
        failure: {
          ...failure,
          source: 'customer',
          step: 'payment_authentication',
          metadata: { subscription_id: subscription.id, payment_id: payment.id },
        },
      } as const;
    }
    const start = this.now();
    const end = Math.floor(addMonths(new Date(start * 1000), Number(plan.interval)).getTime() / 1000);
    const invoiceId = randomId('inv_', 14);
    const payment = this.newPayment({
      amount: item.amount,
      currency: item.currency,
      invoiceId,
      captured: true,
      email,
    });
    Object.assign(subscription, {
      status: 'active',
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
    this.emit('payment.captured', { payment });
    this.emit('subscription.activated', { subscription });
    this.emit('subscription.charged', { subscription, payment });
    return {
      response: {
        razorpay_payment_id: payment.id,
        razorpay_subscription_id: subscription.id,
        razorpay_signature: razorpayCheckoutSignature(
          { subscriptionId: subscription.id, paymentId: payment.id },
          this.credentials.keySecret,
        ),
      },
    } as const;
  }

  /** One subscription charge at its charge time: paid moves the period, failed makes it pending, then halted. */
  charge(subscription: Obj, forced?: 'paid' | 'failed'): void {
    const plan = this.find('plans', String(subscription.plan_id))!;
    const item = plan.item as { amount: number; currency: string };
    const failed = forced === 'failed' || (forced === undefined && subscription._failCharges === true);
    if (failed) {
      const payment = this.newPayment({
        amount: item.amount,
        currency: item.currency,
        captured: false,
        error: { code: 'BAD_REQUEST_ERROR', description: 'Payment failed', reason: 'payment_failed' },
      });
      subscription.auth_attempts = Number(subscription.auth_attempts ?? 0) + 1;
      if (Number(subscription.auth_attempts) >= 4) {
        subscription.status = 'halted';
        this.save('subscriptions', subscription);
        this.emit('subscription.halted', { subscription });
      } else {
        subscription.status = 'pending';
        subscription.charge_at = this.now() + 24 * 3600;
        this.save('subscriptions', subscription);
        this.emit('payment.failed', { payment });
        this.emit('subscription.pending', { subscription });
      }
      return;
    }
    const start = Number(subscription.current_end);
    const end = Math.floor(addMonths(new Date(start * 1000), Number(plan.interval)).getTime() / 1000);
    const payment = this.newPayment({
      amount: item.amount,
      currency: item.currency,
      invoiceId: randomId('inv_', 14),
      captured: true,
    });
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

  async processDue(): Promise<void> {
    const now = this.now();
    for (let pass = 0; pass < 1000; pass += 1) {
      let acted = false;
      for (const subscription of this.store.values<Obj>('subscriptions')) {
        const status = subscription.status;
        if (status !== 'active' && status !== 'pending') continue;
        if (subscription._cancelAtCycleEnd && Number(subscription.current_end) <= now) {
          subscription.status = 'cancelled';
          subscription.ended_at = now;
          this.save('subscriptions', subscription);
          this.emit('subscription.cancelled', { subscription });
          acted = true;
          continue;
        }
        if (Number(subscription.charge_at) <= now) {
          this.charge(subscription);
          acted = true;
        }
      }
      if (!acted) break;
    }
  }

  refund(
    payment: Obj,
    amount: number | undefined,
    noteValues: Record<string, string> = {},
  ): Obj | EmulatorResponse {
    if (payment.status !== 'captured') return rzpError(400, 'The payment has not been captured');
    const remaining = Number(payment.amount) - Number(payment.amount_refunded);
    const value = amount ?? remaining;
    if (value <= 0 || value > remaining)
      return rzpError(400, 'The refund amount provided is greater than amount captured', 'amount');
    const refund: Obj = {
      id: randomId('rfnd_', 14),
      entity: 'refund',
      amount: value,
      currency: payment.currency,
      payment_id: payment.id,
      notes: noteValues,
      receipt: null,
      status: 'processed',
      speed_processed: 'normal',
      created_at: this.now(),
    };
    this.save('refunds', refund);
    payment.amount_refunded = Number(payment.amount_refunded) + value;
    payment.refund_status = payment.amount_refunded === payment.amount ? 'full' : 'partial';
    if (payment.refund_status === 'full') payment.status = 'refunded';
    this.save('payments', payment);
    this.emit('refund.created', { refund, payment });
    this.emit('refund.processed', { refund, payment });
    this.emit('payment.refunded', { payment, refund });
    return refund;
  }

  dispute(paymentId: string): Obj | null {
    const payment = this.find('payments', paymentId);
    if (!payment || (payment.status !== 'captured' && payment.status !== 'refunded')) return null;
    const dispute: Obj = {
      id: randomId('disp_', 14),
      entity: 'dispute',
      payment_id: payment.id,
      amount: payment.amount,
      currency: payment.currency,
      amount_deducted: 0,
      reason_code: 'chargeback',
      respond_by: this.now() + 7 * 24 * 3600,
      status: 'open',
      phase: 'chargeback',
      created_at: this.now(),
    };
    this.save('disputes', dispute);
    this.emit('payment.dispute.created', { dispute, payment });
    return dispute;
  }

  findSubscription(id: string): Obj | undefined {
    return this.find('subscriptions', id);
  }

  // -----------------------------------------------------------------------------------------------------------

  private routes(): void {
    const r = this.router;
    const api =
      (handler: (request: EmulatorRequest) => EmulatorResponse | Promise<EmulatorResponse>) =>
      (request: EmulatorRequest) =>
        this.authorised(request) ?? handler(request);

    r.on(
      'POST',
      '/v1/orders',
      api((request) => {
        const amount = int(request.body.amount);
        if (amount === undefined) return rzpError(400, 'The amount field is required.', 'amount');
        if (amount < 100) return rzpError(400, 'The amount must be atleast INR 1.00', 'amount');
        const currency = str(request.body.currency);
        if (!currency || !/^[A-Z]{3}$/.test(currency))
          return rzpError(400, 'The currency field is required.', 'currency');
        const receipt = str(request.body.receipt);
        if (receipt && receipt.length > 40)
          return rzpError(400, 'The receipt may not be greater than 40 characters.', 'receipt');
        const order: Obj = {
          id: randomId('order_', 14),
          entity: 'order',
          amount,
          amount_paid: 0,
          amount_due: amount,
          currency,
          receipt: receipt ?? null,
          offer_id: null,
          status: 'created',
          attempts: 0,
          notes: notes(request.body.notes),
          created_at: this.now(),
        };
        return json(200, this.save('orders', order));
      }),
    );
    r.on(
      'GET',
      '/v1/orders/:id',
      api((request) => {
        const order = this.find('orders', request.params.id!);
        return order ? json(200, order) : notFound();
      }),
    );
    r.on(
      'GET',
      '/v1/orders/:id/payments',
      api((request) => {
        const items = this.store
          .values<Obj>('payments')
          .filter((payment) => payment.order_id === request.params.id);
        return json(200, { entity: 'collection', count: items.length, items });
      }),
    );
    r.on(
      'GET',
      '/v1/payments/:id',
      api((request) => {
        const payment = this.find('payments', request.params.id!);
        return payment ? json(200, payment) : notFound();
      }),
    );
    r.on(
      'POST',
      '/v1/payments/:id/capture',
      api((request) => {
        const payment = this.find('payments', request.params.id!);
        if (!payment) return notFound();
        if (payment.status === 'captured') return rzpError(400, 'This payment has already been captured');
        return rzpError(400, 'Only authorized payments can be captured');
      }),
    );
    r.on(
      'POST',
      '/v1/payments/:id/refund',
      api((request) => {
        const payment = this.find('payments', request.params.id!);
        if (!payment) return notFound();
        const refund = this.refund(payment, int(request.body.amount), notes(request.body.notes));
        return 'entity' in refund ? json(200, refund) : (refund as EmulatorResponse);
      }),
    );
    r.on(
      'GET',
      '/v1/payments/:paymentId/refunds/:id',
      api((request) => {
        const refund = this.find('refunds', request.params.id!);
        return refund && refund.payment_id === request.params.paymentId ? json(200, refund) : notFound();
      }),
    );
    r.on(
      'GET',
      '/v1/refunds/:id',
      api((request) => {
        const refund = this.find('refunds', request.params.id!);
        return refund ? json(200, refund) : notFound();
      }),
    );
    r.on(
      'GET',
      '/v1/disputes/:id',
      api((request) => {
        const dispute = this.find('disputes', request.params.id!);
        return dispute ? json(200, dispute) : notFound();
      }),
    );
    r.on(
      'POST',
      '/v1/plans',
      api((request) => {
        const period = str(request.body.period);
        if (!period || !['daily', 'weekly', 'monthly', 'yearly'].includes(period))
          return rzpError(400, 'The period field is required.', 'period');
        if (period !== 'monthly') return rzpError(400, 'Only monthly plans are emulated.', 'period');
        const interval = int(request.body.interval);
        if (!interval || interval < 1) return rzpError(400, 'The interval field is required.', 'interval');
        const item = (request.body.item ?? {}) as Record<string, unknown>;
        const amount = int(item.amount);
        const currency = str(item.currency);
        if (!str(item.name) || amount === undefined || !currency)
          return rzpError(400, 'The item name, amount and currency are required.', 'item');
        const plan: Obj = {
          id: randomId('plan_', 14),
          entity: 'plan',
          interval,
          period,
          item: {
            id: randomId('item_', 14),
            active: true,
            name: item.name,
            description: item.description ?? null,
            amount,
            unit_amount: amount,
            currency,
            type: 'plan',
          },
          notes: notes(request.body.notes),
          created_at: this.now(),
        };
        return json(200, this.save('plans', plan));
      }),
    );
    r.on(
      'GET',
      '/v1/plans/:id',
      api((request) => {
        const plan = this.find('plans', request.params.id!);
        return plan ? json(200, plan) : notFound();
      }),
    );
    r.on(
      'POST',
      '/v1/subscriptions',
      api((request) => {
        const planId = str(request.body.plan_id);
        if (!planId || !this.find('plans', planId))
          return rzpError(
            400,
            planId ? 'The id provided does not exist' : 'The plan id field is required.',
            'plan_id',
          );
        const total = int(request.body.total_count);
        if (!total || total < 1) return rzpError(400, 'The total count field is required.', 'total_count');
        const subscription: Obj = {
          id: randomId('sub_', 14),
          entity: 'subscription',
          plan_id: planId,
          customer_id: null,
          status: 'created',
          current_start: null,
          current_end: null,
          ended_at: null,
          quantity: 1,
          notes: notes(request.body.notes),
          charge_at: null,
          start_at: null,
          end_at: null,
          auth_attempts: 0,
          total_count: total,
          paid_count: 0,
          customer_notify: true,
          created_at: this.now(),
          expire_by: null,
          short_url: '',
          has_scheduled_changes: false,
          change_scheduled_at: null,
          source: 'api',
          remaining_count: total,
        };
        subscription.short_url = `${this.baseUrl}/_checkout?subscription_id=${subscription.id}`;
        return json(200, this.save('subscriptions', subscription));
      }),
    );
    r.on(
      'GET',
      '/v1/subscriptions/:id',
      api((request) => {
        const subscription = this.find('subscriptions', request.params.id!);
        return subscription ? json(200, this.visible(subscription)) : notFound();
      }),
    );
    r.on(
      'POST',
      '/v1/subscriptions/:id/cancel',
      api((request) => {
        const subscription = this.find('subscriptions', request.params.id!);
        if (!subscription) return notFound();
        if (['cancelled', 'completed', 'expired'].includes(String(subscription.status))) {
          return rzpError(400, 'Subscription is not cancellable in cancelled status.');
        }
        const atCycleEnd =
          String(request.body.cancel_at_cycle_end) === '1' || request.body.cancel_at_cycle_end === true;
        if (atCycleEnd && subscription.status === 'active') {
          subscription._cancelAtCycleEnd = true;
          subscription.has_scheduled_changes = true;
          subscription.change_scheduled_at = subscription.current_end;
          this.save('subscriptions', subscription);
          this.emit('subscription.updated', { subscription: this.visible(subscription) });
        } else {
          subscription.status = 'cancelled';
          subscription.ended_at = this.now();
          this.save('subscriptions', subscription);
          this.emit('subscription.cancelled', { subscription: this.visible(subscription) });
        }
        return json(200, this.visible(subscription));
      }),
    );

    // The test checkout, and its answer.
    r.on('GET', '/_checkout', (request) => this.checkoutPage(request));
    r.on('POST', '/_emulator/checkout/pay', (request) => {
      if (str(request.body.key) !== this.credentials.keyId)
        return rzpError(401, 'The api key provided is invalid');
      const card = String(request.body.card ?? '').replace(/\s+/g, '');
      if (request.body.outcome !== 'failure' && !luhnValid(card)) {
        return json(400, { error: { description: 'Your card number is invalid.' } });
      }
      const result = this.pay(
        { orderId: str(request.body.order_id), subscriptionId: str(request.body.subscription_id) },
        request.body.outcome === 'failure' ? 'failure' : 'success',
        str(request.body.email),
      );
      if ('error' in result) return json(400, { error: { description: result.error } });
      return json(200, result);
    });
  }

  private visible(subscription: Obj): Obj {
    const out: Obj = { ...subscription };
    for (const key of Object.keys(out)) if (key.startsWith('_')) delete out[key];
    return out;
  }

  private checkoutPage(request: EmulatorRequest): EmulatorResponse {
    const orderId = str(request.query.order_id);
    const subscriptionId = str(request.query.subscription_id);
    const order = orderId ? this.find('orders', orderId) : undefined;
    const subscription = subscriptionId ? this.find('subscriptions', subscriptionId) : undefined;
    const plan = subscription ? this.find('plans', String(subscription.plan_id)) : undefined;
    const amount = order
      ? money(Number(order.amount), String(order.currency))
      : plan
        ? `${money(Number((plan.item as { amount: number }).amount), String((plan.item as { currency: string }).currency))} every ${String(plan.interval)} month(s)`
        : null;
    if (!amount) {
      return {
        status: 404,
        contentType: 'text/html',
        text: page('Razorpay', '#3395ff', '<h1>Unknown order</h1>'),
      };
    }
    const name = escapeHtml(str(request.query.name) ?? 'Merchant');
    const description = escapeHtml(str(request.query.description) ?? '');
    const email = escapeHtml(str(request.query.email) ?? '');
    const target = JSON.stringify({
      key: str(request.query.key),
      order_id: orderId,
      subscription_id: subscriptionId,
      nonce: randomUUID(),
    });
    return {
      status: 200,
      contentType: 'text/html',
      text: page(
        `Razorpay Checkout · ${name}`,
        '#3395ff',
        `<p class="muted">${name}</p><h1>${description || 'Payment'}</h1><div class="amount">${escapeHtml(amount)}</div>
<form class="card" id="pay"><label for="card">Card number</label><input id="card" inputmode="numeric" autocomplete="cc-number" value="4111 1111 1111 1111">
<div class="row"><div><label for="exp">Expiry</label><input id="exp" value="12 / 30"></div><div><label for="cvv">CVV</label><input id="cvv" value="123"></div></div>
<label for="email">E-mail</label><input id="email" type="email" value="${email}">
<button type="submit" id="submit">Pay ${escapeHtml(amount)}</button>
<button type="button" class="secondary" id="failure">Failure (simulate a declined payment)</button>
<button type="button" class="secondary" id="close">Close</button><p class="error" id="error" role="alert"></p>
<p class="hint">Test card 4111 1111 1111 1111 succeeds. Success and Failure are Razorpay's test-mode choices.</p></form>`,
        `const target=${target};
const send=(type,data)=>parent.postMessage(Object.assign({type:'razorpay:'+type},data),'*');
const submit=async(outcome)=>{document.getElementById('error').textContent='';
const res=await fetch('/_emulator/checkout/pay',{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify(Object.assign({},target,{outcome,card:document.getElementById('card').value,email:document.getElementById('email').value}))});
const body=await res.json();
if(!res.ok){document.getElementById('error').textContent=body.error.description;return;}
if(body.response){send('success',{response:body.response});}else{document.getElementById('error').textContent=body.failure.description;send('failed',{error:body.failure});}};
document.getElementById('pay').onsubmit=(e)=>{e.preventDefault();submit('success');};
document.getElementById('failure').onclick=()=>submit('failure');
document.getElementById('close').onclick=()=>send('dismiss',{});`,
      ),
    };
  }
}
