/**
 * Razorpay's documented REST API (https://razorpay.com/docs/api/), called directly. The official Node SDK offers no
 * setting for its API address (it is fixed to api.razorpay.com inside an axios instance the SDK does not expose),
 * so reaching the local emulator would mean rewriting an SDK internal; this client takes the address as a plain
 * option instead. The SDK stays in use for what it documents as helpers: webhook and checkout signature checks.
 */

export interface RzpOrder {
  id: string;
  entity: 'order';
  amount: number;
  amount_paid: number;
  amount_due: number;
  currency: string;
  receipt: string | null;
  status: 'created' | 'attempted' | 'paid';
  notes: Record<string, string> | unknown[];
  created_at: number;
  [field: string]: unknown;
}

export interface RzpPayment {
  id: string;
  entity: 'payment';
  amount: number;
  currency: string;
  status: 'created' | 'authorized' | 'captured' | 'refunded' | 'failed';
  order_id: string | null;
  invoice_id: string | null;
  amount_refunded: number;
  refund_status: 'partial' | 'full' | null;
  captured: boolean;
  error_description?: string | null;
  created_at: number;
}

export interface RzpRefund {
  id: string;
  entity: 'refund';
  payment_id: string;
  amount: number;
  currency: string;
  status: 'pending' | 'processed' | 'failed';
  created_at: number;
}

export interface RzpDispute {
  id: string;
  entity: 'dispute';
  payment_id: string;
  amount: number;
  amount_deducted: number;
  currency: string;
  status: 'open' | 'under_review' | 'won' | 'lost' | 'closed';
  reason_code?: string;
  created_at: number;
}

export interface RzpSubscription {
  id: string;
  entity: 'subscription';
  plan_id: string;
  status: string;
  current_start: number | null;
  current_end: number | null;
  notes?: Record<string, string> | unknown[];
}

/** A subscription's invoice: the period a charge paid for (`billing_start`, `billing_end`). */
export interface RzpInvoice {
  id: string;
  entity: 'invoice';
  subscription_id: string | null;
  payment_id: string | null;
  billing_start: number | null;
  billing_end: number | null;
  status: string;
}

export interface RzpPlan {
  id: string;
  entity: 'plan';
}

export interface RzpCollection<T> {
  entity: 'collection';
  count: number;
  items: T[];
}

/** A refusal from Razorpay, in its documented error envelope (`{ error: { code, description, ... } }`). */
export class RazorpayApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly error: { code?: string; description?: string; reason?: string | null; field?: string | null },
  ) {
    super(`Razorpay ${statusCode} ${error.code ?? ''}: ${error.description ?? 'no description'}`);
  }
}

export interface RazorpayApiOptions {
  keyId: string;
  keySecret: string;
  /** https://api.razorpay.com by default; the emulator's address in development and tests. */
  baseUrl?: string;
  timeoutMs?: number;
}

type Query = Record<string, string | number | undefined>;

/** The calls Backbeat makes, each as Razorpay documents it (paths under /v1, HTTP basic auth with the key pair). */
export class RazorpayApi {
  private readonly base: string;
  private readonly authorization: string;

  constructor(private readonly options: RazorpayApiOptions) {
    this.base = (options.baseUrl ?? 'https://api.razorpay.com').replace(/\/$/, '');
    this.authorization = `Basic ${Buffer.from(`${options.keyId}:${options.keySecret}`).toString('base64')}`;
  }

  createOrder(body: { amount: number; currency: string; receipt: string; notes: Record<string, string> }) {
    return this.call<RzpOrder>('POST', '/v1/orders', body);
  }

  fetchOrder(id: string) {
    return this.call<RzpOrder>('GET', `/v1/orders/${encodeURIComponent(id)}`);
  }

  /** The payments made on an order (a buyer may try again after a failure, or pay twice from two tabs). */
  paymentsOfOrder(orderId: string) {
    return this.call<RzpCollection<RzpPayment>>('GET', `/v1/orders/${encodeURIComponent(orderId)}/payments`);
  }

  fetchPayment(id: string) {
    return this.call<RzpPayment>('GET', `/v1/payments/${encodeURIComponent(id)}`);
  }

  /** Captures an authorized payment for exactly the amount authorized (Razorpay refuses any other). */
  capturePayment(id: string, amount: number, currency: string) {
    return this.call<RzpPayment>('POST', `/v1/payments/${encodeURIComponent(id)}/capture`, {
      amount,
      currency,
    });
  }

  refundPayment(id: string, body: { amount?: number; notes?: Record<string, string>; receipt?: string }) {
    return this.call<RzpRefund>('POST', `/v1/payments/${encodeURIComponent(id)}/refund`, body);
  }

  fetchRefund(paymentId: string, refundId: string) {
    return this.call<RzpRefund>(
      'GET',
      `/v1/payments/${encodeURIComponent(paymentId)}/refunds/${encodeURIComponent(refundId)}`,
    );
  }

  refundsOfPayment(paymentId: string) {
    return this.call<RzpCollection<RzpRefund>>(
      'GET',
      `/v1/payments/${encodeURIComponent(paymentId)}/refunds`,
      undefined,
      { count: 100 },
    );
  }

  fetchInvoice(id: string) {
    return this.call<RzpInvoice>('GET', `/v1/invoices/${encodeURIComponent(id)}`);
  }

  fetchDispute(id: string) {
    return this.call<RzpDispute>('GET', `/v1/disputes/${encodeURIComponent(id)}`);
  }

  /** Payments, refunds or disputes created in [from, to] (unix seconds), page by page (at most 100 a page). */
  async *list<T>(
    what: 'payments' | 'refunds' | 'disputes' | 'invoices',
    from: number,
    to: number,
  ): AsyncGenerator<T> {
    for (let skip = 0; ; skip += 100) {
      const page = await this.call<RzpCollection<T>>('GET', `/v1/${what}`, undefined, {
        from,
        to,
        count: 100,
        skip,
      });
      for (const item of page.items) yield item;
      if (page.items.length < 100) return;
    }
  }

  createPlan(body: {
    period: 'monthly';
    interval: number;
    item: { name: string; amount: number; currency: string };
    notes: Record<string, string>;
  }) {
    return this.call<RzpPlan>('POST', '/v1/plans', body);
  }

  createSubscription(body: {
    plan_id: string;
    total_count: number;
    customer_notify: 0 | 1;
    notes: Record<string, string>;
  }) {
    return this.call<RzpSubscription>('POST', '/v1/subscriptions', body);
  }

  fetchSubscription(id: string) {
    return this.call<RzpSubscription>('GET', `/v1/subscriptions/${encodeURIComponent(id)}`);
  }

  cancelSubscription(id: string, atCycleEnd: boolean) {
    return this.call<RzpSubscription>('POST', `/v1/subscriptions/${encodeURIComponent(id)}/cancel`, {
      cancel_at_cycle_end: atCycleEnd ? 1 : 0,
    });
  }

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown, query?: Query): Promise<T> {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) search.set(key, String(value));
    }
    const url = `${this.base}${path}${search.size > 0 ? `?${search}` : ''}`;
    const response = await fetch(url, {
      method,
      headers: {
        authorization: this.authorization,
        accept: 'application/json',
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 20_000),
    });
    const text = await response.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    if (!response.ok) {
      const error = (json as { error?: RazorpayApiError['error'] } | null)?.error ?? {
        description: text.slice(0, 200),
      };
      throw new RazorpayApiError(response.status, error);
    }
    return json as T;
  }
}
