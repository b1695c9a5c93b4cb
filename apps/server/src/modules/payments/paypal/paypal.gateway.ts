import https from 'node:https';
import net from 'node:net';
import {
  ApiError,
  Client,
  Environment,
  OrdersController,
  PaymentsController,
  SubscriptionsController,
  TransactionSearchController,
  type OAuthToken,
} from '@paypal/paypal-server-sdk';
import { toDecimalString } from '@backbeat/contract';
import { AppError } from '../../../platform/errors';
import { gatewayFailure, GatewayScaffold, type CheckoutState, type RefundRequest } from '../payment-gateway';
import type { OrderRow, PaymentRow } from '../payments.repository';
import { paypalRefundReport, type Json } from './paypal.facts';

export interface PaypalSettings {
  clientId: string;
  clientSecret: string;
  webhookId: string;
  environment: 'sandbox' | 'live';
  /** The local gateway emulator's address (development and tests). */
  apiBase?: string;
}

/** PayPal's webhook transmission headers, as verify-webhook-signature takes them. */
export interface PaypalTransmission {
  authAlgo?: string;
  certUrl?: string;
  transmissionId?: string;
  transmissionSig?: string;
  transmissionTime?: string;
}

/**
 * An https agent that dials the emulator instead of PayPal. The PayPal SDK hard-codes api-m.(sandbox.)paypal.com and
 * has no base-URL option; its narrowest seam is the `httpsAgent` it accepts. Requests keep PayPal's host header and
 * paths; only the connection goes to the local emulator (plain TCP on loopback).
 */
export function emulatorAgent(apiBase: string): https.Agent {
  const target = new URL(apiBase);
  const agent = new https.Agent({ keepAlive: true });
  Object.assign(agent, {
    createConnection: (_options: unknown, callback?: (error: Error | null, socket: net.Socket) => void) => {
      const socket = net.connect({ host: target.hostname, port: Number(target.port || 80) });
      if (callback) socket.once('connect', () => callback(null, socket));
      return socket;
    },
  });
  return agent;
}

/** A PayPal REST answer that was not 2xx (from the calls the SDK does not offer). */
export class PaypalRestError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`PayPal ${status}: ${JSON.stringify(body)?.slice(0, 300)}`);
  }
}

/** PayPal's refusal, read from its error body: `{ name, message, details: [{ issue, description }] }`. */
export function paypalIssue(
  error: unknown,
): { status: number; issue: string | null; description: string } | null {
  let status: number;
  let raw: unknown;
  if (error instanceof ApiError) {
    status = error.statusCode;
    raw = error.body;
  } else if (error instanceof PaypalRestError) {
    status = error.status;
    raw = error.body;
  } else {
    return null;
  }
  let body: { message?: string; details?: Array<{ issue?: string; description?: string }> } = {};
  try {
    body = (typeof raw === 'string' ? JSON.parse(raw) : (raw ?? {})) as typeof body;
  } catch {
    body = {};
  }
  const detail = body.details?.[0];
  return {
    status,
    issue: detail?.issue ?? null,
    description: detail?.description ?? body.message ?? 'PayPal refused the request',
  };
}

/** PayPal's refusal as a clear failure for the buyer; PayPal's own words go to the log with the error. */
export const paypalFailure = gatewayFailure('paypal', (error) => {
  const issue = paypalIssue(error);
  if (issue?.status === 429) return 'busy';
  return issue && issue.status < 500 ? 'rejected' : undefined;
});

/** PayPal through its server SDK (orders, captures, refunds, subscriptions) and its documented REST calls. */
export class PaypalGateway extends GatewayScaffold {
  readonly name = 'paypal' as const;
  readonly client: Client;
  readonly orders: OrdersController;
  readonly captures: PaymentsController;
  readonly subscriptions: SubscriptionsController;
  readonly transactions: TransactionSearchController;
  private readonly agent: https.Agent | undefined;
  private token: OAuthToken | undefined;

  constructor(readonly settings: PaypalSettings) {
    super(paypalFailure, 'PayPal sale');
    this.agent = settings.apiBase ? emulatorAgent(settings.apiBase) : undefined;
    this.client = new Client({
      clientCredentialsAuthCredentials: {
        oAuthClientId: settings.clientId,
        oAuthClientSecret: settings.clientSecret,
      },
      environment: settings.environment === 'live' ? Environment.Production : Environment.Sandbox,
      timeout: 20_000,
      // No `logging` option: the SDK then uses its NullLogger. With it, every request and response is
      // printed at the chosen level (even Error), which floods the server log.
      ...(this.agent && { httpClientOptions: { httpsAgent: this.agent } }),
    });
    this.orders = new OrdersController(this.client);
    this.captures = new PaymentsController(this.client);
    this.subscriptions = new SubscriptionsController(this.client);
    this.transactions = new TransactionSearchController(this.client);
  }

  get host(): string {
    return this.settings.environment === 'live' ? 'api-m.paypal.com' : 'api-m.sandbox.paypal.com';
  }

  protected face() {
    return {
      label: 'PayPal',
      publishableKey: this.settings.clientId,
      apiBase: this.settings.apiBase,
      scriptPath: '/sdk/js',
      live: this.settings.environment === 'live',
    };
  }

  /**
   * A PayPal REST call the SDK does not offer (catalog products, webhook verification, sale refunds), with the
   * SDK's own OAuth token and the same connection (the emulator's in development).
   */
  async rest<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    this.token = await this.client.clientCredentialsAuthManager.updateToken(this.token);
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return new Promise<T>((resolve, reject) => {
      const request = https.request(
        {
          host: this.host,
          path,
          method,
          agent: this.agent,
          timeout: 20_000,
          headers: {
            authorization: `Bearer ${this.token!.accessToken}`,
            accept: 'application/json',
            ...(payload && { 'content-type': 'application/json', 'content-length': payload.length }),
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let json: unknown = null;
            try {
              json = text ? JSON.parse(text) : null;
            } catch {
              json = null;
            }
            const status = response.statusCode ?? 500;
            if (status >= 200 && status < 300) resolve(json as T);
            else reject(new PaypalRestError(status, json));
          });
        },
      );
      request.on('timeout', () => request.destroy(new Error('timed out')));
      request.on('error', (error) => reject(this.unreachable(error)));
      request.end(payload);
    });
  }

  /** PayPal's documented check of a webhook: verify-webhook-signature with our webhook id and the event. */
  async verifyEvent(transmission: PaypalTransmission, event: unknown): Promise<void> {
    const { authAlgo, certUrl, transmissionId, transmissionSig, transmissionTime } = transmission;
    if (!authAlgo || !certUrl || !transmissionId || !transmissionSig || !transmissionTime) {
      throw new AppError(400, 'INVALID_SIGNATURE', 'Missing PayPal transmission headers');
    }
    const result = await this.rest<{ verification_status?: string }>(
      'POST',
      '/v1/notifications/verify-webhook-signature',
      {
        auth_algo: authAlgo,
        cert_url: certUrl,
        transmission_id: transmissionId,
        transmission_sig: transmissionSig,
        transmission_time: transmissionTime,
        webhook_id: this.settings.webhookId,
        webhook_event: event,
      },
    ).catch((error: unknown) => {
      if (error instanceof PaypalRestError && error.status < 500) return { verification_status: 'FAILURE' };
      throw paypalFailure(error);
    });
    if (result.verification_status !== 'SUCCESS') {
      throw new AppError(400, 'INVALID_SIGNATURE', 'Invalid PayPal signature');
    }
  }

  // ---------------------------------------------------------------------------------------------------------
  // Reading PayPal's objects (JSON as its REST API returns it): the SDK where it has the call, else its REST API

  getOrder(id: string): Promise<Json> {
    return this.sdkJson(() => this.orders.getOrder({ id }));
  }

  getCapture(captureId: string): Promise<Json> {
    return this.sdkJson(() => this.captures.getCapturedPayment({ captureId }));
  }

  getRefund(refundId: string): Promise<Json> {
    return this.sdkJson(() => this.captures.getRefund({ refundId }));
  }

  /** The payments of a subscription between two times (each a sale: its id is `id`). */
  subscriptionTransactions(id: string, from: Date, to: Date): Promise<Json> {
    return this.sdkJson(() =>
      this.subscriptions.listSubscriptionTransactions({
        id,
        startTime: from.toISOString(),
        endTime: to.toISOString(),
      }),
    );
  }

  /** PayPal's transaction search (Reporting API): what moved on the account in a window, a page at a time. */
  searchTransactions(from: Date, to: Date, page: number): Promise<Json> {
    return this.sdkJson(() =>
      this.transactions.searchTransactions({
        startDate: from.toISOString(),
        endDate: to.toISOString(),
        fields: 'transaction_info',
        pageSize: 500,
        page,
      }),
    );
  }

  /** A v1 sale refund (subscription payments), which the SDK has no call for. */
  async getSaleRefund(refundId: string): Promise<Json> {
    return this.restJson('GET', `/v1/payments/refund/${encodeURIComponent(refundId)}`);
  }

  /** A dispute (Disputes API), which the SDK has no call for. */
  async getDispute(disputeId: string): Promise<Json> {
    return this.restJson('GET', `/v1/customer/disputes/${encodeURIComponent(disputeId)}`);
  }

  /**
   * One page of disputes updated after `updatedAfter` (Disputes API, "List disputes": summaries, newest update
   * first, up to 50 a page; the answer's `next` link carries the next page's token).
   */
  async listDisputes(updatedAfter: Date, pageToken?: string): Promise<Json> {
    const query = new URLSearchParams({ update_time_after: updatedAfter.toISOString(), page_size: '50' });
    if (pageToken) query.set('next_page_token', pageToken);
    return this.restJson('GET', `/v1/customer/disputes?${query.toString()}`);
  }

  private async restJson(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Json> {
    try {
      return (await this.rest<Json>(method, path, body)) ?? {};
    } catch (error) {
      throw paypalFailure(error);
    }
  }

  private async sdkJson(call: () => Promise<{ body: unknown }>): Promise<Json> {
    try {
      const { body } = await call();
      return JSON.parse(String(body)) as Json;
    } catch (error) {
      throw paypalFailure(error);
    }
  }

  // ---------------------------------------------------------------------------------------------------------

  /**
   * A purchase refunds its capture; a subscription its sale, the payment's own id (payments recorded before sale ids
   * were kept name it as their reference).
   */
  protected paymentRef(order: OrderRow, payment: PaymentRow): string | null {
    if (order.itemType !== 'subscription') return payment.externalId;
    return payment.externalId.includes('@') ? payment.reference : payment.externalId;
  }

  /**
   * Refunds a capture (a purchase) through the SDK, or a subscription's sale through PayPal's v1 sale refund (the
   * SDK has none). PayPal answers COMPLETED for an immediate refund.
   */
  protected async refundAt(ref: string, order: OrderRow, payment: PaymentRow, request: RefundRequest) {
    const note = request.reason?.slice(0, 250);
    if (order.itemType === 'subscription') {
      const refund = await this.rest<Json>('POST', `/v1/payments/sale/${encodeURIComponent(ref)}/refund`, {
        amount: {
          total: toDecimalString(request.amount ?? payment.amount, payment.currency),
          currency: payment.currency,
        },
        ...(note && { description: note }),
      });
      return paypalRefundReport({ ...refund, status: String(refund.state ?? '').toUpperCase() }, ref);
    }
    const amount =
      request.amount !== undefined
        ? { value: toDecimalString(request.amount, payment.currency), currencyCode: payment.currency }
        : undefined;
    const response = await this.captures.refundCapturedPayment({
      captureId: ref,
      paypalRequestId: request.idempotencyKey,
      body: { noteToPayer: note, ...(amount && { amount }) },
    });
    return paypalRefundReport(JSON.parse(String(response.body)) as Json, ref);
  }

  /** PayPal cancels a subscription at once: no more charges; access lasts to the end of the period paid for. */
  protected async stopRenewals(externalId: string): Promise<void> {
    try {
      await this.subscriptions.cancelSubscription({
        id: externalId,
        body: { reason: 'Cancelled by the subscriber on Backbeat' },
      });
    } catch (error) {
      // Already cancelled (or never approved) at PayPal: nothing left to stop.
      if (paypalIssue(error)?.issue !== 'SUBSCRIPTION_STATUS_INVALID') throw error;
    }
  }

  /**
   * A PayPal order cannot be voided before its capture: an order that must not be paid is left to expire there,
   * and Backbeat refuses to capture it. A subscription never approved is cancelled.
   */
  protected async purchaseState(orderId: string): Promise<CheckoutState> {
    try {
      const { body } = await this.orders.getOrder({ id: orderId });
      return (JSON.parse(String(body)) as Json).status === 'COMPLETED' ? 'paid' : 'open';
    } catch (error) {
      // PayPal forgets an order nobody captured within three hours: it can no longer be paid.
      if (paypalIssue(error)?.status === 404) return 'cancelled';
      throw error;
    }
  }
}
