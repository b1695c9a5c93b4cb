import https from 'node:https';
import net from 'node:net';
import {
  ApiError,
  Client,
  Environment,
  OrdersController,
  PaymentsController,
  SubscriptionsController,
  type OAuthToken,
} from '@paypal/paypal-server-sdk';
import type { GatewayInfo, GatewayMode } from '@backbeat/contract';
import { AppError } from '../../../platform/errors';
import { fromDecimalString, toDecimalString } from '../money';
import { gatewayFailed, type PaymentGateway } from '../payment-gateway';
import type { RefundReport } from '../payment-ledger';
import type { OrderRow, PaymentRow, SubscriptionRow } from '../payments.repository';

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

/** PayPal's refusal, read from its error body: `{ name, message, details: [{ issue, description }] }`. */
export function paypalIssue(
  error: unknown,
): { status: number; issue: string | null; description: string } | null {
  if (!(error instanceof ApiError)) return null;
  let body: { message?: string; details?: Array<{ issue?: string; description?: string }> } = {};
  try {
    body = typeof error.body === 'string' ? (JSON.parse(error.body) as typeof body) : {};
  } catch {
    body = {};
  }
  const detail = body.details?.[0];
  return {
    status: error.statusCode,
    issue: detail?.issue ?? null,
    description: detail?.description ?? body.message ?? 'PayPal refused the request',
  };
}

export function paypalFailure(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const issue = paypalIssue(error);
  if (issue && issue.status < 500) {
    return new AppError(400, 'GATEWAY_REJECTED', `PayPal refused the request: ${issue.description}`);
  }
  return gatewayFailed('paypal', error instanceof Error ? error.message : undefined);
}

/** PayPal through its server SDK (orders, captures, refunds, subscriptions) and its documented REST calls. */
export class PaypalGateway implements PaymentGateway {
  readonly name = 'paypal' as const;
  readonly client: Client;
  readonly orders: OrdersController;
  readonly captures: PaymentsController;
  readonly subscriptions: SubscriptionsController;
  private readonly agent: https.Agent | undefined;
  private token: OAuthToken | undefined;

  constructor(readonly settings: PaypalSettings) {
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
  }

  get mode(): GatewayMode {
    if (this.settings.apiBase) return 'emulator';
    return this.settings.environment === 'live' ? 'live' : 'test';
  }

  get host(): string {
    return this.settings.environment === 'live' ? 'api-m.paypal.com' : 'api-m.sandbox.paypal.com';
  }

  describe(): GatewayInfo {
    return {
      name: 'paypal',
      label: 'PayPal',
      mode: this.mode,
      publishableKey: this.settings.clientId,
      scriptUrl: this.settings.apiBase ? `${this.settings.apiBase.replace(/\/$/, '')}/sdk/js` : null,
      subscriptions: true,
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
            else if (status < 500) {
              const message = (json as { message?: string } | null)?.message ?? `status ${status}`;
              reject(new AppError(400, 'GATEWAY_REJECTED', `PayPal refused the request: ${message}`));
            } else reject(gatewayFailed('paypal', `status ${status}`));
          });
        },
      );
      request.on('timeout', () => request.destroy(new Error('timed out')));
      request.on('error', (error) => reject(gatewayFailed('paypal', error.message)));
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
      if (error instanceof AppError && error.status === 400) return { verification_status: 'FAILURE' };
      throw error;
    });
    if (result.verification_status !== 'SUCCESS') {
      throw new AppError(400, 'INVALID_SIGNATURE', 'Invalid PayPal signature');
    }
  }

  /**
   * Refunds a capture (a purchase) through the SDK, or a subscription's sale through PayPal's v1 sale refund (the
   * SDK has none). PayPal answers COMPLETED for an immediate refund.
   */
  async refund(order: OrderRow, payment: PaymentRow, reason: string | null): Promise<RefundReport | null> {
    const note = reason?.slice(0, 250);
    if (order.itemType === 'subscription') {
      const saleId = payment.reference;
      if (!saleId) throw gatewayFailed('paypal', 'no sale to refund');
      const refund = await this.rest<{
        id: string;
        state?: string;
        amount?: { total?: string; currency?: string };
      }>('POST', `/v1/payments/sale/${encodeURIComponent(saleId)}/refund`, {
        amount: { total: toDecimalString(payment.amount, payment.currency), currency: payment.currency },
        ...(note && { description: note }),
      });
      if (refund.state !== 'completed') return null;
      return {
        gateway: 'paypal',
        externalId: refund.id,
        kind: 'refund',
        amount: payment.amount,
        currency: payment.currency,
        reason,
        raw: { refund: refund.id, sale: saleId },
      };
    }
    try {
      const { result } = await this.captures.refundCapturedPayment({
        captureId: payment.externalId,
        paypalRequestId: `refund-${order.id}`,
        body: { noteToPayer: note },
      });
      if (result.status !== 'COMPLETED' || !result.id) return null;
      const currency = result.amount?.currencyCode ?? payment.currency;
      return {
        gateway: 'paypal',
        externalId: result.id,
        kind: 'refund',
        amount: fromDecimalString(result.amount?.value, currency) || payment.amount,
        currency,
        reason,
        raw: { refund: result.id, capture: payment.externalId },
      };
    } catch (error) {
      throw paypalFailure(error);
    }
  }

  /** Backbeat creates no PayPal customer (the buyer's details stay in PayPal's own checkout): nothing to delete. */
  async deleteCustomer(): Promise<void> {}

  /** PayPal cancels a subscription at once: no more charges; access lasts to the end of the period paid for. */
  async cancelSubscription(subscription: SubscriptionRow): Promise<void> {
    if (!subscription.externalId) return;
    try {
      await this.subscriptions.cancelSubscription({
        id: subscription.externalId,
        body: { reason: 'Cancelled by the subscriber on Backbeat' },
      });
    } catch (error) {
      const issue = paypalIssue(error);
      // Already cancelled at PayPal: nothing left to stop.
      if (issue?.issue === 'SUBSCRIPTION_STATUS_INVALID') return;
      throw paypalFailure(error);
    }
  }
}
