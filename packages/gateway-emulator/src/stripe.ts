import { createHmac } from 'node:crypto';
import { stripeCard, luhnValid, STRIPE_TEST_CARDS, type CardBehaviour } from './cards';
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
import { bearer, json, Router, type EmulatorRequest, type EmulatorResponse } from './http';

export interface StripeCredentials {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
}

/** The API version the emulator answers in: stripe-node 23's pinned version, whose types are the shapes used. */
export const STRIPE_API_VERSION = '2026-10-28.endive';

type Obj = Record<string, unknown> & { id: string };

const err = (status: number, error: Record<string, unknown>): EmulatorResponse => json(status, { error });
const missing = (kind: string, id: string) =>
  err(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such ${kind}: '${id}'`,
    param: 'id',
  });
const required = (param: string) =>
  err(400, {
    type: 'invalid_request_error',
    code: 'parameter_missing',
    message: `Missing required param: ${param}.`,
    param,
  });
const invalid = (param: string, message: string) =>
  err(400, { type: 'invalid_request_error', code: 'parameter_invalid', message, param });

const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;
const int = (value: unknown): number | undefined => {
  const parsed = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isInteger(parsed) ? parsed : undefined;
};
const bool = (value: unknown): boolean | undefined =>
  value === true || value === 'true' ? true : value === false || value === 'false' ? false : undefined;
const record = (value: unknown): Record<string, string> =>
  typeof value === 'object' && value !== null
    ? Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, String(v)]))
    : {};
const list = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.map(String)
    : typeof value === 'object' && value !== null
      ? Object.values(value).map(String)
      : typeof value === 'string'
        ? [value]
        : [];

/** Stripe's webhook signature: `t=…,v1=` HMAC-SHA256 of `${t}.${payload}` keyed with the whsec secret. */
export function stripeSignature(payload: string, secret: string, timestamp: number): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
  return `t=${timestamp},v1=${signature}`;
}

/**
 * Stripe's REST API (the part stripe-node calls for Backbeat and that Stripe.js calls from the browser), with state:
 * PaymentIntents, SetupIntents, PaymentMethods, Customers, Products, Prices, Subscriptions with invoices renewed on
 * the emulator's clock, Charges, Refunds, Disputes and Events, and webhooks signed exactly as Stripe signs them.
 */
export class StripeEmulator {
  readonly router = new Router();
  baseUrl = '';
  private readonly idempotent = new Map<string, EmulatorResponse>();

  constructor(
    private readonly credentials: StripeCredentials,
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly webhooks: WebhookDispatcher,
  ) {
    this.routes();
    clock.onAdvance(() => this.processDue());
  }

  // -----------------------------------------------------------------------------------------------------------
  // Helpers

  private now(): number {
    return this.clock.nowSeconds();
  }

  private save<T extends Obj>(collection: string, value: T): T {
    return this.store.put(collection, value.id, value);
  }

  private find(collection: string, id: string): Obj | undefined {
    return this.store.get<Obj>(collection, id);
  }

  private auth(
    request: EmulatorRequest,
    allowPublishable = false,
  ): 'secret' | 'publishable' | EmulatorResponse {
    const key = bearer(request.headers) ?? str(request.body.key) ?? str(request.query.key);
    if (key === this.credentials.secretKey) return 'secret';
    if (allowPublishable && key === this.credentials.publishableKey) return 'publishable';
    return err(401, {
      type: 'invalid_request_error',
      message: key
        ? `Invalid API Key provided: ${key.slice(0, 8)}********${key.slice(-4)}`
        : 'You did not provide an API key.',
    });
  }

  /** Runs a POST once per Idempotency-Key, answering replays with the first answer (as Stripe does). */
  private async once(request: EmulatorRequest, run: () => EmulatorResponse | Promise<EmulatorResponse>) {
    const key = request.headers['idempotency-key'];
    if (typeof key !== 'string' || request.method !== 'POST') return run();
    const scoped = `${request.path}\n${key}`;
    const known = this.idempotent.get(scoped);
    if (known) return known;
    const answer = await run();
    if (answer.status < 500) this.idempotent.set(scoped, answer);
    return answer;
  }

  private expand(value: Obj, paths: string[]): Obj {
    const out: Obj = { ...value };
    for (const path of paths) {
      const [head, ...rest] = path.split('.');
      if (!head) continue;
      const id = out[head];
      if (typeof id !== 'string') continue;
      const collection =
        head === 'latest_invoice'
          ? 'invoices'
          : head === 'latest_charge'
            ? 'charges'
            : head === 'customer'
              ? 'customers'
              : null;
      const found = collection ? this.find(collection, id) : undefined;
      if (found) out[head] = rest.length > 0 ? this.expand(found, [rest.join('.')]) : found;
    }
    return out;
  }

  private emit(type: string, object: Obj, previous?: Record<string, unknown>): void {
    const event: Obj = {
      id: randomId('evt_'),
      object: 'event',
      api_version: STRIPE_API_VERSION,
      created: this.now(),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object, ...(previous ? { previous_attributes: previous } : {}) },
    };
    this.save('events', event);
    const body = JSON.stringify(event, null, 2);
    // Signed with the real time at each attempt: Stripe's libraries check the timestamp against their clock.
    this.webhooks.send('stripe', event.id, type, body, () => ({
      'stripe-signature': stripeSignature(
        body,
        this.credentials.webhookSecret,
        Math.floor(Date.now() / 1000),
      ),
    }));
  }

  // -----------------------------------------------------------------------------------------------------------
  // Cards and charges

  private createPaymentMethod(
    card: Record<string, unknown>,
    billing: Record<string, unknown> = {},
  ): Obj | EmulatorResponse {
    const number = String(card.number ?? '').replace(/\s+/g, '');
    if (!luhnValid(number)) {
      return err(402, {
        type: 'card_error',
        code: 'incorrect_number',
        message: 'Your card number is incorrect.',
        param: 'number',
      });
    }
    const month = int(card.exp_month);
    const year = int(card.exp_year);
    const now = this.clock.now();
    const fullYear = year !== undefined && year < 100 ? 2000 + year : year;
    if (!month || month < 1 || month > 12 || !fullYear || new Date(Date.UTC(fullYear, month, 1)) <= now) {
      return err(402, {
        type: 'card_error',
        code: 'invalid_expiry_year',
        message: "Your card's expiration date is invalid.",
        param: 'exp_year',
      });
    }
    if (card.cvc !== undefined && !/^\d{3,4}$/.test(String(card.cvc))) {
      return err(402, {
        type: 'card_error',
        code: 'invalid_cvc',
        message: "Your card's security code is invalid.",
        param: 'cvc',
      });
    }
    const test = stripeCard(number);
    const method: Obj = {
      id: randomId('pm_'),
      object: 'payment_method',
      type: 'card',
      card: {
        brand: test.brand,
        last4: number.slice(-4),
        exp_month: month,
        exp_year: fullYear,
        funding: 'credit',
        country: 'US',
        checks: { cvc_check: 'pass' },
      },
      billing_details: {
        name: str(billing.name) ?? null,
        email: str(billing.email) ?? null,
        address: { postal_code: str(record(billing.address).postal_code) ?? null },
      },
      customer: null,
      created: this.now(),
      livemode: false,
      metadata: {},
    };
    this.store.put('card_behaviours', method.id, { id: method.id, behaviour: test.behaviour });
    return this.save('payment_methods', method);
  }

  private behaviourOf(paymentMethod: string | null | undefined): CardBehaviour {
    if (!paymentMethod) return { kind: 'ok' };
    return (
      this.store.get<{ behaviour: CardBehaviour }>('card_behaviours', paymentMethod)?.behaviour ?? {
        kind: 'ok',
      }
    );
  }

  /**
   * One attempt to charge a PaymentIntent with its payment method. On-session 3-D Secure cards stop at
   * `requires_action` until authenticated; `forced` decides the outcome (control routes, renewals made to fail).
   */
  private attemptCharge(
    intent: Obj,
    options: { offSession: boolean; authenticated?: boolean; forced?: 'paid' | 'failed' },
  ): { ok: true } | { ok: false; error: Record<string, unknown> } | { action: true } {
    const behaviour = this.behaviourOf(intent.payment_method as string | null);
    let failure: { code: string; declineCode: string; message: string } | null = null;
    if (options.forced === 'failed')
      failure = { code: 'card_declined', declineCode: 'generic_decline', message: 'Your card was declined.' };
    else if (options.forced !== 'paid') {
      if (behaviour.kind === 'decline') failure = behaviour;
      if (behaviour.kind === 'charge_fails') {
        failure = {
          code: 'card_declined',
          declineCode: 'generic_decline',
          message: 'Your card was declined.',
        };
      }
      if (behaviour.kind === 'three_d_secure' && !options.offSession && !options.authenticated) {
        const secret = String(intent.client_secret);
        intent.status = 'requires_action';
        intent.next_action = {
          type: 'use_stripe_sdk',
          use_stripe_sdk: {
            type: 'three_d_secure_redirect',
            stripe_js: `${this.baseUrl}/_3ds/${intent.id}?client_secret=${encodeURIComponent(secret)}`,
          },
        };
        this.save('payment_intents', intent);
        return { action: true };
      }
    }
    const charge: Obj = {
      id: randomId('ch_'),
      object: 'charge',
      amount: intent.amount,
      amount_captured: failure ? 0 : intent.amount,
      amount_refunded: 0,
      currency: intent.currency,
      customer: intent.customer ?? null,
      description: intent.description ?? null,
      payment_intent: intent.id,
      payment_method: intent.payment_method,
      status: failure ? 'failed' : 'succeeded',
      paid: !failure,
      captured: !failure,
      refunded: false,
      disputed: false,
      failure_code: failure?.code ?? null,
      failure_message: failure?.message ?? null,
      outcome: failure
        ? { type: 'issuer_declined', reason: failure.declineCode, network_status: 'declined_by_network' }
        : { type: 'authorized', network_status: 'approved_by_network' },
      metadata: intent.metadata ?? {},
      created: this.now(),
      livemode: false,
    };
    this.save('charges', charge);
    intent.latest_charge = charge.id;
    intent.next_action = null;
    if (failure) {
      const error = {
        type: 'card_error',
        code: failure.code,
        decline_code: failure.declineCode,
        message: failure.message,
        charge: charge.id,
        payment_method: this.find('payment_methods', String(intent.payment_method)) ?? null,
      };
      intent.status = 'requires_payment_method';
      intent.last_payment_error = error;
      this.save('payment_intents', intent);
      this.emit('charge.failed', charge);
      this.emit('payment_intent.payment_failed', intent);
      return { ok: false, error: { ...error, payment_intent: intent } };
    }
    intent.status = 'succeeded';
    intent.amount_received = intent.amount;
    intent.last_payment_error = null;
    this.save('payment_intents', intent);
    this.emit('charge.succeeded', charge);
    this.emit('payment_intent.succeeded', intent);
    const invoiceId = intent._invoice;
    if (typeof invoiceId === 'string') this.invoicePaid(invoiceId);
    return { ok: true };
  }

  private publicIntent(intent: Obj): Obj {
    const { _invoice: _ignored, ...visible } = intent;
    return visible as Obj;
  }

  // -----------------------------------------------------------------------------------------------------------
  // Subscriptions and invoices

  private monthsOf(price: Obj): number {
    return Number((price.recurring as { interval_count?: number } | undefined)?.interval_count ?? 1);
  }

  private createInvoice(subscription: Obj, reason: string, start: number, end: number): Obj {
    const item = (subscription.items as { data: Obj[] }).data[0]!;
    const price = item.price as Obj;
    const intent: Obj = {
      id: randomId('pi_'),
      object: 'payment_intent',
      amount: price.unit_amount,
      amount_received: 0,
      currency: price.currency,
      customer: subscription.customer,
      description: `Subscription ${reason === 'subscription_create' ? 'creation' : 'update'}`,
      payment_method: subscription.default_payment_method ?? null,
      payment_method_types: ['card'],
      status: subscription.default_payment_method ? 'requires_confirmation' : 'requires_payment_method',
      client_secret: '',
      latest_charge: null,
      last_payment_error: null,
      next_action: null,
      metadata: {},
      created: this.now(),
      livemode: false,
    };
    intent.client_secret = `${intent.id}_secret_${randomId('', 16)}`;
    const invoice: Obj = {
      id: randomId('in_'),
      object: 'invoice',
      customer: subscription.customer,
      status: 'open',
      billing_reason: reason,
      collection_method: 'charge_automatically',
      amount_due: price.unit_amount,
      amount_paid: 0,
      amount_remaining: price.unit_amount,
      currency: price.currency,
      attempt_count: 0,
      attempted: false,
      next_payment_attempt: null,
      period_start: start,
      period_end: end,
      lines: {
        object: 'list',
        has_more: false,
        data: [
          {
            id: randomId('il_'),
            object: 'line_item',
            amount: price.unit_amount,
            currency: price.currency,
            description: `1 × ${String(price.nickname ?? 'subscription')}`,
            period: { start, end },
            pricing: { type: 'price_details', price_details: { price: price.id, product: price.product } },
          },
        ],
      },
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: { subscription: subscription.id, metadata: subscription.metadata ?? {} },
      },
      payments: {
        object: 'list',
        has_more: false,
        data: [
          {
            id: randomId('inpay_'),
            object: 'invoice_payment',
            invoice: '',
            is_default: true,
            status: 'open',
            payment: { type: 'payment_intent', payment_intent: intent.id },
            amount_requested: price.unit_amount,
            amount_paid: null,
          },
        ],
      },
      confirmation_secret: { type: 'payment_intent', client_secret: intent.client_secret },
      created: this.now(),
      livemode: false,
    };
    ((invoice.payments as { data: Obj[] }).data[0] as Obj).invoice = invoice.id;
    intent._invoice = invoice.id;
    this.save('payment_intents', intent);
    this.save('invoices', invoice);
    subscription.latest_invoice = invoice.id;
    this.save('subscriptions', subscription);
    this.emit('invoice.created', invoice);
    this.emit('invoice.finalized', invoice);
    return invoice;
  }

  private intentOfInvoice(invoice: Obj): Obj {
    const payment = (invoice.payments as { data: Array<{ payment: { payment_intent: string } }> }).data[0]!;
    return this.find('payment_intents', payment.payment.payment_intent)!;
  }

  /** An invoice's intent succeeded: the invoice is paid and its subscription runs for the invoiced period. */
  private invoicePaid(invoiceId: string): void {
    const invoice = this.find('invoices', invoiceId);
    if (!invoice || invoice.status === 'paid') return;
    invoice.status = 'paid';
    invoice.amount_paid = invoice.amount_due;
    invoice.amount_remaining = 0;
    invoice.attempted = true;
    invoice.next_payment_attempt = null;
    const entry = (invoice.payments as { data: Obj[] }).data[0]!;
    entry.status = 'paid';
    entry.amount_paid = invoice.amount_due;
    this.save('invoices', invoice);
    const subscriptionId = (invoice.parent as { subscription_details: { subscription: string } })
      .subscription_details.subscription;
    const subscription = this.find('subscriptions', subscriptionId);
    if (subscription) {
      const previous = { status: subscription.status };
      const item = (subscription.items as { data: Obj[] }).data[0]!;
      item.current_period_start = invoice.period_start;
      item.current_period_end = invoice.period_end;
      subscription.status = 'active';
      this.save('subscriptions', subscription);
      this.emit('invoice.paid', invoice);
      this.emit('invoice.payment_succeeded', invoice);
      this.emit('customer.subscription.updated', subscription, previous);
    }
  }

  private invoiceFailed(invoice: Obj, subscription: Obj): void {
    invoice.attempt_count = Number(invoice.attempt_count ?? 0) + 1;
    invoice.attempted = true;
    invoice.next_payment_attempt = this.now() + 2 * 24 * 3600;
    this.save('invoices', invoice);
    this.emit('invoice.payment_failed', invoice);
    if (invoice.billing_reason !== 'subscription_create' && subscription.status !== 'past_due') {
      const previous = { status: subscription.status };
      subscription.status = 'past_due';
      this.save('subscriptions', subscription);
      this.emit('customer.subscription.updated', subscription, previous);
    }
  }

  private cancelSubscription(subscription: Obj): void {
    if (subscription.status === 'canceled') return;
    subscription.status = 'canceled';
    subscription.canceled_at = subscription.canceled_at ?? this.now();
    subscription.ended_at = this.now();
    this.save('subscriptions', subscription);
    this.emit('customer.subscription.deleted', subscription);
  }

  /** Charges the renewal of a subscription now (the clock reached its period end, or a control route asked). */
  renew(subscription: Obj, forced?: 'paid' | 'failed'): Obj {
    const item = (subscription.items as { data: Obj[] }).data[0]!;
    const start = Number(item.current_period_end);
    const months = this.monthsOf(item.price as Obj);
    const end = Math.floor(addMonths(new Date(start * 1000), months).getTime() / 1000);
    const invoice = this.createInvoice(subscription, 'subscription_cycle', start, end);
    const intent = this.intentOfInvoice(invoice);
    intent.payment_method = subscription.default_payment_method ?? null;
    const result = this.attemptCharge(intent, { offSession: true, forced });
    if ('ok' in result && !result.ok) this.invoiceFailed(invoice, subscription);
    return invoice;
  }

  /** Renewals, retries and scheduled cancellations due at the emulator's time. */
  async processDue(): Promise<void> {
    const now = this.now();
    for (let pass = 0; pass < 1000; pass += 1) {
      let acted = false;
      for (const subscription of this.store.values<Obj>('subscriptions')) {
        const status = subscription.status;
        if (status !== 'active' && status !== 'past_due') continue;
        const item = (subscription.items as { data: Obj[] }).data[0]!;
        const end = Number(item.current_period_end);
        if (status === 'active' && end <= now) {
          if (subscription.cancel_at_period_end) this.cancelSubscription(subscription);
          else this.renew(subscription);
          acted = true;
        } else if (status === 'past_due') {
          const invoice = this.find('invoices', String(subscription.latest_invoice));
          if (!invoice || invoice.status === 'paid') continue;
          if (Number(invoice.next_payment_attempt ?? Infinity) > now) continue;
          if (Number(invoice.attempt_count) >= 4) {
            invoice.status = 'uncollectible';
            this.save('invoices', invoice);
            this.cancelSubscription(subscription);
          } else {
            const intent = this.intentOfInvoice(invoice);
            const result = this.attemptCharge(intent, { offSession: true });
            if ('ok' in result && !result.ok) this.invoiceFailed(invoice, subscription);
          }
          acted = true;
        }
      }
      if (!acted) break;
    }
  }

  // -----------------------------------------------------------------------------------------------------------
  // Routes

  private routes(): void {
    const r = this.router;
    const secret =
      (handler: (request: EmulatorRequest) => EmulatorResponse | Promise<EmulatorResponse>) =>
      async (request: EmulatorRequest) => {
        const who = this.auth(request);
        if (typeof who !== 'string') return who;
        return this.once(request, () => handler(request));
      };
    /** Stripe.js may call these with the publishable key and the object's client secret. */
    const client =
      (
        collection: string,
        handler: (request: EmulatorRequest, object: Obj) => EmulatorResponse | Promise<EmulatorResponse>,
      ) =>
      async (request: EmulatorRequest) => {
        const who = this.auth(request, true);
        if (typeof who !== 'string') return who;
        const object = this.find(collection, request.params.id ?? '');
        const kind = collection === 'setup_intents' ? 'setup_intent' : 'payment_intent';
        if (!object) return missing(kind, request.params.id ?? '');
        if (who === 'publishable') {
          const given = str(request.body.client_secret) ?? str(request.query.client_secret);
          if (given !== object.client_secret) {
            return err(400, {
              type: 'invalid_request_error',
              code: 'resource_missing',
              message: `The client_secret provided does not match the client_secret associated with the ${kind}.`,
              param: 'client_secret',
            });
          }
        }
        return this.once(request, () => handler(request, object));
      };
    const expandOf = (request: EmulatorRequest) => [
      ...list(request.body.expand),
      ...list(request.query.expand),
    ];

    // Customers
    r.on(
      'POST',
      '/v1/customers',
      secret((request) => {
        const customer: Obj = {
          id: randomId('cus_'),
          object: 'customer',
          email: str(request.body.email) ?? null,
          name: str(request.body.name) ?? null,
          address: null,
          metadata: record(request.body.metadata),
          invoice_settings: { default_payment_method: null },
          created: this.now(),
          livemode: false,
        };
        return json(200, this.save('customers', customer));
      }),
    );
    r.on(
      'GET',
      '/v1/customers/:id',
      secret((request) => {
        const customer = this.find('customers', request.params.id!);
        return customer ? json(200, customer) : missing('customer', request.params.id!);
      }),
    );
    r.on(
      'POST',
      '/v1/customers/:id',
      secret((request) => {
        const customer = this.find('customers', request.params.id!);
        if (!customer) return missing('customer', request.params.id!);
        const settings = record(request.body.invoice_settings);
        if (settings.default_payment_method) {
          customer.invoice_settings = { default_payment_method: settings.default_payment_method };
        }
        if (request.body.name !== undefined) customer.name = str(request.body.name) ?? null;
        if (request.body.address !== undefined) customer.address = record(request.body.address);
        if (request.body.metadata !== undefined)
          customer.metadata = { ...record(customer.metadata), ...record(request.body.metadata) };
        return json(200, this.save('customers', customer));
      }),
    );

    // Payment methods
    r.on('POST', '/v1/payment_methods', async (request) => {
      const who = this.auth(request, true);
      if (typeof who !== 'string') return who;
      if (str(request.body.type) !== 'card')
        return invalid('type', 'Only card payment methods are emulated.');
      const created = this.createPaymentMethod(
        record(request.body.card),
        (request.body.billing_details ?? {}) as Record<string, unknown>,
      );
      return 'status' in created && typeof created.status === 'number' && !('object' in created)
        ? (created as EmulatorResponse)
        : json(200, created);
    });
    r.on(
      'GET',
      '/v1/payment_methods/:id',
      secret((request) => {
        const method = this.find('payment_methods', request.params.id!);
        return method ? json(200, method) : missing('payment_method', request.params.id!);
      }),
    );
    r.on(
      'POST',
      '/v1/payment_methods/:id/attach',
      secret((request) => {
        const method = this.find('payment_methods', request.params.id!);
        if (!method) return missing('payment_method', request.params.id!);
        const customer = str(request.body.customer);
        if (!customer || !this.find('customers', customer))
          return customer ? missing('customer', customer) : required('customer');
        if (method.customer && method.customer !== customer) {
          return invalid(
            'customer',
            'The payment method you provided has already been attached to a customer.',
          );
        }
        method.customer = customer;
        return json(200, this.save('payment_methods', method));
      }),
    );

    // Payment intents
    r.on(
      'POST',
      '/v1/payment_intents',
      secret((request) => {
        const amount = int(request.body.amount);
        if (amount === undefined) return required('amount');
        if (amount < 50) return invalid('amount', 'Amount must be at least $0.50 usd');
        const currency = str(request.body.currency);
        if (!currency) return required('currency');
        const intent: Obj = {
          id: randomId('pi_'),
          object: 'payment_intent',
          amount,
          amount_received: 0,
          currency: currency.toLowerCase(),
          customer: str(request.body.customer) ?? null,
          description: str(request.body.description) ?? null,
          payment_method: str(request.body.payment_method) ?? null,
          payment_method_types: ['card'],
          automatic_payment_methods: bool(record(request.body.automatic_payment_methods).enabled)
            ? { enabled: true }
            : null,
          status: 'requires_payment_method',
          client_secret: '',
          latest_charge: null,
          last_payment_error: null,
          next_action: null,
          metadata: record(request.body.metadata),
          created: this.now(),
          livemode: false,
        };
        intent.client_secret = `${intent.id}_secret_${randomId('', 16)}`;
        this.save('payment_intents', intent);
        this.emit('payment_intent.created', intent);
        return json(200, intent);
      }),
    );
    r.on(
      'GET',
      '/v1/payment_intents/:id',
      client('payment_intents', (request, intent) =>
        json(200, this.expand(this.publicIntent(intent), expandOf(request))),
      ),
    );
    r.on(
      'POST',
      '/v1/payment_intents/:id/confirm',
      client('payment_intents', (request, intent) => {
        if (intent.status === 'succeeded') {
          return err(400, {
            type: 'invalid_request_error',
            code: 'payment_intent_unexpected_state',
            message: 'This PaymentIntent has already succeeded.',
            payment_intent: this.publicIntent(intent),
          });
        }
        const pm = str(request.body.payment_method);
        if (pm) {
          if (!this.find('payment_methods', pm)) return missing('payment_method', pm);
          intent.payment_method = pm;
        } else if (request.body.payment_method_data) {
          const data = request.body.payment_method_data as Record<string, unknown>;
          const created = this.createPaymentMethod(
            record(data.card),
            (data.billing_details ?? {}) as Record<string, unknown>,
          );
          if (!('object' in created)) return created as EmulatorResponse;
          intent.payment_method = created.id;
        }
        if (!intent.payment_method) {
          return err(400, {
            type: 'invalid_request_error',
            code: 'payment_intent_unexpected_state',
            message: "You cannot confirm this PaymentIntent because it's missing a payment method.",
          });
        }
        const result = this.attemptCharge(intent, { offSession: bool(request.body.off_session) === true });
        if ('ok' in result && !result.ok) return err(402, result.error);
        return json(200, this.publicIntent(this.find('payment_intents', intent.id)!));
      }),
    );
    r.on(
      'POST',
      '/v1/payment_intents/:id/cancel',
      secret((request) => {
        const intent = this.find('payment_intents', request.params.id!);
        if (!intent) return missing('payment_intent', request.params.id!);
        if (intent.status === 'succeeded') {
          return err(400, {
            type: 'invalid_request_error',
            code: 'payment_intent_unexpected_state',
            message: 'You cannot cancel this PaymentIntent because it has a status of succeeded.',
          });
        }
        intent.status = 'canceled';
        this.save('payment_intents', intent);
        this.emit('payment_intent.canceled', intent);
        return json(200, this.publicIntent(intent));
      }),
    );

    // Setup intents
    r.on(
      'POST',
      '/v1/setup_intents',
      secret((request) => {
        const customer = str(request.body.customer);
        if (customer && !this.find('customers', customer)) return missing('customer', customer);
        const intent: Obj = {
          id: randomId('seti_'),
          object: 'setup_intent',
          customer: customer ?? null,
          payment_method: null,
          payment_method_types: ['card'],
          status: 'requires_payment_method',
          usage: str(request.body.usage) ?? 'off_session',
          client_secret: '',
          last_setup_error: null,
          next_action: null,
          metadata: record(request.body.metadata),
          created: this.now(),
          livemode: false,
        };
        intent.client_secret = `${intent.id}_secret_${randomId('', 16)}`;
        return json(200, this.save('setup_intents', intent));
      }),
    );
    r.on(
      'GET',
      '/v1/setup_intents/:id',
      client('setup_intents', (_request, intent) => json(200, intent)),
    );
    r.on(
      'POST',
      '/v1/setup_intents/:id/confirm',
      client('setup_intents', (request, intent) => {
        let pm = str(request.body.payment_method);
        if (!pm && request.body.payment_method_data) {
          const data = request.body.payment_method_data as Record<string, unknown>;
          const created = this.createPaymentMethod(
            record(data.card),
            (data.billing_details ?? {}) as Record<string, unknown>,
          );
          if (!('object' in created)) return created as EmulatorResponse;
          pm = created.id;
        }
        if (!pm || !this.find('payment_methods', pm))
          return pm ? missing('payment_method', pm) : required('payment_method');
        intent.payment_method = pm;
        const behaviour = this.behaviourOf(pm);
        if (behaviour.kind === 'decline') {
          const error = {
            type: 'card_error',
            code: behaviour.code,
            decline_code: behaviour.declineCode,
            message: behaviour.message,
          };
          intent.status = 'requires_payment_method';
          intent.last_setup_error = error;
          this.save('setup_intents', intent);
          this.emit('setup_intent.setup_failed', intent);
          return err(402, { ...error, setup_intent: intent });
        }
        if (behaviour.kind === 'three_d_secure' && request.body._authenticated !== 'true') {
          intent.status = 'requires_action';
          intent.next_action = {
            type: 'use_stripe_sdk',
            use_stripe_sdk: {
              type: 'three_d_secure_redirect',
              stripe_js: `${this.baseUrl}/_3ds/${intent.id}?client_secret=${encodeURIComponent(String(intent.client_secret))}`,
            },
          };
          return json(200, this.save('setup_intents', intent));
        }
        this.completeSetup(intent);
        return json(200, this.find('setup_intents', intent.id));
      }),
    );

    // Products and prices
    r.on(
      'POST',
      '/v1/products',
      secret((request) => {
        const name = str(request.body.name);
        if (!name) return required('name');
        const product: Obj = {
          id: randomId('prod_', 14),
          object: 'product',
          name,
          active: true,
          metadata: record(request.body.metadata),
          created: this.now(),
          livemode: false,
        };
        return json(200, this.save('products', product));
      }),
    );
    r.on(
      'POST',
      '/v1/prices',
      secret((request) => {
        const amount = int(request.body.unit_amount);
        if (amount === undefined) return required('unit_amount');
        const currency = str(request.body.currency);
        if (!currency) return required('currency');
        const recurring = record(request.body.recurring);
        if (recurring.interval && recurring.interval !== 'month')
          return invalid('recurring[interval]', 'Only monthly intervals are emulated.');
        let product = str(request.body.product);
        if (!product) {
          const data = record(request.body.product_data);
          if (!data.name) return required('product');
          product = randomId('prod_', 14);
          this.save('products', {
            id: product,
            object: 'product',
            name: data.name,
            active: true,
            metadata: {},
            created: this.now(),
            livemode: false,
          });
        }
        const price: Obj = {
          id: randomId('price_'),
          object: 'price',
          active: true,
          currency: currency.toLowerCase(),
          unit_amount: amount,
          product,
          nickname: record(request.body.product_data).name ?? null,
          type: recurring.interval ? 'recurring' : 'one_time',
          recurring: recurring.interval
            ? { interval: 'month', interval_count: Number(recurring.interval_count ?? 1) }
            : null,
          metadata: record(request.body.metadata),
          created: this.now(),
          livemode: false,
        };
        return json(200, this.save('prices', price));
      }),
    );

    // Subscriptions
    r.on(
      'POST',
      '/v1/subscriptions',
      secret((request) => {
        const customer = str(request.body.customer);
        if (!customer) return required('customer');
        if (!this.find('customers', customer)) return missing('customer', customer);
        const items = request.body.items as
          Array<Record<string, unknown>> | Record<string, Record<string, unknown>> | undefined;
        const first = Array.isArray(items) ? items[0] : items ? Object.values(items)[0] : undefined;
        const priceId = str(first?.price);
        if (!priceId) return required('items');
        const price = this.find('prices', priceId);
        if (!price) return missing('price', priceId);
        const method =
          str(request.body.default_payment_method) ??
          (this.find('customers', customer)!.invoice_settings as { default_payment_method?: string | null })
            ?.default_payment_method ??
          null;
        const now = this.now();
        const end = Math.floor(addMonths(new Date(now * 1000), this.monthsOf(price)).getTime() / 1000);
        const subscription: Obj = {
          id: randomId('sub_'),
          object: 'subscription',
          customer,
          status: 'incomplete',
          cancel_at_period_end: false,
          canceled_at: null,
          ended_at: null,
          default_payment_method: method,
          latest_invoice: null,
          collection_method: 'charge_automatically',
          items: {
            object: 'list',
            data: [
              {
                id: randomId('si_'),
                object: 'subscription_item',
                price,
                quantity: 1,
                current_period_start: now,
                current_period_end: end,
              },
            ],
          },
          metadata: record(request.body.metadata),
          start_date: now,
          created: now,
          livemode: false,
        };
        this.save('subscriptions', subscription);
        this.emit('customer.subscription.created', subscription);
        this.createInvoice(subscription, 'subscription_create', now, end);
        return json(
          200,
          this.expand(this.find('subscriptions', subscription.id)!, list(request.body.expand)),
        );
      }),
    );
    r.on(
      'GET',
      '/v1/subscriptions/:id',
      secret((request) => {
        const subscription = this.find('subscriptions', request.params.id!);
        return subscription
          ? json(200, this.expand(subscription, expandOf(request)))
          : missing('subscription', request.params.id!);
      }),
    );
    r.on(
      'POST',
      '/v1/subscriptions/:id',
      secret((request) => {
        const subscription = this.find('subscriptions', request.params.id!);
        if (!subscription) return missing('subscription', request.params.id!);
        if (subscription.status === 'canceled') {
          return err(400, {
            type: 'invalid_request_error',
            message: 'A canceled subscription can only update its cancellation_details and metadata.',
          });
        }
        const previous: Record<string, unknown> = {};
        const cancel = bool(request.body.cancel_at_period_end);
        if (cancel !== undefined && cancel !== subscription.cancel_at_period_end) {
          previous.cancel_at_period_end = subscription.cancel_at_period_end;
          subscription.cancel_at_period_end = cancel;
          subscription.canceled_at = cancel ? this.now() : null;
        }
        const method = str(request.body.default_payment_method);
        if (method) subscription.default_payment_method = method;
        if (request.body.metadata !== undefined)
          subscription.metadata = { ...record(subscription.metadata), ...record(request.body.metadata) };
        this.save('subscriptions', subscription);
        this.emit('customer.subscription.updated', subscription, previous);
        return json(200, subscription);
      }),
    );
    r.on(
      'DELETE',
      '/v1/subscriptions/:id',
      secret((request) => {
        const subscription = this.find('subscriptions', request.params.id!);
        if (!subscription) return missing('subscription', request.params.id!);
        this.cancelSubscription(subscription);
        return json(200, subscription);
      }),
    );

    // Invoices, charges, refunds, disputes, events
    r.on(
      'GET',
      '/v1/invoices/:id',
      secret((request) => {
        const invoice = this.find('invoices', request.params.id!);
        return invoice ? json(200, invoice) : missing('invoice', request.params.id!);
      }),
    );
    r.on(
      'GET',
      '/v1/charges/:id',
      secret((request) => {
        const charge = this.find('charges', request.params.id!);
        return charge ? json(200, charge) : missing('charge', request.params.id!);
      }),
    );
    r.on(
      'POST',
      '/v1/refunds',
      secret((request) => {
        let chargeId = str(request.body.charge);
        const intentId = str(request.body.payment_intent);
        if (!chargeId && intentId) {
          const intent = this.find('payment_intents', intentId);
          if (!intent) return missing('payment_intent', intentId);
          chargeId = (intent.latest_charge as string | null) ?? undefined;
        }
        if (!chargeId) return required('charge');
        const charge = this.find('charges', chargeId);
        if (!charge) return missing('charge', chargeId);
        if (charge.status !== 'succeeded')
          return invalid('charge', 'This charge cannot be refunded because it was not successful.');
        const remaining = Number(charge.amount) - Number(charge.amount_refunded);
        const amount = int(request.body.amount) ?? remaining;
        if (amount <= 0 || amount > remaining) {
          return err(400, {
            type: 'invalid_request_error',
            code: 'charge_already_refunded',
            message: `Charge ${chargeId} has already been refunded.`,
          });
        }
        const refund: Obj = {
          id: randomId('re_'),
          object: 'refund',
          amount,
          currency: charge.currency,
          charge: charge.id,
          payment_intent: charge.payment_intent,
          reason: str(request.body.reason) ?? null,
          status: 'succeeded',
          metadata: record(request.body.metadata),
          created: this.now(),
        };
        this.save('refunds', refund);
        charge.amount_refunded = Number(charge.amount_refunded) + amount;
        charge.refunded = charge.amount_refunded === charge.amount;
        this.save('charges', charge);
        this.emit('refund.created', refund);
        this.emit('charge.refunded', charge);
        return json(200, refund);
      }),
    );
    r.on(
      'GET',
      '/v1/refunds',
      secret((request) => {
        const charge = str(request.query.charge);
        const intent = str(request.query.payment_intent);
        const data = this.store
          .values<Obj>('refunds')
          .filter(
            (refund) =>
              (!charge || refund.charge === charge) && (!intent || refund.payment_intent === intent),
          )
          .sort((a, b) => Number(b.created) - Number(a.created));
        return json(200, { object: 'list', data, has_more: false, url: '/v1/refunds' });
      }),
    );
    r.on(
      'GET',
      '/v1/refunds/:id',
      secret((request) => {
        const refund = this.find('refunds', request.params.id!);
        return refund ? json(200, refund) : missing('refund', request.params.id!);
      }),
    );
    r.on(
      'GET',
      '/v1/disputes/:id',
      secret((request) => {
        const dispute = this.find('disputes', request.params.id!);
        return dispute ? json(200, dispute) : missing('dispute', request.params.id!);
      }),
    );
    r.on(
      'GET',
      '/v1/events/:id',
      secret((request) => {
        const event = this.find('events', request.params.id!);
        return event ? json(200, event) : missing('event', request.params.id!);
      }),
    );

    // 3-D Secure: the authentication page Stripe.js opens, and its answer.
    r.on('GET', '/_3ds/:id', (request) => {
      const id = request.params.id!;
      const intent = this.find(id.startsWith('seti_') ? 'setup_intents' : 'payment_intents', id);
      if (!intent || intent.client_secret !== str(request.query.client_secret)) {
        return {
          status: 404,
          text: page('Not found', '#635bff', '<h1>Unknown payment</h1>'),
          contentType: 'text/html',
        };
      }
      const amount =
        typeof intent.amount === 'number'
          ? money(intent.amount, String(intent.currency).toUpperCase())
          : 'Saving your card';
      return {
        status: 200,
        contentType: 'text/html',
        text: page(
          '3-D Secure',
          '#635bff',
          `<h1>3-D Secure authentication</h1><p class="muted">Your bank asks you to confirm: <strong>${escapeHtml(amount)}</strong></p>
<div class="card"><button id="complete">Complete authentication</button><button class="secondary" id="fail">Fail authentication</button></div>`,
          `const decide=(outcome)=>fetch(location.pathname.replace('/_3ds/','/_emulator/3ds/'),{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify({client_secret:${JSON.stringify(intent.client_secret)},outcome})}).then(()=>parent.postMessage({type:'backbeat-emulator:3ds-done',id:${JSON.stringify(id)}},'*'));
document.getElementById('complete').onclick=()=>decide('complete');document.getElementById('fail').onclick=()=>decide('fail');`,
        ),
      };
    });
    r.on('POST', '/_emulator/3ds/:id', (request) => {
      const id = request.params.id!;
      const setup = id.startsWith('seti_');
      const intent = this.find(setup ? 'setup_intents' : 'payment_intents', id);
      if (!intent || intent.client_secret !== str(request.body.client_secret))
        return json(404, { error: 'unknown intent' });
      if (intent.status !== 'requires_action')
        return json(409, { error: `intent is ${String(intent.status)}` });
      if (request.body.outcome === 'complete') {
        if (setup) this.completeSetup(intent);
        else this.attemptCharge(intent, { offSession: false, authenticated: true });
      } else {
        const error = {
          type: 'invalid_request_error',
          code: setup ? 'setup_intent_authentication_failure' : 'payment_intent_authentication_failure',
          message:
            'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
        };
        intent.status = 'requires_payment_method';
        intent.next_action = null;
        intent[setup ? 'last_setup_error' : 'last_payment_error'] = error;
        this.save(setup ? 'setup_intents' : 'payment_intents', intent);
        if (!setup) this.emit('payment_intent.payment_failed', intent);
      }
      return json(200, { ok: true });
    });
  }

  private completeSetup(intent: Obj): void {
    const method = this.find('payment_methods', String(intent.payment_method));
    if (method && intent.customer && !method.customer) {
      method.customer = intent.customer;
      this.save('payment_methods', method);
    }
    intent.status = 'succeeded';
    intent.next_action = null;
    intent.last_setup_error = null;
    this.save('setup_intents', intent);
    this.emit('setup_intent.succeeded', intent);
  }

  // -----------------------------------------------------------------------------------------------------------
  // Control (tests and the README's routes)

  findSubscription(id: string): Obj | undefined {
    return this.find('subscriptions', id);
  }

  /** Opens a dispute on a charge (or on a PaymentIntent's charge). */
  dispute(chargeOrIntent: string): Obj | null {
    let charge = this.find('charges', chargeOrIntent);
    if (!charge) {
      const intent = this.find('payment_intents', chargeOrIntent);
      charge = intent?.latest_charge ? this.find('charges', String(intent.latest_charge)) : undefined;
    }
    if (!charge) return null;
    const dispute: Obj = {
      id: randomId('dp_'),
      object: 'dispute',
      amount: charge.amount,
      currency: charge.currency,
      charge: charge.id,
      payment_intent: charge.payment_intent,
      reason: 'fraudulent',
      status: 'needs_response',
      created: this.now(),
      livemode: false,
    };
    this.save('disputes', dispute);
    charge.disputed = true;
    this.save('charges', charge);
    this.emit('charge.dispute.created', dispute);
    return dispute;
  }

  /** Refunds a charge or intent as a merchant would from the dashboard. */
  refundFromDashboard(chargeOrIntent: string): Obj | null {
    let charge = this.find('charges', chargeOrIntent);
    if (!charge) {
      const intent = this.find('payment_intents', chargeOrIntent);
      charge = intent?.latest_charge ? this.find('charges', String(intent.latest_charge)) : undefined;
    }
    if (!charge || charge.status !== 'succeeded' || charge.refunded) return null;
    const amount = Number(charge.amount) - Number(charge.amount_refunded);
    const refund: Obj = {
      id: randomId('re_'),
      object: 'refund',
      amount,
      currency: charge.currency,
      charge: charge.id,
      payment_intent: charge.payment_intent,
      reason: 'requested_by_customer',
      status: 'succeeded',
      metadata: {},
      created: this.now(),
    };
    this.save('refunds', refund);
    charge.amount_refunded = charge.amount;
    charge.refunded = true;
    this.save('charges', charge);
    this.emit('refund.created', refund);
    this.emit('charge.refunded', charge);
    return refund;
  }

  /** Ends a subscription at once, as a failed dunning run or the dashboard would. */
  deleteSubscription(id: string): Obj | null {
    const subscription = this.find('subscriptions', id);
    if (!subscription) return null;
    this.cancelSubscription(subscription);
    return subscription;
  }

  /** The test cards, for the card form and the README. */
  static testCards(): Array<{ number: string; note: string }> {
    return Object.entries(STRIPE_TEST_CARDS).map(([number, card]) => ({ number, note: card.note }));
  }
}
