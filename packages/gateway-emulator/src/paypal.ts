import { createSign, createVerify, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { crc32 } from 'node:zlib';
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
import { basicAuth, bearer, json, Router, type EmulatorRequest, type EmulatorResponse } from './http';

export interface PaypalCredentials {
  clientId: string;
  clientSecret: string;
  webhookId: string;
}

type Obj = Record<string, unknown> & { id: string };

const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** PayPal's error body: `{ name, message, debug_id, details: [{ issue, description }] }`. */
function paypalError(status: number, name: string, issue: string, description: string): EmulatorResponse {
  return json(status, {
    name,
    message:
      status === 422
        ? 'The requested action could not be performed, semantically incorrect, or failed business validation.'
        : status === 404
          ? 'The specified resource does not exist.'
          : 'Request is not well-formed, syntactically incorrect, or violates schema.',
    debug_id: randomId('', 13).toLowerCase(),
    details: [{ issue, description }],
  });
}
const notFound = () =>
  paypalError(404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID', 'Specified resource ID does not exist.');

/** Decimal strings of PayPal's API to minor units and back. */
function digits(currency: string): number {
  try {
    return (
      new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits ?? 2
    );
  } catch {
    return 2;
  }
}
const toMinor = (value: string, currency: string) => Math.round(Number(value) * 10 ** digits(currency));
const toDecimal = (minor: number, currency: string) =>
  (minor / 10 ** digits(currency)).toFixed(digits(currency));

/** What PayPal signs for a webhook: `${transmissionId}|${time}|${webhookId}|${crc32(body)}` (SHA256withRSA). */
export function paypalSignedText(
  transmissionId: string,
  time: string,
  webhookId: string,
  body: string,
): string {
  return `${transmissionId}|${time}|${webhookId}|${crc32(body) >>> 0}`;
}

/**
 * PayPal's REST API (OAuth, Orders v2 with approval and capture, captures and refunds, catalog products, billing
 * plans and subscriptions, webhook verification) with state, approval pages, and webhooks signed as PayPal signs
 * them (SHA256withRSA with the emulator's own key, checked by verify-webhook-signature).
 */
export class PaypalEmulator {
  readonly router = new Router();
  baseUrl = '';
  private readonly tokens = new Set<string>();
  private readonly requestIds = new Map<string, EmulatorResponse>();
  private readonly keys: { publicKey: KeyObject; privateKey: KeyObject };

  constructor(
    private readonly credentials: PaypalCredentials,
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly webhooks: WebhookDispatcher,
  ) {
    this.keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.routes();
    clock.onAdvance(() => this.processDue());
  }

  private now(): Date {
    return this.clock.now();
  }

  private iso(date: Date = this.now()): string {
    return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
  }

  private save<T extends Obj>(collection: string, value: T): T {
    return this.store.put(collection, value.id, value);
  }

  private find(collection: string, id: string): Obj | undefined {
    return this.store.get<Obj>(collection, id);
  }

  private authorised(request: EmulatorRequest): EmulatorResponse | null {
    const token = bearer(request.headers);
    if (token && this.tokens.has(token)) return null;
    return json(401, { error: 'invalid_token', error_description: 'Token signature verification failed' });
  }

  /** Answers a repeated PayPal-Request-Id with the first answer (PayPal's idempotency). */
  private async idempotent(
    request: EmulatorRequest,
    run: () => EmulatorResponse | Promise<EmulatorResponse>,
  ) {
    const id = request.headers['paypal-request-id'];
    if (typeof id !== 'string') return run();
    const key = `${request.path}\n${id}`;
    const known = this.requestIds.get(key);
    if (known) return known;
    const answer = await run();
    if (answer.status < 500 && answer.status !== 422) this.requestIds.set(key, answer);
    return answer;
  }

  emit(type: string, resourceType: string, resource: Obj, summary: string): void {
    const event = {
      id: `WH-${randomId('', 17).toUpperCase()}`,
      event_version: '1.0',
      create_time: this.iso(),
      resource_type: resourceType,
      resource_version: '2.0',
      event_type: type,
      summary,
      resource,
      links: [
        {
          href: `${this.baseUrl}/v1/notifications/webhooks-events/${resource.id}`,
          rel: 'self',
          method: 'GET',
        },
      ],
    };
    const body = JSON.stringify(event);
    this.webhooks.send('paypal', event.id, type, body, () => {
      const transmissionId = randomUUID();
      const time = new Date().toISOString();
      const signature = createSign('RSA-SHA256')
        .update(paypalSignedText(transmissionId, time, this.credentials.webhookId, body))
        .sign(this.keys.privateKey, 'base64');
      return {
        'paypal-transmission-id': transmissionId,
        'paypal-transmission-time': time,
        'paypal-transmission-sig': signature,
        'paypal-cert-url': `${this.baseUrl}/v1/notifications/certs/CERT-backbeat-emulator`,
        'paypal-auth-algo': 'SHA256withRSA',
      };
    });
  }

  private link(path: string, rel: string, method = 'GET') {
    return { href: `${this.baseUrl}${path}`, rel, method };
  }

  // -----------------------------------------------------------------------------------------------------------
  // Orders

  private orderView(order: Obj): Obj {
    const out: Obj = { ...order };
    for (const key of Object.keys(out)) if (key.startsWith('_')) delete out[key];
    return out;
  }

  /** The buyer approved the order on the approval page (as the chosen test buyer). */
  approveOrder(id: string, buyer: 'pays' | 'declined', overrideAmount?: string): Obj | null {
    const order = this.find('orders', id);
    if (!order || (order.status !== 'CREATED' && order.status !== 'APPROVED')) return null;
    order.status = 'APPROVED';
    order._buyer = buyer;
    if (overrideAmount) order._captureAmount = overrideAmount;
    order.payer = {
      payer_id: buyer === 'pays' ? 'TESTBUYER01' : 'TESTBUYERDECLINED',
      email_address: buyer === 'pays' ? 'buyer@example.com' : 'declined-buyer@example.com',
      name: { given_name: 'Test', surname: 'Buyer' },
    };
    this.save('orders', order);
    this.emit(
      'CHECKOUT.ORDER.APPROVED',
      'checkout-order',
      this.orderView(order),
      'An order has been approved by buyer',
    );
    return order;
  }

  private capture(order: Obj): EmulatorResponse {
    if (order.status === 'COMPLETED') {
      return paypalError(
        422,
        'UNPROCESSABLE_ENTITY',
        'ORDER_ALREADY_CAPTURED',
        "Order already captured.If 'intent=CAPTURE' only one capture per order is allowed.",
      );
    }
    if (order.status !== 'APPROVED') {
      return paypalError(
        422,
        'UNPROCESSABLE_ENTITY',
        'ORDER_NOT_APPROVED',
        "Payer has not yet approved the Order for payment. Please redirect the payer to the 'rel':'approve' url returned as part of the HATEOAS links within the Create Order call or provide a valid payment_source in the request.",
      );
    }
    const unit = (order.purchase_units as Array<Record<string, unknown>>)[0]!;
    const amount = unit.amount as { currency_code: string; value: string };
    if (order._buyer === 'declined') {
      const captureId = randomId('', 17).toUpperCase();
      const denied: Obj = {
        id: captureId,
        status: 'DECLINED',
        amount,
        custom_id: unit.custom_id ?? null,
        supplementary_data: { related_ids: { order_id: order.id } },
        create_time: this.iso(),
        update_time: this.iso(),
      };
      this.save('captures', denied);
      this.emit(
        'PAYMENT.CAPTURE.DENIED',
        'capture',
        denied,
        `Payment denied for ${amount.value} ${amount.currency_code}`,
      );
      return paypalError(
        422,
        'UNPROCESSABLE_ENTITY',
        'INSTRUMENT_DECLINED',
        "The instrument presented was either declined by the processor or bank, or it can't be used for this payment.",
      );
    }
    const capturedAmount = {
      currency_code: amount.currency_code,
      value: str(order._captureAmount) ?? amount.value,
    };
    const capture: Obj = {
      id: randomId('', 17).toUpperCase(),
      status: 'COMPLETED',
      amount: capturedAmount,
      final_capture: true,
      seller_protection: {
        status: 'ELIGIBLE',
        dispute_categories: ['ITEM_NOT_RECEIVED', 'UNAUTHORIZED_TRANSACTION'],
      },
      seller_receivable_breakdown: {
        gross_amount: capturedAmount,
        paypal_fee: { currency_code: amount.currency_code, value: '0.00' },
        net_amount: capturedAmount,
      },
      custom_id: unit.custom_id ?? null,
      supplementary_data: { related_ids: { order_id: order.id } },
      create_time: this.iso(),
      update_time: this.iso(),
      links: [] as unknown[],
    };
    capture.links = [
      this.link(`/v2/payments/captures/${capture.id}`, 'self'),
      this.link(`/v2/payments/captures/${capture.id}/refund`, 'refund', 'POST'),
      this.link(`/v2/checkout/orders/${order.id}`, 'up'),
    ];
    this.save('captures', capture);
    order.status = 'COMPLETED';
    unit.payments = { captures: [capture] };
    order.update_time = this.iso();
    this.save('orders', order);
    this.emit(
      'PAYMENT.CAPTURE.COMPLETED',
      'capture',
      capture,
      `Payment completed for ${capturedAmount.value} ${capturedAmount.currency_code}`,
    );
    return json(201, this.orderView(order));
  }

  refundCapture(captureId: string, amountValue?: string, note?: string): EmulatorResponse {
    const capture = this.find('captures', captureId);
    if (!capture) return notFound();
    if (capture.status !== 'COMPLETED') {
      return paypalError(
        422,
        'UNPROCESSABLE_ENTITY',
        'CAPTURE_FULLY_REFUNDED',
        'The capture has already been fully refunded',
      );
    }
    const amount = capture.amount as { currency_code: string; value: string };
    const refund: Obj = {
      id: randomId('', 17).toUpperCase(),
      status: 'COMPLETED',
      amount: { currency_code: amount.currency_code, value: amountValue ?? amount.value },
      note_to_payer: note ?? null,
      create_time: this.iso(),
      update_time: this.iso(),
      links: [] as unknown[],
    };
    refund.links = [
      this.link(`/v2/payments/refunds/${refund.id}`, 'self'),
      this.link(`/v2/payments/captures/${capture.id}`, 'up'),
    ];
    this.save('refunds', refund);
    capture.status = 'REFUNDED';
    this.save('captures', capture);
    this.emit(
      'PAYMENT.CAPTURE.REFUNDED',
      'refund',
      refund,
      `A ${amount.value} ${amount.currency_code} capture payment was refunded`,
    );
    return json(201, refund);
  }

  // -----------------------------------------------------------------------------------------------------------
  // Subscriptions

  private planOf(subscription: Obj): Obj {
    return this.find('plans', String(subscription.plan_id))!;
  }

  private cyclePrice(plan: Obj): { value: string; currency_code: string; months: number } {
    const cycle = (plan.billing_cycles as Array<Record<string, unknown>>)[0]!;
    const price = (cycle.pricing_scheme as { fixed_price: { value: string; currency_code: string } })
      .fixed_price;
    const frequency = cycle.frequency as { interval_unit: string; interval_count?: number };
    return { ...price, months: Number(frequency.interval_count ?? 1) };
  }

  /** A subscription payment (a sale) for the cycle starting now: it moves the billing info forward. */
  private sale(subscription: Obj): Obj {
    const plan = this.planOf(subscription);
    const price = this.cyclePrice(plan);
    const paidAt = this.now();
    const start = subscription._nextBilling ? new Date(String(subscription._nextBilling)) : paidAt;
    const next = addMonths(start < paidAt ? paidAt : start, price.months);
    const sale: Obj = {
      id: randomId('', 17).toUpperCase(),
      state: 'completed',
      amount: { total: price.value, currency: price.currency_code, details: { subtotal: price.value } },
      payment_mode: 'INSTANT_TRANSFER',
      protection_eligibility: 'ELIGIBLE',
      billing_agreement_id: subscription.id,
      custom: subscription.custom_id ?? null,
      create_time: this.iso(paidAt),
      update_time: this.iso(paidAt),
    };
    this.save('sales', sale);
    subscription.status = 'ACTIVE';
    subscription._nextBilling = next.toISOString();
    subscription._failures = 0;
    subscription.billing_info = {
      outstanding_balance: { currency_code: price.currency_code, value: '0.00' },
      cycle_executions: [
        {
          tenure_type: 'REGULAR',
          sequence: 1,
          cycles_completed: Number(subscription._cycles ?? 0) + 1,
          cycles_remaining: 0,
          total_cycles: 0,
        },
      ],
      last_payment: {
        amount: { currency_code: price.currency_code, value: price.value },
        time: this.iso(paidAt),
      },
      next_billing_time: this.iso(next),
      failed_payments_count: 0,
    };
    subscription._cycles = Number(subscription._cycles ?? 0) + 1;
    subscription.status_update_time = this.iso(paidAt);
    this.save('subscriptions', subscription);
    this.emit(
      'PAYMENT.SALE.COMPLETED',
      'sale',
      sale,
      `Payment completed for ${price.value} ${price.currency_code}`,
    );
    return sale;
  }

  approveSubscription(id: string, buyer: 'pays' | 'declined'): { ok: true } | { ok: false; message: string } {
    const subscription = this.find('subscriptions', id);
    if (!subscription || subscription.status !== 'APPROVAL_PENDING')
      return { ok: false, message: 'This subscription cannot be approved' };
    if (buyer === 'declined') {
      return { ok: false, message: 'The instrument presented was either declined by the processor or bank.' };
    }
    subscription.subscriber = {
      payer_id: 'TESTBUYER01',
      email_address: 'buyer@example.com',
      name: { given_name: 'Test', surname: 'Buyer' },
    };
    subscription.start_time = this.iso();
    subscription.status = 'ACTIVE';
    this.save('subscriptions', subscription);
    this.emit(
      'BILLING.SUBSCRIPTION.ACTIVATED',
      'subscription',
      this.orderView(subscription),
      'Subscription activated',
    );
    this.sale(subscription);
    return { ok: true };
  }

  /** The next billing of an active subscription: paid (a sale) or failed (then suspended after 3 failures). */
  bill(subscription: Obj, forced?: 'paid' | 'failed'): void {
    const failed = forced === 'failed' || (forced === undefined && subscription._failCharges === true);
    if (!failed) {
      this.sale(subscription);
      return;
    }
    subscription._failures = Number(subscription._failures ?? 0) + 1;
    const info = (subscription.billing_info ?? {}) as Record<string, unknown>;
    const price = this.cyclePrice(this.planOf(subscription));
    info.failed_payments_count = subscription._failures;
    info.last_failed_payment = {
      amount: { currency_code: price.currency_code, value: price.value },
      time: this.iso(),
      reason_code: 'PAYMENT_DENIED',
    };
    subscription.billing_info = info;
    subscription._retryAt = new Date(this.now().getTime() + 24 * 3600 * 1000).toISOString();
    this.save('subscriptions', subscription);
    this.emit(
      'BILLING.SUBSCRIPTION.PAYMENT.FAILED',
      'subscription',
      this.orderView(subscription),
      'Subscription payment failed',
    );
    if (Number(subscription._failures) >= 3) {
      subscription.status = 'SUSPENDED';
      subscription.status_update_time = this.iso();
      this.save('subscriptions', subscription);
      this.emit(
        'BILLING.SUBSCRIPTION.SUSPENDED',
        'subscription',
        this.orderView(subscription),
        'Subscription suspended',
      );
    }
  }

  async processDue(): Promise<void> {
    const now = this.now();
    for (let pass = 0; pass < 1000; pass += 1) {
      let acted = false;
      for (const subscription of this.store.values<Obj>('subscriptions')) {
        if (subscription.status !== 'ACTIVE' || !subscription._nextBilling) continue;
        const due =
          Number(subscription._failures ?? 0) > 0
            ? String(subscription._retryAt)
            : String(subscription._nextBilling);
        if (new Date(due) <= now) {
          this.bill(subscription);
          acted = true;
        }
      }
      if (!acted) break;
    }
  }

  cancelSubscription(id: string, reason = 'Cancelled'): boolean {
    const subscription = this.find('subscriptions', id);
    if (!subscription || subscription.status === 'CANCELLED' || subscription.status === 'EXPIRED')
      return false;
    subscription.status = 'CANCELLED';
    subscription.status_change_note = reason;
    subscription.status_update_time = this.iso();
    this.save('subscriptions', subscription);
    this.emit(
      'BILLING.SUBSCRIPTION.CANCELLED',
      'subscription',
      this.orderView(subscription),
      'Subscription cancelled',
    );
    return true;
  }

  refundSale(saleId: string, amountTotal?: string): EmulatorResponse {
    const sale = this.find('sales', saleId);
    if (!sale) return notFound();
    if (sale.state !== 'completed')
      return paypalError(400, 'TRANSACTION_REFUSED', 'TRANSACTION_REFUSED', 'The sale was already refunded');
    const amount = sale.amount as { total: string; currency: string };
    const refund: Obj = {
      id: randomId('', 17).toUpperCase(),
      state: 'completed',
      amount: { total: amountTotal ?? amount.total, currency: amount.currency },
      sale_id: sale.id,
      parent_payment: sale.billing_agreement_id,
      create_time: this.iso(),
      update_time: this.iso(),
    };
    this.save('sale_refunds', refund);
    sale.state = 'refunded';
    this.save('sales', sale);
    this.emit(
      'PAYMENT.SALE.REFUNDED',
      'refund',
      refund,
      `A ${amount.total} ${amount.currency} sale payment was refunded`,
    );
    return json(201, refund);
  }

  dispute(transactionId: string): Obj | null {
    const capture = this.find('captures', transactionId);
    const sale = capture ? undefined : this.find('sales', transactionId);
    if (!capture && !sale) return null;
    const amount = capture
      ? (capture.amount as { currency_code: string; value: string })
      : {
          currency_code: (sale!.amount as { currency: string }).currency,
          value: (sale!.amount as { total: string }).total,
        };
    const dispute: Obj = {
      id: `PP-D-${randomId('', 6).toUpperCase()}`,
      dispute_id: '',
      create_time: this.iso(),
      update_time: this.iso(),
      disputed_transactions: [
        { seller_transaction_id: transactionId, buyer_transaction_id: randomId('', 17).toUpperCase() },
      ],
      reason: 'MERCHANDISE_OR_SERVICE_NOT_RECEIVED',
      status: 'OPEN',
      dispute_amount: amount,
      dispute_life_cycle_stage: 'INQUIRY',
    };
    dispute.dispute_id = dispute.id;
    this.save('disputes', dispute);
    this.emit('CUSTOMER.DISPUTE.CREATED', 'dispute', dispute, 'A new dispute opened');
    return dispute;
  }

  findOrder(id: string): Obj | undefined {
    return this.find('orders', id);
  }

  findSubscription(id: string): Obj | undefined {
    return this.find('subscriptions', id);
  }

  // -----------------------------------------------------------------------------------------------------------

  private routes(): void {
    const r = this.router;
    const api =
      (handler: (request: EmulatorRequest) => EmulatorResponse | Promise<EmulatorResponse>) =>
      async (request: EmulatorRequest) =>
        this.authorised(request) ?? this.idempotent(request, () => handler(request));

    r.on('POST', '/v1/oauth2/token', (request) => {
      const auth = basicAuth(request.headers);
      if (auth?.user !== this.credentials.clientId || auth.password !== this.credentials.clientSecret) {
        return json(401, { error: 'invalid_client', error_description: 'Client Authentication failed' });
      }
      if (request.body.grant_type !== 'client_credentials') {
        return json(400, { error: 'unsupported_grant_type', error_description: 'Grant Type is NULL' });
      }
      const token = `A21AA${randomId('', 60)}`;
      this.tokens.add(token);
      return json(200, {
        scope:
          'https://uri.paypal.com/services/payments/payment https://uri.paypal.com/services/subscriptions',
        access_token: token,
        token_type: 'Bearer',
        app_id: 'APP-80W284485P519543T',
        expires_in: 32400,
        nonce: `${this.iso()}${randomId('', 20)}`,
      });
    });

    r.on(
      'POST',
      '/v2/checkout/orders',
      api((request) => {
        const units = request.body.purchase_units;
        if (request.body.intent !== 'CAPTURE')
          return paypalError(
            400,
            'INVALID_REQUEST',
            'INVALID_PARAMETER_VALUE',
            'Only intent CAPTURE is emulated.',
          );
        if (!Array.isArray(units) || units.length === 0)
          return paypalError(
            400,
            'INVALID_REQUEST',
            'MISSING_REQUIRED_PARAMETER',
            'purchase_units is required.',
          );
        const unit = units[0] as Record<string, unknown>;
        const amount = unit.amount as { currency_code?: string; value?: string } | undefined;
        if (!amount?.currency_code || !amount.value || !/^\d+(\.\d{1,3})?$/.test(amount.value)) {
          return paypalError(
            400,
            'INVALID_REQUEST',
            'INVALID_PARAMETER_VALUE',
            'purchase_units[0].amount is invalid.',
          );
        }
        const order: Obj = {
          id: randomId('', 17).toUpperCase(),
          intent: 'CAPTURE',
          status: 'CREATED',
          purchase_units: [
            {
              reference_id: unit.reference_id ?? 'default',
              custom_id: unit.custom_id ?? null,
              description: unit.description ?? null,
              amount: { currency_code: amount.currency_code, value: amount.value },
            },
          ],
          create_time: this.iso(),
          links: [] as unknown[],
        };
        order.links = [
          this.link(`/v2/checkout/orders/${order.id}`, 'self'),
          this.link(`/checkoutnow?token=${order.id}`, 'approve'),
          this.link(`/v2/checkout/orders/${order.id}`, 'update', 'PATCH'),
          this.link(`/v2/checkout/orders/${order.id}/capture`, 'capture', 'POST'),
        ];
        this.save('orders', order);
        return json(201, this.orderView(order));
      }),
    );
    r.on(
      'GET',
      '/v2/checkout/orders/:id',
      api((request) => {
        const order = this.find('orders', request.params.id!);
        return order ? json(200, this.orderView(order)) : notFound();
      }),
    );
    r.on(
      'POST',
      '/v2/checkout/orders/:id/capture',
      api((request) => {
        const order = this.find('orders', request.params.id!);
        return order ? this.capture(order) : notFound();
      }),
    );
    r.on(
      'GET',
      '/v2/payments/captures/:id',
      api((request) => {
        const capture = this.find('captures', request.params.id!);
        return capture ? json(200, capture) : notFound();
      }),
    );
    r.on(
      'POST',
      '/v2/payments/captures/:id/refund',
      api((request) => {
        const amount = request.body.amount as { value?: string } | undefined;
        return this.refundCapture(request.params.id!, amount?.value, str(request.body.note_to_payer));
      }),
    );
    r.on(
      'GET',
      '/v2/payments/refunds/:id',
      api((request) => {
        const refund = this.find('refunds', request.params.id!);
        return refund ? json(200, refund) : notFound();
      }),
    );
    r.on(
      'POST',
      '/v1/payments/sale/:id/refund',
      api((request) => {
        const amount = request.body.amount as { total?: string } | undefined;
        return this.refundSale(request.params.id!, amount?.total);
      }),
    );

    r.on(
      'POST',
      '/v1/catalogs/products',
      api((request) => {
        const name = str(request.body.name);
        if (!name)
          return paypalError(400, 'INVALID_REQUEST', 'MISSING_REQUIRED_PARAMETER', 'name is required.');
        const product: Obj = {
          id: `PROD-${randomId('', 17).toUpperCase()}`,
          name,
          description: request.body.description ?? null,
          type: request.body.type ?? 'DIGITAL',
          category: request.body.category ?? null,
          create_time: this.iso(),
          links: [] as unknown[],
        };
        product.links = [this.link(`/v1/catalogs/products/${product.id}`, 'self')];
        return json(201, this.save('products', product));
      }),
    );
    r.on(
      'POST',
      '/v1/billing/plans',
      api((request) => {
        const productId = str(request.body.product_id);
        if (!productId || !this.find('products', productId)) {
          return paypalError(
            422,
            'UNPROCESSABLE_ENTITY',
            'INVALID_PRODUCT_ID',
            'The specified product ID is invalid.',
          );
        }
        const cycles = request.body.billing_cycles;
        const cycle = Array.isArray(cycles) ? (cycles[0] as Record<string, unknown>) : undefined;
        const frequency = cycle?.frequency as { interval_unit?: string } | undefined;
        const price = (
          cycle?.pricing_scheme as { fixed_price?: { value?: string; currency_code?: string } } | undefined
        )?.fixed_price;
        if (!cycle || frequency?.interval_unit !== 'MONTH' || !price?.value || !price.currency_code) {
          return paypalError(
            400,
            'INVALID_REQUEST',
            'INVALID_PARAMETER_VALUE',
            'billing_cycles must have one monthly regular cycle with a fixed price.',
          );
        }
        const plan: Obj = {
          id: `P-${randomId('', 24).toUpperCase()}`,
          product_id: productId,
          name: request.body.name ?? 'Plan',
          status: 'ACTIVE',
          billing_cycles: cycles,
          payment_preferences: request.body.payment_preferences ?? {},
          create_time: this.iso(),
          links: [] as unknown[],
        };
        plan.links = [this.link(`/v1/billing/plans/${plan.id}`, 'self')];
        return json(201, this.save('plans', plan));
      }),
    );
    r.on(
      'POST',
      '/v1/billing/subscriptions',
      api((request) => {
        const planId = str(request.body.plan_id);
        if (!planId || !this.find('plans', planId)) {
          return paypalError(
            422,
            'UNPROCESSABLE_ENTITY',
            'INVALID_PARAMETER_VALUE',
            'The specified plan_id is invalid.',
          );
        }
        const subscription: Obj = {
          id: `I-${randomId('', 12).toUpperCase()}`,
          plan_id: planId,
          status: 'APPROVAL_PENDING',
          custom_id: request.body.custom_id ?? null,
          quantity: '1',
          create_time: this.iso(),
          status_update_time: this.iso(),
          plan_overridden: false,
          links: [] as unknown[],
        };
        const context = (request.body.application_context ?? {}) as Record<string, unknown>;
        subscription._returnUrl = context.return_url ?? null;
        subscription._cancelUrl = context.cancel_url ?? null;
        subscription.links = [
          this.link(
            `/webapps/billing/subscriptions?ba_token=BA-${randomId('', 17).toUpperCase()}&subscription_id=${subscription.id}`,
            'approve',
          ),
          this.link(`/v1/billing/subscriptions/${subscription.id}`, 'edit', 'PATCH'),
          this.link(`/v1/billing/subscriptions/${subscription.id}`, 'self'),
        ];
        this.save('subscriptions', subscription);
        this.emit(
          'BILLING.SUBSCRIPTION.CREATED',
          'subscription',
          this.orderView(subscription),
          'Subscription created',
        );
        return json(201, this.orderView(subscription));
      }),
    );
    r.on(
      'GET',
      '/v1/billing/subscriptions/:id',
      api((request) => {
        const subscription = this.find('subscriptions', request.params.id!);
        return subscription ? json(200, this.orderView(subscription)) : notFound();
      }),
    );
    r.on(
      'POST',
      '/v1/billing/subscriptions/:id/cancel',
      api((request) => {
        const subscription = this.find('subscriptions', request.params.id!);
        if (!subscription) return notFound();
        if (!this.cancelSubscription(subscription.id, str(request.body.reason))) {
          return paypalError(
            422,
            'UNPROCESSABLE_ENTITY',
            'SUBSCRIPTION_STATUS_INVALID',
            'Invalid subscription status for cancel action; subscription status should be active or suspended.',
          );
        }
        return { status: 204, empty: true };
      }),
    );

    r.on(
      'POST',
      '/v1/notifications/verify-webhook-signature',
      api((request) => {
        const body = request.body;
        const event = body.webhook_event;
        if (typeof event !== 'object' || event === null) {
          return paypalError(
            400,
            'VALIDATION_ERROR',
            'MISSING_REQUIRED_PARAMETER',
            'webhook_event is required.',
          );
        }
        let ok = false;
        try {
          ok =
            body.auth_algo === 'SHA256withRSA' &&
            body.webhook_id === this.credentials.webhookId &&
            typeof body.cert_url === 'string' &&
            createVerify('RSA-SHA256')
              .update(
                paypalSignedText(
                  String(body.transmission_id),
                  String(body.transmission_time),
                  String(body.webhook_id),
                  JSON.stringify(event),
                ),
              )
              .verify(this.keys.publicKey, String(body.transmission_sig), 'base64');
        } catch {
          ok = false;
        }
        return json(200, { verification_status: ok ? 'SUCCESS' : 'FAILURE' });
      }),
    );
    r.on('GET', '/v1/notifications/certs/:id', () => ({
      status: 200,
      contentType: 'application/x-pem-file',
      text: this.keys.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    }));

    // Approval pages (PayPal's window) and their answers.
    r.on('GET', '/checkoutnow', (request) => this.approvalPage(str(request.query.token) ?? '', 'order'));
    r.on('GET', '/webapps/billing/subscriptions', (request) =>
      this.approvalPage(str(request.query.subscription_id) ?? '', 'subscription'),
    );
    r.on('POST', '/_emulator/approve/:kind/:id', (request) => {
      const buyer = request.body.buyer === 'declined' ? 'declined' : 'pays';
      if (request.params.kind === 'order') {
        const order = this.approveOrder(request.params.id!, buyer);
        if (!order) return json(409, { message: 'This order cannot be approved' });
        return json(200, { orderID: order.id, payerID: (order.payer as { payer_id: string }).payer_id });
      }
      const result = this.approveSubscription(request.params.id!, buyer);
      if (!result.ok) return json(409, { message: result.message });
      return json(200, {
        subscriptionID: request.params.id,
        orderID: `BA-${randomId('', 17).toUpperCase()}`,
      });
    });
  }

  private approvalPage(id: string, kind: 'order' | 'subscription'): EmulatorResponse {
    const record = kind === 'order' ? this.find('orders', id) : this.find('subscriptions', id);
    let amount = '';
    if (record && kind === 'order') {
      const unit = (
        record.purchase_units as Array<{
          amount: { currency_code: string; value: string };
          description?: string;
        }>
      )[0]!;
      amount = money(toMinor(unit.amount.value, unit.amount.currency_code), unit.amount.currency_code);
    } else if (record) {
      const price = this.cyclePrice(this.planOf(record));
      amount = `${money(toMinor(price.value, price.currency_code), price.currency_code)} every ${price.months} month(s)`;
    }
    if (!record)
      return {
        status: 404,
        contentType: 'text/html',
        text: page('PayPal', '#0070ba', '<h1>Unknown order</h1>'),
      };
    const description =
      kind === 'order'
        ? String((record.purchase_units as Array<{ description?: string }>)[0]?.description ?? 'Your order')
        : 'Subscription';
    return {
      status: 200,
      contentType: 'text/html',
      text: page(
        'PayPal Checkout',
        '#0070ba',
        `<h1>Pay with PayPal</h1><p class="muted">${escapeHtml(description)}</p><div class="amount">${escapeHtml(amount)}</div>
<form class="card" id="approve"><fieldset style="border:0;padding:0;margin:0"><legend style="font-weight:600">Test buyer</legend>
<label style="font-weight:400"><input type="radio" name="buyer" value="pays" checked style="width:auto"> buyer@example.com (pays)</label>
<label style="font-weight:400"><input type="radio" name="buyer" value="declined" style="width:auto"> declined-buyer@example.com (instrument declined)</label></fieldset>
<button type="submit">${kind === 'order' ? 'Pay now' : 'Agree &amp; Subscribe'}</button><button type="button" class="secondary" id="cancel">Cancel and return</button>
<p class="error" id="error" role="alert"></p></form>`,
        `const tell=(data)=>{const target=window.opener||window.parent;if(target&&target!==window)target.postMessage(data,'*');};
document.getElementById('approve').onsubmit=async(e)=>{e.preventDefault();const buyer=new FormData(e.target).get('buyer');
const res=await fetch('/_emulator/approve/${kind}/${encodeURIComponent(id)}',{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify({buyer})});
const body=await res.json();if(!res.ok){document.getElementById('error').textContent=body.message;tell({type:'paypal:error',message:body.message});return;}
tell(Object.assign({type:'paypal:approved'},body));if(window.opener)window.close();};
document.getElementById('cancel').onclick=()=>{tell({type:'paypal:cancelled',id:${JSON.stringify(id)}});if(window.opener)window.close();};`,
      ),
    };
  }

  /** For tests: a capture's amount as minor units, to compare with an order's. */
  static minor(value: string, currency: string): number {
    return toMinor(value, currency);
  }

  static decimal(minor: number, currency: string): string {
    return toDecimal(minor, currency);
  }
}
